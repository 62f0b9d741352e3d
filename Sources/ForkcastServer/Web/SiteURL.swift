import ForkcastCore
import Foundation

/// Every page address of the web app, built in one place.
enum SiteURL {
    case home, setup, login, logout
    case meals(MealFilter = MealFilter())
    case newMeal, createMeal
    case editMeal(UUID), updateMeal(UUID), deleteMeal(UUID)
    case plan(start: CalendarDate?)
    case planPicker(date: CalendarDate, query: String?)
    case assign, removeAssignment(UUID)
    case settings

    var path: String {
        switch self {
        case .home: return "/"
        case .setup: return "/setup"
        case .login: return "/login"
        case .logout: return "/logout"
        case .meals(let filter): return "/meals" + Self.query(filter.queryItems)
        case .newMeal: return "/meals/new"
        case .createMeal: return "/meals"
        case .editMeal(let id): return "/meals/\(id)/edit"
        case .updateMeal(let id): return "/meals/\(id)"
        case .deleteMeal(let id): return "/meals/\(id)/delete"
        case .plan(let start): return "/plan" + Self.query(start.map { [("start", $0.iso)] } ?? [])
        case .planPicker(let date, let query):
            return "/plan/add" + Self.query([("date", date.iso)] + (query.map { [("q", $0)] } ?? []))
        case .assign: return "/plan/assignments"
        case .removeAssignment(let id): return "/plan/assignments/\(id)/delete"
        case .settings: return "/settings"
        }
    }

    static func query(_ items: [(String, String)]) -> String {
        guard !items.isEmpty else { return "" }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return "?" + items.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }
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
