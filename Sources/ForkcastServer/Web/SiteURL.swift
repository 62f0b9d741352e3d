import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// Every address of the web app, in one typed description: the controllers register their routes
/// from it (``template``) and every page and redirect builds its links from it (``path``), so a
/// link to a page that does not exist cannot be written.
enum SiteURL: Sendable {
    // Accounts
    case home, setup, login, logout, settings
    /// Creating an account (when sign-up is open, or with an invitation's token) and the owner's invitations.
    case signup(invite: String? = nil), invitations, revokeInvitation(UUID)
    /// Settings › Household: its name and members, and what its owner and members do there; the
    /// page an invitation into it opens.
    case household, householdInvite, revokeHouseholdInvite(UUID), leaveHousehold, removeMember(UUID), handOver(UUID)
    case joinHousehold(invite: String)
    /// Settings › Your data › Shared with a coach, and the page a diary link opens.
    case coachLinks, revokeCoachLink(UUID), coach(String, date: CalendarDate? = nil)
    case calendarFeeds, renewCalendarFeed(UUID), removeCalendarFeed(UUID), calendarFeed(file: String), apiKeys, revokeAPIKey(UUID)
    // Sign in with Apple and OpenID Connect: start, Apple's form_post answer, the return,
    // and Settings › Sign-in methods
    case identityStart(IdentityProviders.Kind, intent: String? = nil, next: String? = nil)
    case identityCallback(IdentityProviders.Kind), identityReturn(IdentityProviders.Kind)
    case signInMethods, unlinkIdentity(IdentityProviders.Kind)
    // Your data: export, import, delete the account
    case accountData, accountExport, accountDelete
    /// The import upload: the CSRF token travels in the address (a file upload).
    case accountImport
    // Meals
    case meals(MealFilter = MealFilter(), page: Int = 1)
    case newMeal, createMeal, mealTotals
    case editMeal(UUID), updateMeal(UUID), deleteMeal(UUID)
    /// A recipe to cook from (its amounts for `servings`; `entry`: opened from that plan entry),
    /// cooking mode, "We ate this" (a plan entry logged for its eaters), and bringing one in from a
    /// page or text; its read-only link, and the page that link opens for anyone.
    case recipe(UUID, servings: Int? = nil, entry: UUID? = nil), cook(UUID, servings: Int? = nil, entry: UUID? = nil), ateCooked(UUID)
    /// A plan entry cooked: its ingredients taken out of the pantry.
    case cookedEntry(UUID)
    case importRecipe, importShared, shareRecipe(UUID), unshareRecipe(UUID), recipePhoto(UUID), deleteRecipePhoto(UUID), sharedRecipe(String, servings: Int? = nil)
    // Planner
    case plan(start: CalendarDate?)
    case planPicker(date: CalendarDate, query: String?)
    case assign, removeAssignment(UUID), updateAssignment(UUID), assignmentEaters(UUID), planSuggestions(start: CalendarDate?), acceptSuggestions
    case planTemplates(start: CalendarDate? = nil), applyPlanTemplate(UUID), deletePlanTemplate(UUID)
    // Shopping lists, and the page a sharing link opens (`sharedList(":token")` is its pattern)
    case shopping, shoppingList(UUID), refreshShoppingList(UUID), addShoppingItem(UUID), shareShoppingList(UUID), unshareShoppingList(UUID)
    case deleteShoppingList(UUID), checkShoppingItem(UUID), deleteShoppingItem(UUID), editShoppingItem(UUID), updateShoppingItem(UUID)
    case sharedList(String), sharedCheck(String, UUID)
    // The household's pantry: its lots, adding one, changing, using and removing one
    case pantry, addPantryItem, addPantryBarcode, updatePantryItem(UUID), usePantryItem(UUID), deletePantryItem(UUID)
    // Today (the diary) and goals
    case diary(date: CalendarDate? = nil, range: String? = nil)
    case diaryAdd(date: CalendarDate? = nil, mealType: String? = nil, meal: UUID? = nil)
    case editEntry(UUID), updateEntry(UUID), deleteEntry(UUID), logPlanned, diaryCopy
    /// The photo capture's upload: the CSRF token travels in the address (a file upload).
    case diaryPhoto
    // Meal-first history and meal types (seed 004)
    case history(before: CalendarDate? = nil, date: CalendarDate? = nil)
    case occasion(UUID)
    case mealTypes, createMealType, updateMealType(UUID)
    case goals, goalsProfile, goalsManual, goalsWeights, goalsTargets, deleteWeight(UUID)
    case nutrientsWeek(date: CalendarDate? = nil)
    case nutrient(String, date: CalendarDate? = nil)
    /// The Apple Health upload: the CSRF token travels in the address (see CSRF.isValid).
    case goalsImport
    // Foods
    case foods(query: String? = nil, page: Int = 1, grid: Bool = false)
    case newFood, openFoodFacts, importFood
    case editFood(UUID), updateFood(UUID), deleteFood(UUID)
    // Files served as they are, and the API a page links to
    case stylesheet(String), icon, touchIcon, manifest, serviceWorker
    /// One of the ES modules in Public/js.
    case script(String)
    /// A food's icon (Public/icons/food).
    case foodIcon(FoodIcon)
    case diaryExport(from: CalendarDate, to: CalendarDate, format: String)
    /// The API reference (rendered from the OpenAPI document).
    case apiDocs

