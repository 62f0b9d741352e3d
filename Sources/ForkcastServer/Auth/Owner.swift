import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// The signed-in person and their use cases, every one scoped to them. Front doors reach data only
/// through an `Owner`: handlers through `req.owner`, built from the request's authenticated user,
/// and a synced device's push through one built on the push's transaction, so code that touches
/// another user's rows cannot be written from an adapter.
struct Owner {
    let user: UserModel
    let id: UUID
    /// Where this context reads and writes: the request's database, or a transaction it is part of.
    let db: any Database
    /// The time of the request.
    let now: Date
    let uuid: @Sendable () -> UUID
    private let application: Application
    private let keptVersions: KeptVersions?

    init(user: UserModel, db: any Database, now: Date, uuid: @escaping @Sendable () -> UUID, application: Application,
         keptVersions: KeptVersions? = nil) throws {
        self.user = user
        id = try user.requireID()
        self.db = db
        self.now = now
        self.uuid = uuid
        self.application = application
        self.keptVersions = keptVersions
    }

    init(_ request: Request) throws {
        try self.init(user: try request.requireUser(), db: request.database, now: request.now, uuid: request.dependencies.uuid,
                      application: request.application, keptVersions: request.keptVersions)
    }

    // Reads (Owner+Reads.swift): what the pages and answers show, never a write.
    var meals: some MealReads { MealRepository(db: db, kitchen: Kitchen(user: id)) }
    var plan: some PlanReads { PlanRepository(db: db, kitchen: Kitchen(user: id)) }
    var foods: some FoodReads { FoodRepository(db: db, kitchen: Kitchen(user: id)) }
    var foodLookup: FoodLookupService {
        FoodLookupService(foods: FoodRepository(db: db, kitchen: Kitchen(user: id)), saveFood: saveFood, client: application.openFoodFacts, db: db, now: now)
    }
    /// The person's diary as its pages and answers read it.
    var diary: some DiaryReads { diaryStore }
    /// The person's diary: the store of the diary's use cases (ForkcastApp).
    private var diaryStore: FluentDiary {
        var diary = FluentDiary(user: user, db: db, now: now, photoStore: application.photoStore,
                                photoQuotaBytes: application.forkcastConfig.photoQuotaBytes)
        if let known = keptVersions, known.owner == id { diary.kept = (application.readCache, known) }
        return diary
    }
    var photos: some PhotoReads {
        PhotoRepository(db: db, ownerID: id, store: application.photoStore, quotaBytes: application.forkcastConfig.photoQuotaBytes)
    }
    var mealTypes: some MealTypeReads { MealTypeRepository(db: db, kitchen: Kitchen(user: id)) }
    var occasions: OccasionRepository { OccasionRepository(db: db, ownerID: id) }
    var body: some BodyReads { BodyRepository(db: db, ownerID: id) }
    // Use cases: each change a person makes, the same from every front door.
    var logEntry: LogEntry { LogEntry(diary: diaryStore, now: now, uuid: uuid) }
    var editEntry: EditEntry { EditEntry(diary: diaryStore, now: now) }
    var uploadPhoto: UploadPhoto { UploadPhoto(diary: diaryStore, now: now, uuid: uuid) }
    var adoptCatalogFood: AdoptCatalogFood { AdoptCatalogFood(library: library, catalog: application.foodCatalog(on: db), now: now) }

