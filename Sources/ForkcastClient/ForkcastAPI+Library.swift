import ForkcastCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Meals, the plan, shopping lists, foods and the catalogue.
extension ForkcastAPI {
    /// A page of the meal library, filtered (protein, carb, components, text).
    public func meals(_ query: MealQuery = MealQuery()) async throws -> Page<Meal> { try await send(Meals.List.self, query) }

    public func createMeal(_ input: MealInput) async throws -> Meal { try await send(Meals.Create.self, body: input) }

    /// One meal; with `servings`, its ingredients scaled to that many (`recipeServings` says what it makes).
    public func meal(_ id: UUID, servings: Int? = nil) async throws -> Meal { try await send(Meals.Get.self, MealParameters(id, servings: servings)) }

    /// A recipe read from a page's HTML, a JSON-LD document or text, matched to your foods; nothing is saved.
    public func importRecipe(_ input: RecipeImportInput) async throws -> RecipeDraftAnswer { try await send(Meals.Import.self, body: input) }

    /// The meal as a schema.org Recipe (JSON-LD).
    public func recipeJSONLD(_ id: UUID) async throws -> Data { try await download(Meals.RecipeJSONLD.self, IDParameter(id)) }

    /// The recipe's read-only link (the same one when it is shared already); `unshareRecipe` revokes it.
    public func shareRecipe(_ id: UUID) async throws -> RecipeShareAnswer { try await send(Meals.Share.self, IDParameter(id)) }

    public func unshareRecipe(_ id: UUID) async throws { _ = try await send(Meals.Unshare.self, IDParameter(id)) }

    /// The recipe a link shares, as JSON-LD (no account needed): `importRecipe(RecipeImportInput(jsonld:))` keeps a copy.
    public func sharedRecipe(token: String) async throws -> Data { try await download(Meals.Shared.self, ShareTokenParameter(token: token)) }

    /// Puts a photo (JPEG, PNG or WebP) on the recipe, in place of any it had; the meal answers its new `photoId`.
    public func setMealPhoto(_ id: UUID, _ data: Data) async throws -> Meal {
        try await upload(Meals.SetPhoto.self, IDParameter(id), data, contentType: "application/octet-stream")
    }

    public func deleteMealPhoto(_ id: UUID) async throws { _ = try await send(Meals.DeletePhoto.self, IDParameter(id)) }

    /// The recipe's photo as stored, without its metadata.
    public func mealPhoto(_ id: UUID) async throws -> Data { try await download(Meals.Photo.self, IDParameter(id)) }

    public func updateMeal(_ id: UUID, _ input: MealInput) async throws -> Meal { try await send(Meals.Update.self, MealParameters(id), body: input) }

    public func deleteMeal(_ id: UUID) async throws { _ = try await send(Meals.Delete.self, IDParameter(id)) }

    /// "We ate this": the planned meal logged into each eater's own diary (those who had not logged it yet).
    public func logEaten(_ assignmentId: UUID) async throws -> EatenAnswer { try await send(Plan.Eaten.self, IDParameter(assignmentId)) }

    /// The plan of `days` days from `start` (default the 7 days from today).
    public func plan(start: CalendarDate? = nil, days: Int? = nil) async throws -> PlanAnswer {
        try await send(Plan.Get.self, PlanQuery(start: start, days: days))
    }

    /// Plans a meal on a day, optionally in a meal slot (a meal type's key or id), making `servings`
    /// portions (nil: the meal's own); with `repeat`, on every day it falls on (the answer is the first,
    /// its `seriesId` shared by all).
    public func assign(mealId: UUID, date: CalendarDate, mealType: String? = nil, servings: Int? = nil,
                       eaters: [EaterEntry]? = nil, repeat rule: PlanRepeat? = nil) async throws -> Assignment {
        try await send(Plan.Assign.self, body: AssignmentInput(mealId: mealId, date: date, mealType: mealType, servings: servings, eaters: eaters,
                                                               repeat: rule))
    }

    /// Changes a planned meal: its meal, day, slot or portions; for a repeat, as `scope` says.
    public func updateAssignment(_ id: UUID, _ input: AssignmentInput, scope: SeriesScope? = nil) async throws -> Assignment {
        try await send(Plan.UpdateAssignment.self, AssignmentScopeParameters(id, scope: scope), body: input)
    }

    /// Plans several meals at once, all or none (accepting suggestions).
    public func assign(_ inputs: [AssignmentInput]) async throws -> [Assignment] {
        try await send(Plan.AssignMany.self, body: AssignmentsInput(assignments: inputs))
    }

    /// The household's week templates, by name.
    public func planTemplates() async throws -> [PlanTemplateAnswer] { try await send(Plan.ListTemplates.self, Nothing()) }

    /// Saves weeks of the plan as a named template.
    public func savePlanTemplate(_ input: PlanTemplateInput) async throws -> PlanTemplateAnswer { try await send(Plan.CreateTemplate.self, body: input) }

