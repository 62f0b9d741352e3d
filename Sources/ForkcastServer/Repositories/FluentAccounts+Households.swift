import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit

// A household's members changing: what moves with a person, on either engine, inside the
// membership's write (``HouseholdMembership``). Shared records keep the member who added them in
// `user_id` (``Kitchen``), so joining moves nothing; leaving hands what the person added to a
// member who stays and copies the library for them.
extension FluentAccounts.Records {
    /// The shared tables, children after parents, with the change-feed kind of those synced.
    static let sharedTables: [(table: String, kind: SyncKind?)] = [
        (FoodModel.schema, .food), (FoodTermModel.schema, nil), (MealModel.schema, .meal), (MealComponentModel.schema, nil),
        (MealIngredientModel.schema, nil), (MealTypeModel.schema, .mealType), (AssignmentModel.schema, .assignment),
        (ShoppingListModel.schema, .shoppingList), (ShoppingItemModel.schema, .shoppingItem),
        (PantryItemModel.schema, .pantryItem), (PantryUseModel.schema, nil), ("pantry_cooked", nil),
        (PlanTemplateModel.schema, nil),
    ]

    private var sql: any SQLDatabase { db as! any SQLDatabase }

    func members(of household: UUID) async throws -> HouseholdMembers? {
        guard let model = try await HouseholdModel.find(household, on: db) else { return nil }
        let rows = try await sql.select()
            .column(SQLColumn("user_id", table: HouseholdMemberModel.schema)).column("role").column("display_name")
            .from(HouseholdMemberModel.schema)
            .join(UserModel.schema, on: SQLColumn("id", table: UserModel.schema), .equal, SQLColumn("user_id", table: HouseholdMemberModel.schema))
            .where("household_id", .equal, household)
            .orderBy("joined_at").orderBy(SQLColumn("user_id", table: HouseholdMemberModel.schema))
            .all()
        let members = try rows.map { row in
            Household.Member(id: try row.decode(column: "user_id", as: UUID.self),
                             displayName: try row.decode(column: "display_name", as: String?.self),
                             role: Household.Role(rawValue: try row.decode(column: "role", as: String.self)) ?? .member)
        }
        return HouseholdMembers(household: model.domain, members: members)
    }

    func share(of member: UUID) async throws -> HouseholdShare {
        let kitchen = Kitchen(user: member)
        func count(_ table: String) async throws -> Int {
            try await sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE \(kitchen.holds("user_id"))").first()?.decode(column: "n", as: Int.self) ?? 0
        }
        return HouseholdShare(meals: try await count(MealModel.schema), foods: try await count(FoodModel.schema),
                              mealTypes: try await count(MealTypeModel.schema), plannedMeals: try await count(AssignmentModel.schema),
                              shoppingLists: try await count(ShoppingListModel.schema))
    }

    func setRole(_ member: UUID, _ role: Household.Role) async throws {
        try await sql.update(HouseholdMemberModel.schema).set("role", to: role.rawValue).where("user_id", .equal, member).run()
    }

    func join(_ member: UUID, household: UUID, now: Date) async throws {
        let old = try await HouseholdMemberModel.find(member, on: db)?.householdID
        let others = try await sql.raw("SELECT user_id, role FROM household_members WHERE household_id = \(bind: household) ORDER BY role = 'owner' DESC, joined_at")
            .all().map { try $0.decode(column: "user_id", as: UUID.self) }
        try await sql.delete(from: HouseholdMemberModel.schema).where("user_id", .equal, member).run()
        try await HouseholdMemberModel(user: member, household: household, role: .member, joinedAt: now).create(on: db)
        if let old {
            try await sql.delete(from: HouseholdModel.schema).where("id", .equal, old).run()
        }
        guard let keeper = others.first else { return }
        try await mergeMealTypes(of: member, into: keeper, now: now)
        // Each side's synced devices learn of the other's records; the household's prices are in its currency.
        for (table, kind) in Self.sharedTables {
            guard let kind else { continue }
            let theirs = try await ids(in: table, heldBy: others)
            let mine = try await ids(in: table, heldBy: [member])
            try await SyncLog.record(kind, theirs, op: .upsert, owner: member, on: db, now: now)
            for other in others { try await SyncLog.record(kind, mine, op: .upsert, owner: other, on: db, now: now) }
        }
        try await sql.raw("""
            UPDATE users SET currency = (SELECT currency FROM users WHERE id = \(bind: keeper)) WHERE id = \(bind: member)
            """).run()
        try await SyncLog.record(.settings, [member], op: .upsert, owner: member, on: db, now: now)
    }