    /// The address to put in a link, a form or a redirect.
    var path: String { build { $0.uuidString } + query }

    /// The route pattern (`/meals/:id/edit`) the controllers register.
    var template: String { build { _ in ":id" } }

    var pathComponents: [PathComponent] { template.pathComponents }

    private func build(_ id: (UUID) -> String) -> String {
        switch self {
        case .home: "/"
        case .setup: "/setup"
        case .login: "/login"
        case .logout: "/logout"
        case .settings: "/settings"
        case .signup: "/signup"
        case .invitations: "/settings/invitations"
        case .household: "/settings/household"
        case .householdInvite: "/settings/household/invitations"
        case .revokeHouseholdInvite(let invitation): "/settings/household/invitations/\(id(invitation))/revoke"
        case .leaveHousehold: "/settings/household/leave"
        case .removeMember(let member): "/settings/household/members/\(id(member))/remove"
        case .handOver(let member): "/settings/household/members/\(id(member))/owner"
        case .joinHousehold: "/household/join"
        case .coachLinks: "/settings/coach"
        case .revokeCoachLink(let link): "/settings/coach/\(id(link))/revoke"
        case .coach(let token, _): "/coach/\(token)"
        case .calendarFeeds: "/settings/calendar"
        case .renewCalendarFeed(let feed): "/settings/calendar/\(id(feed))/renew"
        case .removeCalendarFeed(let feed): "/settings/calendar/\(id(feed))/remove"
        case .calendarFeed(let file): "/calendar/\(file)"
        case .apiKeys: "/settings/keys"
        case .revokeAPIKey(let key): "/settings/keys/\(id(key))/revoke"
        case .revokeInvitation(let invitation): "/settings/invitations/\(id(invitation))/revoke"
        case .identityStart(let kind, _, _): "/auth/\(kind.rawValue)/start"
        case .identityCallback(let kind): "/auth/\(kind.rawValue)/callback"
        case .identityReturn(let kind): "/auth/\(kind.rawValue)/return"
        case .signInMethods: "/settings/sign-in"
        case .unlinkIdentity(let kind): "/settings/sign-in/\(kind.rawValue)/unlink"
        case .accountData: "/settings/data"
        case .accountExport: "/settings/data/export"
        case .accountImport: "/settings/data/import"
        case .accountDelete: "/settings/data/delete"
        case .meals, .createMeal: "/meals"
        case .newMeal: "/meals/new"
        case .mealTotals: "/meals/totals"
        case .editMeal(let meal): "/meals/\(id(meal))/edit"
        case .updateMeal(let meal): "/meals/\(id(meal))"
        case .deleteMeal(let meal): "/meals/\(id(meal))/delete"
        case .recipe(let meal, _, _): "/meals/\(id(meal))/recipe"
        case .cook(let meal, _, _): "/meals/\(id(meal))/cook"
        case .ateCooked(let assignment): "/plan/assignments/\(id(assignment))/eaten"
        case .cookedEntry(let assignment): "/plan/assignments/\(id(assignment))/cooked"
        case .importRecipe: "/meals/import"
        case .importShared: "/meals/import/shared"
        case .shareRecipe(let meal): "/meals/\(id(meal))/share"
        case .unshareRecipe(let meal): "/meals/\(id(meal))/unshare"
        case .recipePhoto(let meal): "/meals/\(id(meal))/photo"
        case .deleteRecipePhoto(let meal): "/meals/\(id(meal))/photo/delete"
        case .sharedRecipe(let token, _): "/r/\(token)"
        case .plan: "/plan"
        case .planPicker: "/plan/add"
        case .assign: "/plan/assignments"
        case .removeAssignment(let assignment): "/plan/assignments/\(id(assignment))/delete"
        case .updateAssignment(let assignment): "/plan/assignments/\(id(assignment))/servings"
        case .assignmentEaters(let assignment): "/plan/assignments/\(id(assignment))/eaters"
        case .planSuggestions: "/plan/suggestions"
        case .acceptSuggestions: "/plan/suggestions/accept"
        case .planTemplates: "/plan/templates"
        case .applyPlanTemplate(let template): "/plan/templates/\(id(template))/apply"
        case .deletePlanTemplate(let template): "/plan/templates/\(id(template))/delete"
        case .shopping: "/shopping"
        case .shoppingList(let list): "/shopping/\(id(list))"
        case .refreshShoppingList(let list): "/shopping/\(id(list))/refresh"
        case .addShoppingItem(let list): "/shopping/\(id(list))/items"
        case .shareShoppingList(let list): "/shopping/\(id(list))/share"
        case .unshareShoppingList(let list): "/shopping/\(id(list))/unshare"
        case .deleteShoppingList(let list): "/shopping/\(id(list))/delete"
        case .checkShoppingItem(let item): "/shopping/items/\(id(item))/check"
        case .deleteShoppingItem(let item): "/shopping/items/\(id(item))/delete"
        case .editShoppingItem(let item): "/shopping/items/\(id(item))/edit"
        case .updateShoppingItem(let item): "/shopping/items/\(id(item))"
        case .sharedList(let token): "/s/\(token)"
        case .sharedCheck(let token, let item): "/s/\(token)/items/\(id(item))/check"
        case .pantry: "/pantry"
        case .addPantryItem: "/pantry/items"
        case .addPantryBarcode: "/pantry/barcode"
        case .updatePantryItem(let lot): "/pantry/items/\(id(lot))"
        case .usePantryItem(let lot): "/pantry/items/\(id(lot))/use"
        case .deletePantryItem(let lot): "/pantry/items/\(id(lot))/delete"
        case .diary: "/diary"
        case .diaryAdd: "/diary/add"
        case .editEntry(let entry): "/diary/entries/\(id(entry))/edit"
        case .updateEntry(let entry): "/diary/entries/\(id(entry))"
        case .deleteEntry(let entry): "/diary/entries/\(id(entry))/delete"
        case .logPlanned: "/diary/log-planned"
        case .diaryCopy: "/diary/copy"
        case .diaryPhoto: "/diary/photo"
        case .history: "/history"
        case .occasion(let occasion): "/history/\(id(occasion))"
        case .mealTypes, .createMealType: "/settings/meal-types"
        case .updateMealType(let type): "/settings/meal-types/\(id(type))"
        case .goals: "/goals"
        case .goalsProfile: "/goals/profile"
        case .goalsManual: "/goals/manual"
        case .goalsWeights: "/goals/weights"
        case .deleteWeight(let weight): "/goals/weights/\(id(weight))/delete"
        case .goalsTargets: "/goals/targets"
        case .nutrientsWeek: "/diary/nutrients"
        case .nutrient(let key, _): "/diary/nutrients/\(key)"
        case .goalsImport: "/goals/import"
        case .foods: "/foods"
        case .newFood: "/foods/new"
        case .openFoodFacts: "/foods/openfoodfacts"
        case .importFood: "/foods/import"
        case .editFood(let food): "/foods/\(id(food))/edit"
        case .updateFood(let food): "/foods/\(id(food))"
        case .deleteFood(let food): "/foods/\(id(food))/delete"
        case .stylesheet(let name): "/css/\(name).css"
        case .icon: "/icons/icon.svg"
        case .touchIcon: "/icons/icon-192.png"
        case .manifest: "/manifest.webmanifest"
        case .serviceWorker: "/sw.js"
        case .script(let name): "/js/\(name).js"
        case .foodIcon(let icon): "/icons/food/\(icon.rawValue).svg"
        case .diaryExport: Diary.Export.path.description
        case .apiDocs: "/api/docs"
        }
    }