    /// The catalogue food named exactly `name` (ignoring case and accents), made the person's; nil when there is none.
    func adoptCatalogFood(named name: String) async throws -> Food? {
        let key = name.matchKey
        guard name.trimmed.count >= CatalogSearch.minimumQueryLength,
              let match = try await application.foodCatalog(on: db).search(name, page: try Paging(per: 20)).items.first(where: { $0.name.matchKey == key })
        else { return nil }
        return try await adoptCatalogFood.adopt(match.catalogId, id: uuid()).food
    }
    var deleteEntry: DeleteEntry { DeleteEntry(diary: diaryStore, now: now) }
    /// The person's body profile, goals and weights, for the body's use cases (ForkcastApp).
    private var bodyStore: FluentBodyStore { FluentBodyStore(db: db, ownerID: id) }
    var recordWeight: RecordWeight { RecordWeight(store: bodyStore, now: now) }
    var saveBodyProfile: SaveBodyProfile { SaveBodyProfile(store: bodyStore, now: now, today: user.today(now: now), uuid: uuid) }
    var setGoals: SetGoals { SetGoals(store: bodyStore, now: now) }
    var deleteWeight: DeleteWeight { DeleteWeight(store: bodyStore, now: now) }
    var importHealthData: ImportHealthData { ImportHealthData(store: bodyStore, now: now) }
    /// The person's foods, meals, plan and meal types, for the library's use cases (ForkcastApp).
    private var library: FluentLibrary { FluentLibrary(db: db, ownerID: id) }
    var planMeal: PlanMeal { PlanMeal(library: library, now: now) }
    var unplanMeal: UnplanMeal { UnplanMeal(library: library, now: now) }
    var planTemplates: PlanTemplates { PlanTemplates(library: library, now: now) }
    var templates: PlanTemplateRepository { PlanTemplateRepository(db: db, kitchen: Kitchen(user: id)) }
    var saveFood: SaveFood { SaveFood(library: library, now: now) }
    var deleteFood: DeleteFood { DeleteFood(library: library, now: now) }
    var saveMeal: SaveMeal { SaveMeal(library: library, now: now) }
    /// An import's draft: the source read on the thread pool (pages of megabytes are seconds of
    /// plain work, not for the event loops), then matched to the person's foods and the catalogue.
    func draftRecipe(_ source: DraftRecipe.Source) async throws -> DraftRecipe.Draft {
        let recipes = try await application.threadPool.runIfActive { DraftRecipe.read(source) }
        let foods = self.foods
        return try await DraftRecipe(ownFoods: { query in try await foods.list(query: query, page: try Paging(per: 10)).items },
                                     catalog: application.foodCatalog(on: db)).draft(recipes, from: source)
    }
    var deleteMeal: DeleteMeal { DeleteMeal(library: library, now: now) }
    var shareRecipe: ShareRecipe { ShareRecipe(library: library) }
    /// A recipe's photo checked on the thread pool (plain work on megabytes), then put on the meal;
    /// nil takes it off. Nil when the household has no such meal.
    func setMealPhoto(_ data: Data?, on meal: UUID) async throws -> Meal? {
        let id = uuid()
        let photo = try await data.asyncMap { data in
            try await application.threadPool.runIfActive { () throws -> MealPhoto in
                do throws(ImageFile.Problem) { return try MealPhoto(checking: data, id: id) } catch {
                    if error == .notAnImage { throw AppError.unsupportedMediaType("The file is not a JPEG, PNG or WebP image.") }
                    throw PhotoRepository.appError(error, field: "photo")
                }
            }
        }
        return try await SetMealPhoto(library: library, now: now, quotaBytes: application.forkcastConfig.photoQuotaBytes)(photo, on: meal)
    }
    var saveMealType: SaveMealType { SaveMealType(library: library, now: now) }
    var shopping: some ShoppingReads { ShoppingRepository(db: db, kitchen: Kitchen(user: id)) }
    var makeShoppingList: MakeShoppingList { MakeShoppingList(library: library, catalog: application.foodCatalog(on: db), now: now, uuid: uuid) }
    var refreshShoppingList: RefreshShoppingList { RefreshShoppingList(library: library, catalog: application.foodCatalog(on: db), now: now, uuid: uuid) }
    var addShoppingItem: AddShoppingItem { AddShoppingItem(library: library, now: now) }
    var changeShoppingItem: ChangeShoppingItem { ChangeShoppingItem(library: library, now: now) }
    var deleteShoppingItem: DeleteShoppingItem { DeleteShoppingItem(library: library, now: now) }
    var deleteShoppingList: DeleteShoppingList { DeleteShoppingList(library: library, now: now) }
    var shareShoppingList: ShareShoppingList { ShareShoppingList(library: library, now: now) }
    var pantry: some PantryReads { PantryRepository(db: db, kitchen: Kitchen(user: id)) }
    var stockPantry: StockPantry { StockPantry(library: library, now: now, today: user.today(now: now)) }
    var usePantryItem: UsePantryItem { UsePantryItem(library: library, now: now) }
    var cookFromPantry: CookFromPantry { CookFromPantry(library: library, now: now) }
    /// The person's household and its members.
    func household() async throws -> HouseholdMembers? {
        let id = id
        return try await FluentAccounts(db: db).read { try await $0.household(of: id) }
    }
    var renameHousehold: RenameHousehold { RenameHousehold(accounts: FluentAccounts(db: db), now: now) }
    var updateSettings: UpdateSettings { UpdateSettings(store: FluentSettingsStore(user: user, db: db), now: now) }
    /// A synced device's push, each change applied through the use case above that owns it;
    /// `present` turns a refused change into its problem (nil: storage trouble, thrown).
    func pushChanges(present: @escaping @Sendable (any Error, PushedMutation) -> Problem?) -> PushChanges {
        PushChanges(store: FluentSyncStore(user: user, db: db, now: now, uuid: uuid, application: application), owner: id, now: now,
                    present: present)
    }
    /// Export, import and deletion of the whole account.
    var accountData: AccountData { AccountData(user: user, db: db, photoStore: application.photoStore, now: now) }
}

