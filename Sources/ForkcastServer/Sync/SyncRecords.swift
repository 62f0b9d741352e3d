import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// Reads synced records in the shape their own API answers with, and applies pushed changes
/// through the same use cases the API and the web pages call.
struct SyncRecords {
    let user: UserModel
    let db: any Database
    let now: Date
    let uuid: @Sendable () -> UUID
    let application: Application

    var ownerID: UUID { user.id! }
    /// The person's use cases, on this push's transaction.
    var owner: Owner { get throws { try Owner(user: user, db: db, now: now, uuid: uuid, application: application) } }

    /// A record to encode inside a change, whatever its type.
    struct Record: Codable, @unchecked Sendable {
        let value: any Encodable
        init(value: any Encodable) { self.value = value }
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
        /// Records are written, never read back (a client reads them as JSON values).
        init(from decoder: any Decoder) throws { value = try JSONValue(from: decoder) }
    }

    /// The current records of `ids` of one kind, by id (missing ones are absent).
    func load(_ kind: SyncKind, _ ids: [UUID]) async throws -> [UUID: Record] {
        guard !ids.isEmpty else { return [:] }
        let today = user.today(now: now)
        switch kind {
        case .meal:
            let repository = try owner.meals
            let meals = try await repository.find(ids: ids)
            let presenter = try await MealPresenter.load(Array(meals.values), repository: repository, currency: user.currency)
            let planned = try await owner.plan.planned(ids, in: WeekWindow(start: today))
            return meals.mapValues { Record(value: presenter.answer($0, isPlanned: planned.contains($0.id))) }
        case .assignment:
            let plan = try owner.plan
            let assignments = try await plan.find(ids: ids)
            let meals = try await owner.meals.find(ids: Array(Set(assignments.map(\.mealId))))
            let presenter = try await MealPresenter.load(Array(meals.values), repository: owner.meals, currency: user.currency)
            var result: [UUID: Record] = [:]
            for assignment in assignments {
                guard let meal = meals[assignment.mealId] else { continue }
                result[assignment.id] = Record(value: presenter.answer(PlanDay.Entry(assignment: assignment, meal: meal)))
            }
            return result
        case .food:
            return try await owner.foods.find(ids: ids).mapValues { Record(value: FoodAnswer($0, currency: user.currency)) }
        case .diaryEntry:
            let owner = try owner
            let entries = try await owner.diary.entries.find(ids: ids)
            let photos = try await owner.photos.find(ids: entries.compactMap(\.photoId))
            return Dictionary(uniqueKeysWithValues: entries.map { ($0.id, Record(value: DiaryEntryAnswer($0, owner: ownerID, photos: photos))) })
        case .mealType:
            let types = try await owner.mealTypes.catalog(now: now)
            return Dictionary(uniqueKeysWithValues: types.all.filter { ids.contains($0.id) }.map { ($0.id, Record(value: MealTypeAnswer($0))) })
        case .photo:
            return try await owner.photos.find(ids: ids).mapValues { Record(value: PhotoAnswer($0)) }
        case .weight:
            return Dictionary(uniqueKeysWithValues: try await owner.body.weights(ids: ids).map { ($0.id, Record(value: $0)) })
        case .goals:
            let (goals, calculation) = try await owner.body.goals(today: today)
            return [ownerID: Record(value: GoalsAnswer(goals, steps: calculation?.steps))]
        case .bodyProfile:
            guard let profile = try await owner.body.profile() else { return [:] }
            return [ownerID: Record(value: BodyProfileAnswer(profile, today: today))]
        case .settings:
            return [ownerID: Record(value: UserAnswer(user))]
        case .shoppingList:
            let shopping = try owner.shopping
            let lists = try await shopping.lists(ids: ids)
            let counts = try await shopping.counts(of: lists.map(\.id))
            return Dictionary(uniqueKeysWithValues: lists.map {
                ($0.id, Record(value: ShoppingListSummaryAnswer($0, itemCount: counts[$0.id]?.items ?? 0, checkedCount: counts[$0.id]?.checked ?? 0)))
            })
        case .shoppingItem:
            return Dictionary(uniqueKeysWithValues: try await owner.shopping.items(ids: ids).map { ($0.id, Record(value: ShoppingItemAnswer($0))) })
        case .pantryItem:
            let lots = try await owner.pantry.items(ids: ids)
            let foods = try await owner.foods.find(ids: lots.map(\.foodId))
            return Dictionary(uniqueKeysWithValues: lots.map { ($0.id, Record(value: PantryItemAnswer($0, food: foods[$0.foodId]?.name ?? ""))) })
        }
    }

