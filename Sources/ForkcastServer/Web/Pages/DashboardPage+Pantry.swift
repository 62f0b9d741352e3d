import ForkcastCore
import Foundation

extension DashboardPage {
    /// What in the household's pantry goes off within three days, on Today: use it first.
    var useSoonCard: HTML {
        guard !model.useSoon.isEmpty, model.day.date == model.today else { return .empty }
        let rows = model.useSoon.map { soon in
            HTML("<li>\(soon.name) <span class=\"muted\">\(PantryPage.amount(soon.lot)) · \(PantryPage.dateText(soon.lot, today: model.today))</span></li>")
        }.joined()
        return HTML("""
        <section class="card" id="use-soon" aria-labelledby="use-soon-title">
          <div class="group-head"><h2 id="use-soon-title">Use soon</h2><a class="button small" href="\(SiteURL.pantry.path)">Pantry</a></div>
          <ul class="pantry-soon">\(rows)</ul>
        </section>
        """)
    }
}
