import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// A recipe's photo on the in-memory library: checked by its bytes, one a meal, kept over edits,
/// the household's alone, gone with its meal. Both engines: ForkcastServerTests' RecipePhotoTests.
@Suite("Recipe photo use case, alone on the in-memory library")
struct SetMealPhotoTests {
    let libraries = InMemoryLibraries()
    let ann = UUID(), bob = UUID()
    let now = Date(timeIntervalSince1970: 1_795_392_000)

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/photos/\(name)"))
    }

    @Test func onlyAPhotoABrowserShowsIsTakenAndStrippedOfItsMetadata() throws {
        let jpeg = try Self.fixture("photo.jpg")
        let photo = try MealPhoto(checking: jpeg, id: UUID())
        #expect(photo.format == .jpeg && photo.width == 64 && photo.height == 48)
        #expect(photo.data.range(of: Data("ForkcastTestCam".utf8)) == nil, "the camera's EXIF is gone")
        #expect(throws: ImageFile.Problem.self) { try MealPhoto(checking: try Self.fixture("photo.heic"), id: UUID()) }
        #expect(throws: ImageFile.Problem.self) { try MealPhoto(checking: Data("<svg onload=alert(1)>".utf8), id: UUID()) }
        #expect(throws: ImageFile.Problem.self) { try MealPhoto(checking: Data(), id: UUID()) }
    }

    @Test func aPhotoIsReplacedKeptOverEditsAndGoesWithItsMeal() async throws {
        let library = libraries.library(of: ann)
        let soup = try await SaveMeal(library: library, now: now).add(MealDraft(description: "Soup"), id: UUID())
        let first = try MealPhoto(checking: try Self.fixture("photo.jpg"), id: UUID())
        let set = SetMealPhoto(library: library, now: now, quotaBytes: 1 << 20)
        #expect(try await set(first, on: soup.id)?.photoId == first.id)
        #expect(try await SetMealPhoto(library: libraries.library(of: bob), now: now, quotaBytes: 1 << 20)(first, on: soup.id) == nil, "Bob has no such meal")

        let second = try MealPhoto(checking: try Self.fixture("photo.png"), id: UUID())
        #expect(try await set(second, on: soup.id)?.photoId == second.id)
        #expect(libraries.contents.mealPhotos.keys.sorted() == [second.id], "the first photo is gone with its place")
        let renamed = try await SaveMeal(library: library, now: now).change(MealDraft(description: "Leek soup"), id: soup.id)
        #expect(renamed?.photoId == second.id, "an edit keeps the photo")

        #expect(try await set(MealPhoto?.none, on: soup.id)?.photoId == nil)
        #expect(libraries.contents.mealPhotos.isEmpty)
        _ = try await set(first, on: soup.id)
        _ = try await DeleteMeal(library: library, now: now)(soup.id)
        #expect(libraries.contents.mealPhotos.isEmpty, "the photo goes with its meal")
    }

    @Test func aHouseholdsRecipePhotosStayWithinTheQuota() async throws {
        let library = libraries.library(of: ann)
        let save = SaveMeal(library: library, now: now)
        let soup = try await save.add(MealDraft(description: "Soup"), id: UUID()), stew = try await save.add(MealDraft(description: "Stew"), id: UUID())
        let photo = try MealPhoto(checking: try Self.fixture("photo.jpg"), id: UUID())
        let set = SetMealPhoto(library: library, now: now, quotaBytes: Int64(photo.data.count * 3 / 2))
        _ = try await set(photo, on: soup.id)
        #expect(try await set(MealPhoto(checking: try Self.fixture("photo.jpg"), id: UUID()), on: soup.id) != nil, "a replaced photo does not count twice")
        await #expect(throws: Refusal.self) { try await set(MealPhoto(checking: try Self.fixture("photo.jpg"), id: UUID()), on: stew.id) }
        #expect(libraries.contents.meals[stew.id]?.value.photoId == nil && libraries.contents.mealPhotos.count == 1, "nothing was saved")
    }

    @Test func takingOffAPhotoThatIsNotThereChangesNothing() async throws {
        let library = libraries.library(of: ann)
        let soup = try await SaveMeal(library: library, now: now).add(MealDraft(description: "Soup"), id: UUID())
        let later = now.addingTimeInterval(60)
        #expect(try await SetMealPhoto(library: library, now: later, quotaBytes: 1 << 20)(nil, on: soup.id)?.updatedAt == now,
                "not a change: a device's edit made meanwhile is not superseded")
    }
}
