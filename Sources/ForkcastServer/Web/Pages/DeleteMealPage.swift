import ForkcastCore
import Foundation

/// Confirmation before a meal is deleted (the no-JavaScript path; scripts use a dialog).
struct DeleteMealPage {
    let meal: Meal
    let plannedDays: Int

    func render(layout: Layout) -> HTML {
        layout.render("""
        <section class="card narrow">
          <h1>Delete “\(meal.description)”?</h1>
          <p>\(plannedDays > 0 ? "It is planned on \(plannedDays) day\(plannedDays == 1 ? "" : "s"); those plans are removed too. " : "")This cannot be undone.</p>
          <form method="post" action="\(SiteURL.deleteMeal(meal.id).path)" class="form-actions">
            \(Layout.csrfField(layout.csrf ?? ""))
            <a class="button" href="\(SiteURL.meals().path)">Cancel</a>
            <button class="button danger" type="submit">Delete meal</button>
          </form>
        </section>
        """)
    }
}
