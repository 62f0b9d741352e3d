import ForkcastCore
import Vapor

extension WebPlanController {
    /// The picker's Repeat, from a form or the picker's query: the weekdays ticked, every N weeks,
    /// until a day; nil when no weekday is ticked (the day alone). ``PlanRepeat`` judges the rest.
    static func repeatRule(_ req: Request) throws -> PlanRepeat? {
        let values: (String) -> [String] = { key in
            (try? req.content.get([String].self, at: key)) ?? (try? req.query.get([String].self, at: key)) ?? []
        }
        let one: (String) -> String? = { key in values(key).last?.trimmed.nilIfEmptyString }
        let days = values("weekday").compactMap { Int($0.trimmed) }
        guard !days.isEmpty else { return nil }
        let every = try one("everyWeeks").map { typed in
            guard let number = Int(typed) else { throw ValidationError(field: "repeat.everyWeeks", "Every how many weeks: a whole number; got “\(typed)”.") }
            return number
        } ?? 1
        let until = try one("until").map { typed in
            guard let day = CalendarDate(input: typed) else { throw ValidationError(field: "repeat.until", "Until is a day (YYYY-MM-DD); got “\(typed)”.") }
            return day
        }
        return PlanRepeat(weekdays: days, everyWeeks: every, until: until)
    }
}