    /// The household's meal types stored (a member's own defaults would have ids of their own), and
    /// the joining person's types of a key or name it has become its type: their plan and diary
    /// entries in such a slot move to the household's.
    private func mergeMealTypes(of member: UUID, into keeper: UUID, now: Date) async throws {
        var kept = try await MealTypeModel.query(on: db).filter(\.$ownerID != member).filter(Kitchen(user: keeper)).all().map(\.domain)
        if kept.isEmpty {
            kept = MealTypeCatalog.defaults(owner: keeper, now: now).all
            try await MealTypeRepository(db: db, kitchen: Kitchen(user: keeper)).insert(all: kept, now: now)
        }
        let mine = try await MealTypeModel.query(on: db).filter(\.$ownerID == member).all().map(\.domain)
        var gone: [UUID] = []
        for type in mine {
            guard let match = kept.first(where: { ($0.key != nil && $0.key == type.key) || $0.name.matchKey == type.name.matchKey }) else { continue }
            for table in [AssignmentModel.schema, DiaryEntryModel.schema] where match.token != type.token {
                try await sql.update(table).set("meal_type", to: match.token).where("user_id", .equal, member).where("meal_type", .equal, type.token).run()
            }
            gone.append(type.id)
        }
        guard !gone.isEmpty else { return }
        try await MealTypeModel.query(on: db).filter(\.$id ~~ gone).delete()
        try await SyncLog.record(.mealType, gone, op: .delete, owner: member, on: db, now: now)
    }

    func separate(_ member: UUID, keeper: UUID, into new: Household, now: Date) async throws {
        let kitchen = Kitchen(user: keeper)
        let library = try await LibraryCopy.read(kitchen, on: db)
        // Their synced devices forget the household's records, then get their copies.
        for (table, kind) in Self.sharedTables {
            guard let kind else { continue }
            let ids = try await sql.raw("SELECT id FROM \(ident: table) WHERE \(kitchen.holds("user_id"))").all().map { try $0.decode(column: "id", as: UUID.self) }
            try await SyncLog.record(kind, ids, op: .delete, owner: member, on: db, now: now)
        }
        try await hand(from: member, to: keeper, now: now)
        try await HouseholdModel(new).create(on: db)
        try await sql.update(HouseholdMemberModel.schema).set("household_id", to: new.id).set("role", to: Household.Role.owner.rawValue)
            .set("joined_at", to: now).where("user_id", .equal, member).run()
        try await library.copy(to: member, on: db, now: now)
    }

    /// What `member` added goes to `keeper`, who stays: a food whose barcode or catalogue food the
    /// keeper holds too loses it (the household has that food already), so nothing collides.
    func hand(from member: UUID, to keeper: UUID, now: Date) async throws {
        for column in ["barcode", "catalog_id"] {
            let clashing = try await sql.raw("""
                SELECT id FROM foods WHERE user_id = \(bind: member) AND \(ident: column) IN
                  (SELECT \(ident: column) FROM foods WHERE user_id = \(bind: keeper) AND \(ident: column) IS NOT NULL)
                """).all().map { try $0.decode(column: "id", as: UUID.self) }
            guard !clashing.isEmpty else { continue }
            try await sql.update(FoodModel.schema).set(SQLIdentifier(column), to: SQLLiteral.null).set("updated_at", to: now)
                .where("id", .in, clashing).run()
            let members = try await sql.raw("""
                SELECT user_id FROM household_members WHERE household_id = (SELECT household_id FROM household_members WHERE user_id = \(bind: keeper))
                """).all().map { try $0.decode(column: "user_id", as: UUID.self) }
            for owner in members { try await SyncLog.record(.food, clashing, op: .upsert, owner: owner, on: db, now: now) }
        }
        for (table, _) in Self.sharedTables {
            try await sql.update(table).set("user_id", to: keeper).where("user_id", .equal, member).run()
        }
    }

