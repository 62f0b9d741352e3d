import ForkcastContract
import ForkcastCore
import Foundation

/// The plan entry a recipe is opened from: its day and slot, who eats how many portions, and the
/// portions it makes (what the amounts are for).
struct PlannedFor {
    let assignment: Assignment
    let slot: String?
    let eaters: [(name: String, portions: Decimal)]
    let portions: Int
    let today: CalendarDate

    /// "Tuesday 8 December, Dinner · Ann 2 · Bob 1"
    var line: String {
        let day = assignment.date.longText
        let who = eaters.map { "\($0.name) \($0.portions)" }.joined(separator: " · ")
        return [slot.map { "\(day), \($0)" } ?? day, who.nilIfEmptyString].compactMap { $0 }.joined(separator: " · ")
    }
}

/// Cooking mode: one step at a time in large type, the screen kept on and each step's timer one
/// tap away (cook.js, which also keeps the timers and the step through a reload). Without scripts
/// every step shows in order. At the end, a plan entry is logged for its eaters in one tap.
struct CookPage {
    let meal: Meal
    let foods: [UUID: Food]
    let servings: Int
    let plannedFor: PlannedFor?
    let csrf: String

    func render(layout: Layout) -> HTML {
        let lines = meal.recipeLines(foods: foods, servings: servings)
        let keys = lines.map(\.key)
        let steps = meal.recipe.steps
        let count = steps.count + 1
        let ingredients = lines.map { line in
            HTML("<li\(if: line.isText, " class=\"text-line\"")>\(line.amount.map { HTML("<span class=\"amount\">\($0)</span> ") })\(line.name)</li>")
        }.joined()
        let stepItems = steps.enumerated().map { index, step in
            let uses = step.mentions(keys).compactMap { i in lines[i].amount.map { "\(lines[i].key) \($0)" } }
            let label = "Step \(index + 1): \(RecipeViewPage.duration(step.timerSeconds ?? 0))"
            return HTML("""
            <li class="cook-step" id="cook-step-\(index + 1)" data-step="\(index + 1)" aria-labelledby="cook-step-\(index + 1)-title">
              <h2 class="cook-progress" id="cook-step-\(index + 1)-title" tabindex="-1">Step \(index + 1) of \(steps.count)</h2>
              <p class="cook-text">\(step.text)</p>
              \(if: !uses.isEmpty, HTML("<p class=\"muted step-uses\">\(uses.joined(separator: " · "))</p>"))
              \(step.timerSeconds.map { seconds in HTML("""
                <button class="button cook-timer" type="button" data-timer="\("\(seconds)")" data-timer-label="\(label)">Start timer · \(RecipeViewPage.duration(seconds))</button>
                """) })
            </li>
            """)
        }.joined()
        return layout.render("""
        <article class="card cook stack" id="cook" data-meal="\(meal.id.uuidString)" data-meal-name="\(meal.description)" data-steps="\("\(count)")">
          <div class="page-head">
            <h1>\(meal.description)</h1>
            <a class="button small" href="\(SiteURL.recipe(meal.id, servings: servings, entry: plannedFor?.assignment.id).path)">Recipe</a>
          </div>
          <p class="muted" id="cook-for">For \(servings) serving\(servings == 1 ? "" : "s")\(plannedFor.map { " · \($0.line)" } ?? "")</p>
          <p class="muted cook-awake" id="cook-awake" aria-live="polite"></p>
          <section class="cook-timers" id="cook-timers" aria-label="Timers" aria-live="assertive"></section>
          <details class="cook-ingredients"><summary>Ingredients (\(lines.count))</summary><ul class="recipe-lines">\(ingredients)</ul></details>
          <ol class="cook-steps" id="cook-steps">
            \(stepItems)
            <li class="cook-step cook-end" id="cook-step-\(count)" data-step="\(count)" aria-labelledby="cook-end-title">
              <h2 class="cook-progress" id="cook-end-title" tabindex="-1">Enjoy your meal</h2>
              \(end)
            </li>
          </ol>
          <nav class="cook-nav" id="cook-nav" aria-label="Steps" hidden>
            <button class="button" type="button" data-cook-move="-1">‹ Back</button>
            <button class="button primary" type="button" data-cook-move="1">Next ›</button>
          </nav>
        </article>
        """)
    }

    /// "We ate this" for a plan entry of today or before; otherwise the way to Today's log.
    private var end: HTML {
        guard let planned = plannedFor else {
            return HTML("<p><a class=\"button primary\" href=\"\(SiteURL.diaryAdd(meal: meal.id).path)\">Log it on Today</a></p>")
        }
        guard planned.assignment.date <= planned.today else {
            return HTML("<p class=\"muted\">It is planned for \(planned.line): log it on the day.</p>")
        }
        let who = (planned.eaters.count > 1 ? "Logs each eater's portions into their own diary" : "Logs it into your diary")
            + " and takes the ingredients out of the pantry."
        return HTML("""
        <form method="post" action="\(SiteURL.ateCooked(planned.assignment.id).path)" id="ate-form" data-offline="eaten"
          data-assignment="\(planned.assignment.id.uuidString)" data-name="\(meal.description)" data-date="\(planned.assignment.date.iso)"
          data-meal-type="\(planned.assignment.mealType ?? "")">\(Layout.csrfField(csrf))
          <p class="muted">\(who)</p>
          <button class="button primary" type="submit" data-pressable>We ate this</button></form>
        """)
    }
}
