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

    /// A photo for a meal the archive does not hold, two for one meal, or a file named twice (one
    /// file of the zip stored again and again).
    func photoProblems(meals: Set<UUID>) -> [ValidationError.Field] {
        var problems: [ValidationError.Field] = []
        for (index, record) in recipePhotos.enumerated() where !meals.contains(record.mealId) {
            problems.append(.init(field: "recipePhotos[\(index)].mealId", message: "A recipe photo's meal (\(record.mealId)) is not among the export's meals."))
        }
        let heads = recipePhotos.map(\.mealId)
        if Set(heads).count != heads.count { problems.append(.init(field: "recipePhotos", message: "A meal has more than one photo.")) }
        let files = photos.flatMap { [$0.file] + ($0.thumbnail.map { [$0] } ?? []) } + recipePhotos.map(\.file)
        if Set(files).count != files.count { problems.append(.init(field: "photos", message: "A file of the archive is named by more than one photo.")) }
        return problems
    }
}