    /// Creates or replaces a record from its create/update input, keeping its id.
    func upsert(_ kind: SyncKind, id: UUID, input data: Data) async throws {
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder.forkcast.decodeNamingMisfits(T.self, from: data) }
        switch kind {
        case .meal:
            try await owner.saveMeal.addOrChange(try decode(MealInput.self).draft(), id: id)
        case .assignment:
            let input = try decode(AssignmentInput.self)
            // A synced record is one day; a repeat is planned once, through the API, and its days sync back.
            if input.repeat != nil { throw ValidationError(field: "record.repeat", "Plan a repeat with POST \(Plan.Assign.path); its days come back through sync.") }
            guard try await owner.planMeal(input.mealId, on: input.date, mealType: input.mealType, servings: input.servings, id: id, replacing: true,
                                                eaters: input.eaters?.map(\.eater)) != nil else {
                throw AppError.missingReference(field: "mealId", detail: "No meal with id \(input.mealId) exists in your account.")
            }
        case .food:
            _ = try await owner.saveFood.addOrChange(try decode(FoodInput.self).draft(), id: id)
        case .diaryEntry:
            let input = try Self.entry(queuedAs: data)
            let owner = try owner
            // A device's time edit was confirmed on the device.
            if try await owner.editEntry(id, with: input, confirmMove: true) == nil {
                try await owner.logEntry.single(input, id: id)
            }
        case .weight:
            let input = try decode(WeightInput.self)
            try await owner.recordWeight(.init(measuredAt: input.measuredAt, weightKg: input.weightKg, weightLb: input.weightLb), id: id)
        case .goals:
            try await owner.setGoals(.init(try decode(GoalsInput.self)))
        case .bodyProfile:
            try await owner.saveBodyProfile(.init(try decode(BodyProfileInput.self)))
        case .settings:
            let input = try decode(ProfileInput.self)
            try await owner.updateSettings(displayName: input.displayName, timeZone: input.timeZone, currency: input.currency)
        case .mealType:
            try await owner.saveMealType.addOrChange(id, try decode(MealTypeInput.self).change)
        case .shoppingList:
            let input = try decode(ShoppingListInput.self)
            let owner = try owner
            if try await owner.shopping.find(id) == nil {
                _ = try await owner.makeShoppingList(from: input.from, to: input.to, name: input.name, id: id)
            } else {
                _ = try await owner.refreshShoppingList(id, name: input.name, from: input.from, to: input.to)
            }
        case .shoppingItem:
            let input = try decode(ShoppingItemSyncInput.self)
            let owner = try owner
            if try await owner.shopping.item(id) != nil {
                guard try await owner.changeShoppingItem(id, on: input.listId, input.change) != nil else {
                    throw AppError.missingReference(field: "listId", detail: "The item is not on list \(input.listId).")
                }
            } else {
                guard let name = input.name else {
                    throw AppError.missingReference(field: "id", detail: "No such shopping item (deleted meanwhile?); a new item needs a name.")
                }
                guard let item = try await owner.addShoppingItem(to: input.listId, name: name, quantity: input.quantity, unit: input.unit,
                                                                 category: input.category, id: id) else {
                    throw AppError.missingReference(field: "listId", detail: "No shopping list with id \(input.listId) exists in your account.")
                }
                if input.checked == true { _ = try await owner.changeShoppingItem(item.id, ShoppingItemChange(checked: true)) }
            }
        case .pantryItem:
            let input = try decode(PantryItemInput.self).app
            let owner = try owner
            if try await owner.stockPantry.change(id, to: input) == nil { _ = try await owner.stockPantry.add(input, id: id) }
        case .photo:
            throw AppError.validation(ValidationError(field: "kind", "Photos are uploaded with POST \(Photos.Upload.path) (sync carries their metadata, not their bytes); attach one to an entry through its photoId."))
        }
    }

    /// Deletes a record; a record that is already gone is simply recorded as deleted.
    func delete(_ kind: SyncKind, id: UUID) async throws {
        let found: Bool
        switch kind {
        case .meal: found = try await owner.deleteMeal(id) != nil
        case .assignment: found = try await owner.unplanMeal(id) != nil
        case .food: found = try await owner.deleteFood(id) != nil
        case .diaryEntry: found = try await owner.deleteEntry(id) != nil
        case .mealType:
            throw AppError.validation(ValidationError(field: "op", "Meal types are not deleted (their entries keep them); hide one instead."))
        case .photo:
            throw AppError.validation(ValidationError(field: "op", "A photo is deleted with the diary entry that shows it."))
        case .weight: found = try await owner.deleteWeight(id) != nil
        case .shoppingList: found = try await owner.deleteShoppingList(id)
        case .shoppingItem: found = try await owner.deleteShoppingItem(id) != nil
        case .pantryItem: found = try await owner.stockPantry.remove(id) != nil
        case .goals, .bodyProfile, .settings:
            throw AppError.validation(ValidationError(field: "op", "\(kind.rawValue) cannot be deleted; send an upsert instead."))
        }
        if !found {
            // Deleted on the server already, or never seen here: remember the tombstone so the
            // push is answered consistently (a foreign id stays indistinguishable from a missing one).
            try await db.write { tx in try await SyncLog.record(kind, [id], op: .delete, owner: ownerID, on: tx, now: now) }
        }
    }
}

extension SyncRecords {
    /// A diary entry as it was pushed. The pages' offline forms queue what the person typed: an
    /// amount as text ("1,5", read by ForkcastCore's `Decimal(typed:)`) and a named portion as
    /// "portion:<grams>" (logged by ForkcastCore's `Food.portions`, in the use case). Numbers and
    /// units as the API documents them pass unchanged.
    static func entry(queuedAs data: Data) throws -> EntryInput {
        let decoder = JSONDecoder.forkcast
        guard case .object(var fields)? = try? decoder.decode(JSONValue.self, from: data) else {
            return EntryInput(try decoder.decodeNamingMisfits(DiaryEntryInput.self, from: data))
        }
        func read(_ value: JSONValue?) -> JSONValue? {
            guard case .string(let text)? = value, let number = Decimal(typed: text) else { return value }
            return .number(number.doubleValue)
        }
        for key in ["quantity", "servings"] { fields[key] = read(fields[key]) }
        if case .object(var quick)? = fields["quickAdd"] {
            for key in Array(quick.keys) { quick[key] = read(quick[key]) }
            fields["quickAdd"] = .object(quick)
        }
        var portion: Decimal?
        if case .string(let unit)? = fields["unit"], let grams = Food.portionGrams(unit) {
            portion = grams
            fields["unit"] = nil
        }
        var input = EntryInput(try decoder.decodeNamingMisfits(DiaryEntryInput.self, from: try JSONEncoder().encode(JSONValue.object(fields))))
        input.portionGrams = portion
        return input
    }
}
