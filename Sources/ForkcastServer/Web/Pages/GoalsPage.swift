import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Goals and body data: the profile (metric or imperial), the arithmetic, manual goals, weights
/// and the Apple Health import.
struct GoalsPage {
    var goals: Goals
    var calculation: GoalCalculation?
    /// Whether the person set their goals by hand (the same numbers as the defaults included).
    var setByHand: Bool
    var profile: BodyProfile?
    var weights: [WeightEntry]
    /// The person's zone: a weight measured at 23:30 in Auckland is shown on that day, not UTC's.
    var zone: TimeZone
    var errors = ValidationError([])
    var message: String?
    /// A weighing just deleted, offered back once.
    var putBack: PutBack?

    func render(layout: Layout) -> HTML {
        let p = profile
        func option<T: RawRepresentable>(_ value: T, _ label: String, selected: T?) -> HTML where T.RawValue == String {
            HTML("<option value=\"\(value.rawValue)\"\(if: value.rawValue == selected?.rawValue, " selected")>\(label)</option>")
        }
        let steps = calculation?.steps.map { HTML("<li>\($0)</li>") }.joined() ?? .empty
        let recent = weights.suffix(8).reversed().map { w -> HTML in
            let when = Self.when(w.measuredAt, in: zone), kg = w.weightKg.display(1)
            return HTML("""
            <li><span><strong>\(kg) kg</strong> <span class="muted">\(when) · \(Self.sourceName(w.source))</span></span>
            <form method="post" action="\(SiteURL.deleteWeight(w.id).path)" class="inline">\(Layout.csrfField(layout.csrf ?? ""))<button class="icon-button" type="submit" aria-label="Delete the weight of \(kg) kg from \(when)" data-pressable>\(Icons.close)</button></form></li>
            """)
        }.joined()
        let sexChoice = Sex.allCases.map { s in
            HTML("<label class=\"chip toggle\"><input type=\"radio\" name=\"sex\" value=\"\(s.rawValue)\"\(if: p?.sex == s, " checked")> \(s.rawValue.capitalized)</label>")
        }.joined()
        return layout.render("""
        <div class="page-head"><h1>Goals</h1></div>
        \(message.map { HTML("<p class=\"form-error\" role=\"alert\">\($0)</p>") })
        <section class="card" aria-labelledby="current-title">
          <h2 id="current-title">Your daily goals</h2>
          <p class="macros goals-line" id="current-goals"><span class="kcal">\(goals.energyKcal.display(0)) kcal</span>
            <span class="tag protein">Protein \(goals.protein.display(0)) g</span> <span class="tag carb">Carbs \(goals.carbohydrates.display(0)) g</span>
            <span class="tag fat">Fat \(goals.fat.display(0)) g</span></p>
          <p class="muted">\(goals.source == .computed ? "Computed from your body profile:" : (!setByHand ? "Defaults (\(Goals.defaults.energyKcal.display(0)) kcal / \(Goals.defaults.protein.display(0)) g / \(Goals.defaults.carbohydrates.display(0)) g / \(Goals.defaults.fat.display(0)) g) until you set your own." : "Set by hand."))</p>
          \(if: calculation != nil, HTML("<ol class=\"arithmetic\" id=\"arithmetic\">\(steps)</ol>"))
        </section>
        <section class="card" aria-labelledby="profile-title">
          <h2 id="profile-title">Compute from your body</h2>
          <form method="post" action="\(SiteURL.goalsProfile.path)" class="stack" id="profile-form">
            \(Layout.csrfField(layout.csrf ?? ""))
            <fieldset class="view-toggle"><legend>Sex</legend>\(sexChoice)</fieldset>
            \(errors.message(for: "sex").map { HTML("<p class=\"field-error\">\($0)</p>") })
            \(FormField(name: "birthDate", label: "Date of birth", value: p?.birthDate.iso, error: errors.message(for: "birthDate"), type: "date", autocomplete: "bday").render)
            <div class="grid-2">
              \(FormField(name: "heightCm", label: "Height (cm)", value: p.map { "\($0.heightCm)" }, error: errors.message(for: "heightCm"), autocomplete: "off", inputMode: "decimal").render)
              \(FormField(name: "weightKg", label: "Weight (kg)", value: p.map { "\($0.weightKg.rounded(1))" }, error: errors.message(for: "weightKg"), autocomplete: "off", inputMode: "decimal").render)
            </div>
            <details class="imperial"\(if: ["heightFt", "heightIn", "weightLb"].contains { errors.message(for: $0) != nil }, " open")><summary>Use feet, inches and pounds instead</summary>
              <div class="grid-2">
                \(FormField(name: "heightFt", label: "Height (ft)", error: errors.message(for: "heightFt"), autocomplete: "off", inputMode: "numeric").render)
                \(FormField(name: "heightIn", label: "and inches", error: errors.message(for: "heightIn"), autocomplete: "off", inputMode: "decimal").render)
                \(FormField(name: "weightLb", label: "Weight (lb)", error: errors.message(for: "weightLb"), autocomplete: "off", inputMode: "decimal").render)
              </div>
              <p class="hint">Filled-in imperial values are used instead of the metric ones.</p>
            </details>
            <div class="field"><label for="field-activityLevel">Activity</label><select id="field-activityLevel" name="activityLevel">
              \(ActivityLevel.allCases.map { option($0, $0.shortLabel, selected: p?.activityLevel ?? .light) }.joined())</select></div>
            <div class="field"><label for="field-aim">Aim</label><select id="field-aim" name="aim">
              \(Aim.allCases.map { option($0, $0.label, selected: p?.aim ?? .maintain) }.joined())</select></div>
            <label class="check"><input type="checkbox" name="useComputedGoals" id="field-useComputedGoals"\(if: !setByHand, " checked")> Use goals computed from this profile</label>
            <p class="hint">Unticked, your goals set by hand stay as they are.</p>
            <button class="button primary" type="submit">Save body profile</button>
          </form>
        </section>
        <section class="card" aria-labelledby="manual-title">
          <h2 id="manual-title">Or set goals by hand</h2>
          <form method="post" action="\(SiteURL.goalsManual.path)" class="stack">
            \(Layout.csrfField(layout.csrf ?? ""))
            <div class="grid-2">
              \([("energyKcal", "Calories (kcal)", goals.energyKcal), ("protein", "Protein (g)", goals.protein), ("carbohydrates", "Carbs (g)", goals.carbohydrates), ("fat", "Fat (g)", goals.fat)].map { name, label, value in
                  FormField(name: "manual.\(name)", label: label, value: "\(value.rounded(0))", error: errors.message(for: name), autocomplete: "off", inputMode: "numeric").render
              }.joined())
            </div>
            <button class="button" type="submit">Save manual goals</button>
          </form>
        </section>
        \(targetsForm(csrf: layout.csrf ?? ""))
        <section class="card" aria-labelledby="weights-title">
          <h2 id="weights-title">Weight</h2>
          <form method="post" action="\(SiteURL.goalsWeights.path)" class="filter-row">
            \(Layout.csrfField(layout.csrf ?? ""))
            \(FormField(name: "weight", label: "Today's weight", error: errors.message(for: "weightKg"), autocomplete: "off", inputMode: "decimal").render)
            <div class="field"><label for="field-weightUnit">Unit</label><select id="field-weightUnit" name="weightUnit"><option value="kg">kg</option><option value="lb">lb</option></select></div>
            <button class="button" type="submit">Add weight</button>
          </form>
          \(putBack.map { $0.form(csrf: layout.csrf ?? "", zone: zone) })
          \(weights.isEmpty ? HTML("<p class=\"muted\">No weights yet.</p>") : HTML("<ul class=\"weights\" id=\"weights\">\(recent)</ul>"))
          <h3>Import from Apple Health</h3>
          <form method="post" action="\(SiteURL.goalsImport.path)" enctype="multipart/form-data" class="filter-row">
            \(Layout.csrfField(layout.csrf ?? ""))
            <div class="field grow"><label for="field-export">export.zip or export.xml</label><input id="field-export" type="file" name="export" accept=".zip,.xml,application/zip,text/xml"></div>
            <button class="button" type="submit">Import</button>
          </form>
          <p class="hint">Reads body mass, height, date of birth and sex (one weight a day). Exports of any size are streamed, up to 4 GB.</p>
        </section>
        """)
    }
}

