import Foundation

/// Recipes' photos in an export (docs/export-format.md): the household's, as its meals are.
extension AccountArchive {
    public static let recipePhotoFolder = "recipe-photos"

    /// A recipe's photo: the meal it heads and its facts; its bytes are the file `file` names
    /// inside the zip. An import checks them as an upload's and gives the photo an id of its own.
    public struct RecipePhotoRecord: Codable, Sendable, Hashable {
        public var mealId: UUID
        public var format: ImageFormat
        public var width: Int
        public var height: Int
        public var file: String

        public init(mealId: UUID, format: ImageFormat, width: Int, height: Int) {
            self.mealId = mealId
            self.format = format
            self.width = width
            self.height = height
            file = "\(AccountArchive.recipePhotoFolder)/\(mealId.uuidString.lowercased()).\(format.fileExtension)"
        }
    }

    /// A photo for a meal the archive does not hold, or two for one meal.
    func recipePhotoProblems(meals: Set<UUID>) -> [ValidationError.Field] {
        var problems: [ValidationError.Field] = []
        for (index, record) in recipePhotos.enumerated() where !meals.contains(record.mealId) {
            problems.append(.init(field: "recipePhotos[\(index)].mealId", message: "A recipe photo's meal (\(record.mealId)) is not among the export's meals."))
        }
        let heads = recipePhotos.map(\.mealId)
        if Set(heads).count != heads.count { problems.append(.init(field: "recipePhotos", message: "A meal has more than one photo.")) }
        return problems
    }
}
