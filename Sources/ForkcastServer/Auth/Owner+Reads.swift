import ForkcastApp
import ForkcastCore
import Foundation

// What the front doors read through an ``Owner``: each repository's reads and none of its writes,
// so a change can only be made through its use case (Owner's use cases; the compiler refuses the rest).

protocol MealReads: Sendable {
    func list(filter: MealFilter, page: Paging, plannedIn window: WeekWindow) async throws -> (items: [MealRepository.Listed], total: Int)
    func all() async throws -> [Meal]
    func find(_ id: UUID) async throws -> Meal?
    func find(ids: [UUID]) async throws -> [UUID: Meal]
    func shareToken(of id: UUID) async throws -> String?
    func photoID(of id: UUID) async throws -> UUID?
    func facets() async throws -> MealFacets
    func count() async throws -> Int
    func foods(for meals: [Meal]) async throws -> [UUID: Food]
    func totals(for meals: [Meal]) async throws -> [UUID: MealTotals]
}

protocol PlanReads: Sendable {
    func days(in window: WeekWindow) async throws -> [PlanDay]
    func entries(from: CalendarDate, to: CalendarDate) async throws -> [PlanDay.Entry]
    func lastPlanned(before date: CalendarDate) async throws -> [UUID: CalendarDate]
    func slotHistory() async throws -> [UUID: Set<String>]
    func timesPlanned(_ mealID: UUID, in window: WeekWindow?) async throws -> Int
    func find(_ id: UUID) async throws -> Assignment?
    func find(ids: [UUID]) async throws -> [Assignment]
    func planned(_ mealIDs: [UUID], in window: WeekWindow) async throws -> Set<UUID>
}

protocol FoodReads: Sendable {
    func list(query: String?, page: Paging) async throws -> (items: [Food], total: Int)
    func find(_ id: UUID) async throws -> Food?
    func find(ids: [UUID]) async throws -> [UUID: Food]
    func adopted(_ catalogId: String) async throws -> Food?
    func adopted(among catalogIds: [String]) async throws -> [String: UUID]
    func find(barcode: Barcode) async throws -> Food?
    func count() async throws -> Int
}

protocol DiaryEntryReads {
    func entries(on date: CalendarDate) async throws -> [DiaryEntry]
    func entries(from: CalendarDate, to: CalendarDate) async throws -> [DiaryEntry]
    func find(_ id: UUID) async throws -> DiaryEntry?
    func find(ids: [UUID]) async throws -> [DiaryEntry]
    func usualFoods(for mealType: String, now: Date, limit: Int) async throws -> [UUID]
    func lastPortions(of ids: [UUID], now: Date) async throws -> [UUID: (quantity: Decimal, unit: QuantityUnit)]
    func dailyTotals(from: CalendarDate, to: CalendarDate) async throws -> [DiaryRepository.DayTotals]
}

protocol PhotoReads {
    func find(_ id: UUID) async throws -> Photo?
    func find(ids: [UUID]) async throws -> [UUID: Photo]
    func bytes(_ id: UUID, variant: PhotoVariant) async throws -> (Data, ImageFormat)?
}

/// The person's diary as its pages and answers read it: a day, its entries and their photos.
protocol DiaryReads {
    associatedtype Entries: DiaryEntryReads
    associatedtype Photos: PhotoReads
    var ownerID: UUID { get }
    var entries: Entries { get }
    var photos: Photos { get }
    func day(_ date: CalendarDate) async throws -> DiaryDay
    func types() async throws -> MealTypeCatalog
    func goals() async throws -> (goals: Goals, calculation: GoalCalculation?)
}

protocol MealTypeReads: Sendable {
    func catalog(now: Date) async throws -> MealTypeCatalog
    func find(_ id: UUID) async throws -> MealType?
}

protocol BodyReads: Sendable {
    func profile() async throws -> BodyProfile?
    func weight(_ id: UUID) async throws -> WeightEntry?
    func weights(ids: [UUID]) async throws -> [WeightEntry]
    func weights(from: Date?, to: Date?) async throws -> [WeightEntry]
    func weights(page: Paging) async throws -> (items: [WeightEntry], total: Int)
    func latestWeight() async throws -> WeightEntry?
    func goals(today: CalendarDate) async throws -> (goals: Goals, calculation: GoalCalculation?)
    func storedGoals() async throws -> Goals?
}

protocol ShoppingReads: Sendable {
    func lists(page: Paging?) async throws -> (items: [ShoppingList], total: Int)
    func counts(of listIDs: [UUID]) async throws -> [UUID: (items: Int, checked: Int)]
    func find(_ id: UUID) async throws -> ShoppingList?
    func items(of listID: UUID) async throws -> [ShoppingItem]
    func item(_ id: UUID) async throws -> ShoppingItem?
    func items(ids: [UUID]) async throws -> [ShoppingItem]
    func lists(ids: [UUID]) async throws -> [ShoppingList]
    func chosenCategories(for foodIDs: [UUID]) async throws -> [UUID: String]
}

extension MealRepository: MealReads {}
extension PlanRepository: PlanReads {}
extension FoodRepository: FoodReads {}
extension DiaryRepository: DiaryEntryReads {}
extension PhotoRepository: PhotoReads {}
extension FluentDiary: DiaryReads {}
extension MealTypeRepository: MealTypeReads {}
extension BodyRepository: BodyReads {}
extension ShoppingRepository: ShoppingReads {}

protocol PantryReads: Sendable {
    func items() async throws -> [PantryItem]
    func item(_ id: UUID) async throws -> PantryItem?
    func items(ids: [UUID]) async throws -> [PantryItem]
    func uses(since: Date) async throws -> [PantryUse]
}

extension PantryRepository: PantryReads {}
