import ForkcastCore
import Foundation

/// Planner › Templates: saving weeks of the plan under a name, and putting one — or a rotation,
/// the templates ticked one after another in the order listed — on the plan from a day.
struct PlanTemplatesPage {
    var templates: [PlanTemplate]
    /// Meal names for each template's summary.
    var meals: [UUID: String]
    /// The week the planner showed (the default first day for both forms).
    var start: CalendarDate

    func render(layout: Layout) -> HTML {
        let csrf = Layout.csrfField(layout.csrf ?? "")
        let rows = templates.map { template in
            var seen = Set<String>()
            let names = template.entries.compactMap { meals[$0.mealId] }.filter { seen.insert($0).inserted }
            return HTML("""
            <li class="template card" id="template-\(template.id.uuidString)">
              <h3>\(template.name)</h3>
              <p class="muted">\(template.weeks) week\(template.weeks == 1 ? "" : "s") · \(template.entries.count) meal\(template.entries.count == 1 ? "" : "s")\(names.isEmpty ? "" : ": " + names.prefix(6).joined(separator: ", ") + (names.count > 6 ? "…" : ""))</p>
              <form method="post" action="\(SiteURL.applyPlanTemplate(template.id).path)" class="template-apply">\(csrf)
                <div class="grid-2">
                  <div class="field"><label for="apply-start-\(template.id.uuidString)">From</label>
                    <input id="apply-start-\(template.id.uuidString)" type="date" name="start" value="\(start.iso)" required></div>
                  <div class="field"><label for="apply-cycles-\(template.id.uuidString)">Times over</label>
                    <input id="apply-cycles-\(template.id.uuidString)" type="number" name="cycles" value="1" min="\(PlanTemplate.cyclesRange.lowerBound)" max="\(PlanTemplate.cyclesRange.upperBound)" inputmode="numeric"></div>
                </div>
                \(rotationChoices(after: template))
                <button class="button primary" type="submit">Put on the plan<span class="visually-hidden"> \(template.name)</span></button>
              </form>
              <form method="post" action="\(SiteURL.deletePlanTemplate(template.id).path)">\(csrf)
                <button class="button small subtle" type="submit">Delete<span class="visually-hidden"> \(template.name)</span></button></form>
            </li>
            """)
        }.joined()
        return layout.render("""
        <section class="card narrow">
          <h1>Week templates</h1>
          <p>Save a week — or several, like a 4-week cycle of dinners — and put it on any week later, with each meal's slot, portions and who eats it. Meals already on a day stay; putting the same template on twice plans it once.</p>
          <form method="post" action="\(SiteURL.planTemplates().path)" id="save-template">\(csrf)
            <h2>Save the plan as a template</h2>
            <div class="field"><label for="template-name">Name</label>
              <input id="template-name" name="name" required maxlength="\(PlanTemplate.nameLength.upperBound)" placeholder="Dinner rotation"></div>
            <div class="grid-2">
              <div class="field"><label for="template-start">From</label><input id="template-start" type="date" name="start" value="\(start.iso)" required></div>
              <div class="field"><label for="template-weeks">Weeks</label>
                <input id="template-weeks" type="number" name="weeks" value="1" min="\(PlanTemplate.weeksRange.lowerBound)" max="\(PlanTemplate.weeksRange.upperBound)" inputmode="numeric"></div>
            </div>
            <button class="button" type="submit">Save template</button>
          </form>
          <h2>Templates</h2>
          \(templates.isEmpty ? HTML("<p class=\"muted\" id=\"no-templates\">None yet.</p>") : HTML("<ul class=\"templates\" id=\"templates\">\(rows)</ul>"))
          <p class="button-row"><a class="button subtle" href="\(SiteURL.plan(start: start).path)">Back to the planner</a></p>
        </section>
        """)
    }

    /// The other templates, to follow this one week after week (a rotation), in the order listed.
    private func rotationChoices(after template: PlanTemplate) -> HTML {
        let others = templates.filter { $0.id != template.id }
        guard !others.isEmpty else { return .empty }
        let boxes = others.map { other in
            HTML("<label class=\"check\"><input type=\"checkbox\" name=\"then\" value=\"\(other.id.uuidString)\"> \(other.name)</label>")
        }.joined()
        return HTML("<fieldset class=\"field\"><legend>Then, week after week</legend>\(boxes)</fieldset>")
    }
}
