import ForkcastCore
import Foundation

/// Repeating entries on the planner: the picker's Repeat choices, the mark on a repeating entry and
/// the three ways to remove one.
extension PlannerPage {
    /// The picker's Repeat: weekdays (Mon–Fri in one tap), every N weeks, until a day. Nothing ticked: that day alone.
    static func repeatFields(id: String, rule: PlanRepeat? = nil, workdays: Bool = true) -> HTML {
        let ticked = Set(rule?.weekdays ?? [])
        let boxes = Weekday.allCases.enumerated().map { index, day in
            HTML("""
            <label class="weekday-box"><input type="checkbox" name="weekday" value="\(index + 1)"\(if: ticked.contains(index + 1), " checked")>
              <span aria-hidden="true">\(day.shortName)</span><span class="visually-hidden">\(day.name)</span></label>
            """)
        }.joined()
        return HTML("""
        <details class="repeat-choice" id="\(id)"\(if: rule != nil, " open")><summary>Repeat…</summary>
          <fieldset class="weekday-set"><legend>On these days</legend>
            <div class="weekday-boxes">\(boxes)</div>
          </fieldset>
          \(if: workdays, "<button class=\"button small\" type=\"button\" data-workdays>Mon–Fri</button>")
          \(if: !workdays, HTML("<p class=\"hint\">Tick the days and press Search: each Add below then plans the repeat.</p>"))
          <div class="grid-2">
            <div class="field"><label for="\(id)-every">Every … weeks</label>
              <input id="\(id)-every" type="number" name="everyWeeks" min="\(PlanRepeat.everyWeeksRange.lowerBound)" max="\(PlanRepeat.everyWeeksRange.upperBound)" value="\(rule?.everyWeeks ?? 1)" inputmode="numeric"></div>
            <div class="field"><label for="\(id)-until">Until (at most a year)</label>
              <input id="\(id)-until" type="date" name="until" value="\(rule?.until?.iso ?? "")"></div>
          </div>
        </details>
        """)
    }

    /// The hidden copies of a repeat that each of the no-JavaScript picker's forms sends.
    static func repeatHidden(_ rule: PlanRepeat?) -> HTML {
        guard let rule else { return .empty }
        return HTML(raw: rule.weekdays.map { "<input type=\"hidden\" name=\"weekday\" value=\"\($0)\">" }.joined()
                    + "<input type=\"hidden\" name=\"everyWeeks\" value=\"\(rule.everyWeeks)\">"
                    + "<input type=\"hidden\" name=\"until\" value=\"\(rule.until?.iso ?? "")\">")
    }

    /// A repeating entry's mark beside its name.
    static func repeatMark(_ entry: PlanDay.Entry) -> HTML {
        entry.assignment.seriesId == nil ? .empty : HTML("<span class=\"repeat-mark\" title=\"Repeats\"><span aria-hidden=\"true\">↻</span><span class=\"visually-hidden\"> (repeats)</span></span>")
    }

    /// The × of a planned meal: at once with Undo, or for a repeating one, a choice of days.
    static func removeControl(_ entry: PlanDay.Entry, day: PlanDay, start: CalendarDate, csrf: String) -> HTML {
        if entry.assignment.seriesId != nil { return seriesRemove(entry, day: day, start: start, csrf: csrf) }
        return HTML("""
        <form method="post" action="\(SiteURL.removeAssignment(entry.assignment.id).path)" class="inline planned-remove" data-day-action
              data-undo="Removed “\(entry.meal.description)” from \(day.weekday.name).">
          \(Layout.csrfField(csrf))
          <input type="hidden" name="start" value="\(start.iso)">
          <button class="icon-button" type="submit" aria-label="Remove \(entry.meal.description) from \(day.weekday.name)" data-pressable>\(Icons.close)</button>
        </form>
        """)
    }

    /// Removing a repeating entry asks which days: this one (the day is skipped), the later ones too, or all.
    static func seriesRemove(_ entry: PlanDay.Entry, day: PlanDay, start: CalendarDate, csrf: String) -> HTML {
        let name = entry.meal.description
        return HTML("""
        <details class="series-remove planned-remove"><summary class="icon-button" aria-label="Remove \(name) from \(day.weekday.name)…">\(Icons.close)</summary>
          <form method="post" action="\(SiteURL.removeAssignment(entry.assignment.id).path)" class="series-choices">
            \(Layout.csrfField(csrf))
            <input type="hidden" name="start" value="\(start.iso)">
            <button class="button small" type="submit" name="scope" value="\(SeriesScope.one.rawValue)">Skip \(day.weekday.name) only</button>
            <button class="button small" type="submit" name="scope" value="\(SeriesScope.following.rawValue)">This and later days</button>
            <button class="button small danger" type="submit" name="scope" value="\(SeriesScope.all.rawValue)">Every day of the repeat</button>
          </form>
        </details>
        """)
    }
}