    /// Puts a template (then each of `input.then`, `input.cycles` times) on the plan.
    public func applyPlanTemplate(_ id: UUID, _ input: ApplyTemplateInput) async throws -> ApplyTemplateAnswer {
        try await send(Plan.ApplyTemplate.self, IDParameter(id), body: input)
    }

    public func deletePlanTemplate(_ id: UUID) async throws { _ = try await send(Plan.DeleteTemplate.self, IDParameter(id)) }

    /// "Fill my week": meals for the empty slots, closest to the goals; nothing is planned.
    public func suggestions(_ input: SuggestionsInput) async throws -> SuggestionsAnswer { try await send(Plan.Suggest.self, body: input) }

    // Shopping lists

    public func shoppingLists(page: Int? = nil, per: Int? = nil) async throws -> Page<ShoppingListSummaryAnswer> {
        try await send(ShoppingLists.List.self, PageQuery(page: page, per: per))
    }

    /// A list from the plan of `from` … `to`: every ingredient, scaled by the portions planned, summed per food.
    public func makeShoppingList(from: CalendarDate, to: CalendarDate, name: String? = nil) async throws -> ShoppingListAnswer {
        try await send(ShoppingLists.Create.self, body: ShoppingListInput(from: from, to: to, name: name))
    }

    public func shoppingList(_ id: UUID) async throws -> ShoppingListAnswer { try await send(ShoppingLists.Get.self, IDParameter(id)) }

    /// Reads the plan again: quantities follow it, checked marks and your own items stay.
    public func refreshShoppingList(_ id: UUID) async throws -> ShoppingListAnswer { try await send(ShoppingLists.Refresh.self, IDParameter(id)) }

    public func deleteShoppingList(_ id: UUID) async throws { _ = try await send(ShoppingLists.Delete.self, IDParameter(id)) }

    public func addShoppingItem(to list: UUID, _ input: ShoppingItemInput) async throws -> ShoppingItemAnswer {
        try await send(ShoppingLists.AddItem.self, IDParameter(list), body: input)
    }

    /// Checks an item off (or back on), or changes its name, amount or aisle.
    public func updateShoppingItem(_ item: UUID, on list: UUID, _ change: ShoppingItemUpdate) async throws -> ShoppingItemAnswer {
        try await send(ShoppingLists.UpdateItem.self, ShoppingItemParameters(id: list, itemId: item), body: change)
    }

    public func deleteShoppingItem(_ item: UUID, on list: UUID) async throws {
        _ = try await send(ShoppingLists.DeleteItem.self, ShoppingItemParameters(id: list, itemId: item))
    }

    /// A link that opens the list without an account (read and check off), until revoked.
    public func shareShoppingList(_ id: UUID) async throws -> ShoppingShareAnswer { try await send(ShoppingLists.Share.self, IDParameter(id)) }

    public func unshareShoppingList(_ id: UUID) async throws { _ = try await send(ShoppingLists.Unshare.self, IDParameter(id)) }

    public func unassign(_ id: UUID, scope: SeriesScope? = nil) async throws {
        _ = try await send(Plan.Unassign.self, AssignmentScopeParameters(id, scope: scope))
    }

    /// A page of your foods, searched by name or brand.
    public func foods(matching text: String? = nil, page: Int? = nil, per: Int? = nil) async throws -> Page<Food> {
        try await send(Foods.List.self, FoodQuery(q: text, page: page, per: per))
    }

    public func createFood(_ input: FoodInput) async throws -> Food { try await send(Foods.Create.self, body: input) }

    /// Foods of the shared catalogue (USDA FoodData Central), best match first; `text` of 2
    /// characters or more. A catalogue food already made yours has its `foodId`.
    public func catalog(matching text: String, page: Int? = nil, per: Int? = nil) async throws -> Page<CatalogFoodAnswer> {
        try await send(Foods.Catalog.self, CatalogQuery(q: text, page: page, per: per))
    }

    /// One catalogue food with all its named portions.
    public func catalogFood(_ catalogId: String) async throws -> CatalogFoodAnswer {
        try await send(Foods.CatalogEntry.self, CatalogIDParameter(catalogId))
    }

    /// The catalogue food made one of your foods (the same food when it already is one).
    public func adopt(catalogId: String) async throws -> Food { try await send(Foods.Import.self, body: FoodImportInput(catalogId: catalogId)) }

    /// The nutrients Forkcast tracks, with their units and daily values.
    public func nutrients() async throws -> [NutrientAnswer] { try await send(NutrientDefinitions.List.self, Nothing()).items }

    /// A food by barcode: yours, else an Open Food Facts product (its id nil until imported).
    public func lookUpBarcode(_ code: String) async throws -> BarcodeLookup { try await send(Foods.LookUpBarcode.self, BarcodeParameter(code)) }
}