extension Owner {
    /// Runs `body` with the person's use cases on one write's transaction: a form that names foods
    /// by name adopts the catalogue's in the same write as what it saves, so a refused plate or
    /// meal leaves no food behind. What `body` throws rolls all of it back.
    func inOneWrite<T: Sendable>(_ body: @escaping @Sendable (Owner) async throws -> T) async throws -> T {
        let (user, now, uuid, application, keptVersions) = (user, now, uuid, application, keptVersions)
        return try await db.write { tx in
            try await body(try Owner(user: user, db: tx, now: now, uuid: uuid, application: application, keptVersions: keptVersions))
        }
    }
}

extension Owner {
    /// "We ate this": the plan entry logged for each of its eaters still in the household (their
    /// portions, into their own diaries) and its ingredients taken out of the pantry, in one write;
    /// nil when there is no such entry.
    func logCooked(_ assignmentID: UUID) async throws -> (assignment: Assignment, logged: [LogCookedMeal.Logged], pantry: CookFromPantry.Cooked?)? {
        let members = Set(try await household()?.members.map(\.id) ?? [id])
        return try await inOneWrite { owner in
            guard let (assignment, logged) = try await LogCookedMeal(cook: owner.logEntry, members: members, logging: { eater in
                try await UserModel.find(eater, on: owner.db).map { try owner.acting(as: $0).logEntry }
            })(assignmentID) else { return nil }
            return (assignment, logged, try await owner.cookFromPantry(assignmentID))
        }
    }

    /// Log on Today: a planned meal logged for the person, its ingredients taken out of the pantry
    /// (once per plan entry) in the same write; nil when there is no such entry.
    func logPlanned(_ assignmentID: UUID, loggedAt: Date? = nil, mealType: String?, servings: Decimal? = nil) async throws -> DiaryEntry? {
        try await inOneWrite { owner in
            guard let entry = try await owner.logEntry.planned(assignmentID, loggedAt: loggedAt, mealType: mealType, servings: servings) else { return nil }
            _ = try await owner.cookFromPantry(assignmentID)
            return entry
        }
    }

    /// Another member's use cases on this one's transaction (a household write that reaches them).
    private func acting(as member: UserModel) throws -> Owner {
        try Owner(user: member, db: db, now: now, uuid: uuid, application: application)
    }
}

extension Request {
    /// The signed-in person's use cases (401 when nobody is signed in).
    var owner: Owner { get throws { try Owner(self) } }
}
