import ForkcastCore
import Foundation

/// Week templates: weeks of the plan saved under a name, and put on the plan again — one template
/// or a rotation of several one after another — through ``PlanMeal``'s checks, in one write.
public struct PlanTemplates: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// Saves the plan's `weeks` weeks from `start` as template `id`. Throws ``ValidationError`` for
    /// a bad name or range, weeks with nothing planned, or a household at its template limit.
    public func save(name: String, from start: CalendarDate, weeks: Int, id: UUID) async throws -> PlanTemplate {
        let name = try PlanTemplate.validated(name: name, weeks: weeks, start: start)
        let now = now
        return try await library.write { tx in
            guard try await tx.templates.all().count < PlanTemplate.maximumCount else {
                throw ValidationError(field: "name", "A household keeps at most \(PlanTemplate.maximumCount) templates; delete one first.")
            }
            let plan = try await tx.plan.entries(from: start, to: start.adding(days: weeks * 7 - 1)).map(\.assignment)
            let template = PlanTemplate.capture(id: id, name: name, from: start, weeks: weeks, plan: plan, now: now)
            if template.entries.count > PlanTemplate.maximumEntries {
                throw ValidationError(field: "weeks", "Those weeks hold \(template.entries.count) meals; a template keeps at most \(PlanTemplate.maximumEntries).")
            }
            if template.entries.isEmpty {
                throw ValidationError(field: "start", "Nothing is planned from \(start.iso) for \(weeks) week\(weeks == 1 ? "" : "s"): plan the week first, then save it.")
            }
            try await tx.templates.insert(template)
            return template
        }
    }

    /// What putting a rotation on the plan did: the days planned, and the entries left out because
    /// that meal was in that slot that day already (applying twice plans once) or is deleted.
    public struct Applied: Sendable {
        public var planned: [PlanDay.Entry]
        public var skipped: Int
    }

    /// Puts template `id`, then each of `then`, on the plan from `start`, the whole rotation
    /// `cycles` times; nil when a template is not the household's.
    public func apply(_ id: UUID, then: [UUID] = [], from start: CalendarDate, cycles: Int = 1) async throws -> Applied? {
        if let problem = start.problem(field: "start") { throw ValidationError([problem]) }
        if then.count >= PlanTemplate.maximumRotation {
            throw ValidationError(field: "then", "A rotation has at most \(PlanTemplate.maximumRotation) templates; got \(then.count + 1).")
        }
        let now = now
        return try await library.write { tx in
            var rotation: [PlanTemplate] = []
            for templateID in [id] + then {
                guard let template = try await tx.templates.find(templateID) else { return nil }
                rotation.append(template)
            }
            let days = try PlanTemplate.apply(rotation, from: start, cycles: cycles)
            guard let last = days.last else { return Applied(planned: [], skipped: 0) }
            var there = Set(try await tx.plan.entries(from: start, to: last.date).map { "\($0.assignment.date.iso) \($0.meal.id) \($0.assignment.mealType ?? "")" })
            var applied = Applied(planned: [], skipped: 0)
            for day in days {
                let key = "\(day.date.iso) \(day.entry.mealId) \(day.entry.mealType ?? "")"
                guard !there.contains(key) else { applied.skipped += 1; continue }
                let request = PlanMeal.Request(mealID: day.entry.mealId, date: day.date, mealType: day.entry.mealType, servings: day.entry.servings,
                                               id: UUID.timeOrdered(), eaters: day.entry.eaters)
                // A meal deleted since, a slot or an eater no longer there: that entry is left out, not the rotation.
                let planned: PlanDay.Entry?
                do { planned = try await PlanMeal.plan(request, replacing: false, in: tx, now: now) } catch is ValidationError { planned = nil }
                guard let entry = planned else { applied.skipped += 1; continue }
                there.insert(key)
                applied.planned.append(entry)
            }
            return applied
        }
    }

    /// False when the household has no such template.
    public func delete(_ id: UUID) async throws -> Bool {
        try await library.write { tx in try await tx.templates.delete(id) }
    }
}
