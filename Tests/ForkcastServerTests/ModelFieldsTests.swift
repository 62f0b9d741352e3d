import FluentKit
import Foundation
@testable import ForkcastServer
import Testing

/// Each model lists its fields by hand (`properties`) so FluentKit does not reflect on every row it
/// decodes (docs/performance.md). The hand-written list must be exactly what reflection would find, in order:
/// a field left out would silently never be read or written.
@Suite struct ModelFieldsTests {
    static let models: [any Model.Type] = [
        PlanTemplateModel.self,
        UserModel.self, TokenModel.self, KnownClientModel.self, WebSessionModel.self,
        FoodModel.self, FoodTermModel.self, MealIngredientModel.self, OpenFoodFactsCacheModel.self,
        MealModel.self, MealComponentModel.self, AssignmentModel.self,
        DiaryEntryModel.self, BodyProfileModel.self, GoalSettingModel.self, WeightEntryModel.self,
        MealTypeModel.self, PhotoModel.self, PhotoBlobModel.self, MealPhotoModel.self, ExternalIdentityModel.self, UsedNonceModel.self,
        CatalogFoodModel.self, CatalogPartModel.self, ShoppingListModel.self, ShoppingItemModel.self, InvitationModel.self,
        HouseholdModel.self, HouseholdMemberModel.self, DiaryLinkModel.self, PantryItemModel.self, PantryUseModel.self, CalendarFeedModel.self, APIKeyModel.self,
    ]

    @Test(arguments: Self.models.indices)
    func handListedFieldsAreTheReflectedOnes(index: Int) {
        let model = Self.models[index].init()
        let listed = model.properties.compactMap { ($0 as? any AnyDatabaseProperty)?.keys }
        let reflected = Mirror(reflecting: model).children.compactMap { ($0.value as? any AnyDatabaseProperty)?.keys }
        #expect(!reflected.isEmpty)
        #expect(listed == reflected, "\(type(of: model)) lists \(listed), reflection finds \(reflected)")
    }

    @Test func everyModelOfTheServerIsChecked() throws {
        // Every `final class …: Model` of the server's sources appears in `models` above.
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ForkcastServer")
        var declared = Set<String>()
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("final class ") && line.contains(": Model,") {
                declared.insert(String(line.dropFirst("final class ".count).prefix { $0 != ":" }))
            }
        }
        #expect(declared == Set(Self.models.map { String(describing: $0) }))
    }
}