    private var query: String {
        switch self {
        case .meals(let filter, let page): Self.query(filter.queryItems + (page > 1 ? [("page", "\(page)")] : []))
        case .plan(let start), .planSuggestions(let start), .planTemplates(let start): Self.query(start.map { [("start", $0.iso)] } ?? [])
        case .planPicker(let date, let query): Self.query([("date", date.iso)] + (query.map { [("q", $0)] } ?? []))
        case .diary(let date, let range): Self.query((date.map { [("date", $0.iso)] } ?? []) + (range.map { [("range", $0)] } ?? []))
        case .diaryAdd(let date, let mealType, let meal):
            Self.query((date.map { [("date", $0.iso)] } ?? []) + (mealType.map { [("mealType", $0)] } ?? []) + (meal.map { [("mealId", $0.uuidString)] } ?? []))
        case .identityStart(_, let intent, let next): Self.query((intent.map { [("intent", $0)] } ?? []) + (next.map { [("next", $0)] } ?? []))
        case .history(let before, let date): Self.query((before.map { [("before", $0.iso)] } ?? []) + (date.map { [("date", $0.iso)] } ?? []))
        case .foods(let query, let page, let grid):
            Self.query((query.map { [("q", $0)] } ?? []) + (grid ? [("view", "grid")] : []) + (page > 1 ? [("page", "\(page)")] : []))
        case .diaryExport(let from, let to, let format): Self.query([("from", from.iso), ("to", to.iso), ("format", format)])
        case .nutrientsWeek(let date), .nutrient(_, let date): Self.query(date.map { [("date", $0.iso)] } ?? [])
        case .signup(let invite): Self.query(invite.map { [("invite", $0)] } ?? [])
        case .joinHousehold(let invite): Self.query([("invite", invite)])
        case .coach(_, let date): Self.query(date.map { [("date", $0.iso)] } ?? [])
        case .recipe(_, let servings, let entry), .cook(_, let servings, let entry):
            Self.query((servings.map { [("servings", "\($0)")] } ?? []) + (entry.map { [("entry", $0.uuidString)] } ?? []))
        case .sharedRecipe(_, let servings): Self.query(servings.map { [("servings", "\($0)")] } ?? [])
        default: ""
        }
    }