    private func ids(in table: String, heldBy owners: [UUID]) async throws -> [UUID] {
        guard !owners.isEmpty else { return [] }
        return try await sql.select().column("id").from(table).where("user_id", .in, owners).all().map { try $0.decode(column: "id", as: UUID.self) }
    }
}

/// A household's library as read before someone leaves it, copied for them: every food, meal and
/// meal type again under new ids, the meals using the copied foods.
struct LibraryCopy {
    var foods: [Food]
    var meals: [Meal]
    var mealTypes: [MealType]

    static func read(_ kitchen: Kitchen, on db: any Database) async throws -> LibraryCopy {
        LibraryCopy(foods: try await FoodModel.query(on: db).filter(kitchen).sort(\.$createdAt).sort(\.$id).all().map(\.domain),
                    meals: try await MealRepository(db: db, kitchen: kitchen).all(),
                    mealTypes: try await MealTypeRepository(db: db, kitchen: kitchen).catalog(now: Date()).all)
    }

    /// Stores the copies as `member`'s (alone in their household now), in their change feed; their
    /// diary's entries follow: one of a copied food or meal points at the copy, one in a copied
    /// type's slot stays in the copy's.
    func copy(to member: UUID, on db: any Database, now: Date) async throws {
        let kitchen = try await Kitchen.enter(member, on: db)
        var foodIDs: [UUID: UUID] = [:]
        for food in foods {
            let copy = Food(name: food.name, brand: food.brand, barcode: food.barcode, basis: food.basis, per100: food.per100, serving: food.serving,
                            portion: food.portion, price: food.price, icon: food.icon, source: food.source, catalogId: food.catalogId,
                            createdAt: food.createdAt, updatedAt: now)
            foodIDs[food.id] = copy.id
            try await FoodRepository(db: db, kitchen: kitchen).insert(copy)
        }
        let meals = MealRepository(db: db, kitchen: kitchen)
        var mealIDs: [UUID: UUID] = [:]
        for meal in self.meals {
            mealIDs[meal.id] = UUID.timeOrdered()
            _ = try await meals.insert(meal.content(swappingFoods: foodIDs), id: mealIDs[meal.id]!, now: now)
            // The recipe's photo goes with the copy (the household keeps its own).
            if meal.photoId != nil, var photo = try await MealRepository.photo(of: meal.id, on: db) {
                photo.id = UUID.timeOrdered()
                _ = try await meals.setPhoto(photo, of: mealIDs[meal.id]!, now: now)
            }
        }
        let copies = mealTypes.map { type in
            (type, MealType(id: UUID.timeOrdered(), key: type.key, name: type.name,
                            window: type.window, position: type.position, hidden: type.hidden, createdAt: type.createdAt, updatedAt: now))
        }
        try await MealTypeRepository(db: db, kitchen: kitchen).insert(all: copies.map(\.1), now: now)
        var moved: Set<UUID> = []
        for (old, new) in foodIDs { moved.formUnion(try await point(member, "food_id", from: old, to: new, on: db, now: now)) }
        for (old, new) in mealIDs { moved.formUnion(try await point(member, "meal_id", from: old, to: new, on: db, now: now)) }
        for (type, copy) in copies where type.token != copy.token {
            moved.formUnion(try await point(member, "meal_type", from: type.token, to: copy.token, on: db, now: now))
        }
        try await SyncLog.record(.diaryEntry, Array(moved), op: .upsert, owner: member, on: db, now: now)
    }

    /// Points `member`'s diary entries holding `old` in `column` at `new`; answers the entries changed.
    private func point(_ member: UUID, _ column: String, from old: some Encodable & Sendable, to new: some Encodable & Sendable,
                       on db: any Database, now: Date) async throws -> [UUID] {
        let sql = db as! any SQLDatabase
        return try await sql.update(DiaryEntryModel.schema).set(SQLIdentifier(column), to: new).set("updated_at", to: now)
            .where("user_id", .equal, member).where(SQLIdentifier(column), .equal, old)
            .returning("id").all().map { try $0.decode(column: "id", as: UUID.self) }
    }
}