extension GoalsPage {
    /// A deleted weighing, kept in the session for the next page only: its "Put it back" records it
    /// again (the same weight, time and source) through the same form as a new one.
    struct PutBack: Codable {
        var weightKg: Decimal
        var measuredAt: Date
        var source: String

        init(_ weight: WeightEntry) {
            (weightKg, measuredAt, source) = (weight.weightKg, weight.measuredAt, RecordWeight.sourceRecordedAgain(weight.source))
        }

        private static let key = "weightPutBack"

        func keep(in session: Session) {
            session.data[Self.key] = (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) }
        }

        static func take(from session: Session) -> PutBack? {
            guard let kept = session.data[key] else { return nil }
            session.data[key] = nil
            return try? JSONDecoder().decode(PutBack.self, from: Data(kept.utf8))
        }

        func form(csrf: String, zone: TimeZone) -> HTML {
            HTML("""
            <form method="post" action="\(SiteURL.goalsWeights.path)" class="put-back" role="status">
              \(Layout.csrfField(csrf))
              <input type="hidden" name="weight" value="\(weightKg.description)"><input type="hidden" name="weightUnit" value="kg">
              <input type="hidden" name="measuredAt" value="\(Instant.format(measuredAt))"><input type="hidden" name="source" value="\(source)">
              <span>Deleted \(weightKg.display(1)) kg from \(GoalsPage.when(measuredAt, in: zone)).</span>
              <button class="button small" type="submit">Put it back</button>
            </form>
            """)
        }
    }

    /// When a weighing was measured, in the person's zone: "4 December 2023, 00:07".
    static func when(_ instant: Date, in zone: TimeZone) -> String {
        "\(PlannerPage.longDate(CalendarDate(instant, in: zone))), \(ClockText.time(instant, in: zone))"
    }

    /// Where a weighing came from, as a person says it.
    static func sourceName(_ source: String) -> String {
        switch source {
        case "manual": "typed in"
        case "profile": "body profile"
        case ImportHealthData.source: "Apple Health"
        default: source
        }
    }

    /// Each nutrient's daily target: the daily value until the person changes it.
    func targetsForm(csrf: String) -> HTML {
        let fields = Nutrient.targeted.map { n -> HTML in
            let own = goals.targets[n]
            let daily = goals.standard(n).map { "\($0)" } ?? ""
            return HTML("""
            <div class="field target-field\(if: own != nil, " changed")">
              <label for="field-target-\(n.rawValue)">\(n.name) (\(n.unit.rawValue))</label>
              <input id="field-target-\(n.rawValue)" name="target.\(n.rawValue)" value="\(own.map { "\($0)" } ?? daily)" inputmode="decimal" autocomplete="off"\(if: errors.message(for: "targets.\(n.rawValue)") != nil, " aria-invalid=\"true\" aria-describedby=\"error-target-\(n.rawValue)\"")>
              \(errors.message(for: "targets.\(n.rawValue)").map { HTML("<p class=\"field-error\" id=\"error-target-\(n.rawValue)\">\($0)</p>") })
              <p class="hint">\(n.direction == .atMost ? "At most" : "At least") · \(goals.reference[n] == nil ? "daily value" : "reference intake") \(n.text(goals.standard(n) ?? 0))\(if: own != nil, " · changed")</p>
            </div>
            """)
        }.joined()
        return HTML("""
        <section class="card" aria-labelledby="targets-title">
          <h2 id="targets-title">Nutrient targets</h2>
          <p class="muted">\(goals.reference.isEmpty ? "Each nutrient's daily value (FDA, adults) unless you change it; with a body profile, the reference intakes for your sex and age." : "Each nutrient's reference intake for your sex and age (US Dietary Reference Intakes) unless you change it; limits are the FDA daily values.") A low-sodium or keto diet changes a few.\(if: !goals.targets.isEmpty, " Changed: \(goals.targets.keys.sorted().map { "\($0.name) \($0.text(goals.targets[$0]!))" }.joined(separator: ", ")).")</p>
          <details class="targets-details" id="targets-details"\(if: errors.fields.contains { $0.field.hasPrefix("targets.") }, " open")>
            <summary>Change nutrient targets</summary>
            <form method="post" action="\(SiteURL.goalsTargets.path)" class="stack" id="targets-form">
              \(Layout.csrfField(csrf))
              <p class="hint">Empty a field to go back to the standard target.</p>
              <div class="grid-2 targets-grid">\(fields)</div>
              <button class="button" type="submit">Save nutrient targets</button>
            </form>
          </details>
        </section>
        """)
    }
}