    /// `path` with a fragment (`#day-2026-11-23`), percent-encoded.
    func path(fragment: String) -> String {
        path + "#" + (fragment.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? "")
    }

    static func query(_ items: [(String, String)]) -> String {
        guard !items.isEmpty else { return "" }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return "?" + items.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }

    /// A value standing for the `:id` of a route pattern when registering.
    static let anyID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// Every page address (not files, not the API), one value each: what the web controllers register.
    static let pages: [SiteURL] = [
        .home, .setup, .login, .logout, .settings, .signup(), .invitations, .revokeInvitation(anyID), .household, .householdInvite, .revokeHouseholdInvite(anyID), .leaveHousehold, .removeMember(anyID), .handOver(anyID), .joinHousehold(invite: ""), .coachLinks, .revokeCoachLink(anyID), .coach(":token"), .calendarFeeds, .renewCalendarFeed(anyID), .removeCalendarFeed(anyID), .calendarFeed(file: ":file"), .apiKeys, .revokeAPIKey(anyID), .signInMethods, .accountData, .accountExport, .accountImport, .accountDelete,
        .meals(), .newMeal, .mealTotals, .editMeal(anyID), .updateMeal(anyID), .deleteMeal(anyID), .recipe(anyID), .cook(anyID), .ateCooked(anyID), .cookedEntry(anyID), .importRecipe, .importShared, .shareRecipe(anyID), .unshareRecipe(anyID), .recipePhoto(anyID), .deleteRecipePhoto(anyID), .sharedRecipe(":token"),
        .plan(start: nil), .planPicker(date: CalendarDate(dayNumber: 0), query: nil), .assign, .removeAssignment(anyID),
        .updateAssignment(anyID), .assignmentEaters(anyID), .planSuggestions(start: nil), .acceptSuggestions,
        .planTemplates(), .applyPlanTemplate(anyID), .deletePlanTemplate(anyID),
        .shopping, .shoppingList(anyID), .refreshShoppingList(anyID), .addShoppingItem(anyID), .shareShoppingList(anyID),
        .unshareShoppingList(anyID), .deleteShoppingList(anyID), .checkShoppingItem(anyID), .deleteShoppingItem(anyID), .editShoppingItem(anyID), .updateShoppingItem(anyID),
        .sharedList(":token"), .sharedCheck(":token", anyID),
        .pantry, .addPantryItem, .addPantryBarcode, .updatePantryItem(anyID), .usePantryItem(anyID), .deletePantryItem(anyID),
        .diary(), .diaryAdd(), .editEntry(anyID), .updateEntry(anyID), .deleteEntry(anyID), .logPlanned, .diaryCopy, .diaryPhoto,
        .history(), .occasion(anyID), .mealTypes, .createMealType, .updateMealType(anyID),
        .goals, .goalsProfile, .goalsManual, .goalsWeights, .deleteWeight(anyID), .goalsTargets, .goalsImport, .nutrientsWeek(), .nutrient(":nutrient"),
        .foods(), .newFood, .openFoodFacts, .importFood, .editFood(anyID), .updateFood(anyID), .deleteFood(anyID),
        .serviceWorker, .script("api"),
    ] + IdentityProviders.Kind.allCases.flatMap { [.identityStart($0), .identityReturn($0), .unlinkIdentity($0)] } + [.identityCallback(.apple)]
}

extension MealFilter {
    var queryItems: [(String, String)] {
        var items: [(String, String)] = []
        if let text { items.append(("q", text)) }
        if let protein { items.append(("protein", protein)) }
        if let carb { items.append(("carb", carb)) }
        for component in components { items.append(("component", component)) }
        return items
    }
}
