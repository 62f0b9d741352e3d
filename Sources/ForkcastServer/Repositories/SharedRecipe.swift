import Fluent
import ForkcastCore
import Foundation

/// The recipe a sharing link opens, whoever holds it: the meal and its foods, read as its
/// household reads them. The holder is never signed in as anyone and reaches nothing else.
struct SharedRecipe: Sendable {
    let meal: Meal
    let foods: [UUID: Food]
    let currency: String

    /// Nil for an unknown or revoked token.
    static func open(_ token: String, on db: any Database) async throws -> SharedRecipe? {
        guard Tokens.mayBeLink(token),
              let model = try await MealModel.query(on: db).filter(\.$shareToken == token).field(\.$id).field(\.$owner.$id).first(),
              let id = model.id else { return nil }
        let owner = model.$owner.id
        let meals = MealRepository(db: db, kitchen: Kitchen(user: owner))
        guard let meal = try await meals.find(id), let user = try await UserModel.find(owner, on: db) else { return nil }
        return SharedRecipe(meal: meal, foods: try await meals.foods(for: [meal]), currency: user.currency)
    }

    /// The shared meal's id and its photo's, without reading the meal; nil for an unknown or
    /// revoked token or a recipe without a photo.
    static func photo(_ token: String, on db: any Database) async throws -> (meal: UUID, photo: UUID)? {
        guard Tokens.mayBeLink(token),
              let model = try await MealModel.query(on: db).filter(\.$shareToken == token).field(\.$id).field(\.$photoID).first(),
              let id = model.id, let photo = model.photoID else { return nil }
        return (id, photo)
    }

    var totals: MealTotals { (try? MealTotals.of(meal, foods: foods)) ?? .unknown }
}
