import Fluent
import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A recipe's photo: put on by one member, seen by the household, stripped of its metadata, kept
/// over edits, shown through a shared link only while it is shared, and gone with its meal.
@Suite("Recipe photos")
struct RecipePhotoTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/photos/\(name)"))
    }

    @Test func aHouseholdsRecipePhotoIsSharedKeptAndGoesWithItsMeal() async throws {
        try await withServer(allowSignup: true) { app, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana"), ben = try await HouseholdSharingTests.person(url, "Ben")
            let cleo = try await HouseholdSharingTests.person(url, "Cleo")
            _ = try await ben.api.joinHousehold(token: try await ana.api.inviteToHousehold().token!)
            let soup = try await ana.api.createMeal(MealInput(description: "Soup", steps: [.init(text: "Simmer.")]))
            #expect(soup.photoId == nil)

            let jpeg = try Self.fixture("photo.jpg")
            let withPhoto = try await ana.api.setMealPhoto(soup.id, jpeg)
            let first = try #require(withPhoto.photoId)
            let seen = try await ben.api.mealPhoto(soup.id)
            let image = try ImageFile.inspect(seen)
            #expect(image.format == .jpeg && image.width == 64 && image.height == 48, "the household sees the photo")
            #expect(seen.range(of: Data("ForkcastTestCam".utf8)) == nil && seen.count < jpeg.count, "stored without the camera's metadata")
            #expect(await problemStatus { _ = try await cleo.api.mealPhoto(soup.id) } == 404, "nobody else sees it")
            var asked = URLRequest(url: url.appendingPathComponent("api/v1/meals/\(soup.id.uuidString)/photo"))
            asked.setValue("Bearer \(ben.api.token!)", forHTTPHeaderField: "Authorization")
            asked.setValue("\"\(first.uuidString.lowercased())\"", forHTTPHeaderField: "If-None-Match")
            #expect((try await URLSession.shared.data(for: asked).1 as? HTTPURLResponse)?.statusCode == 304, "the copy Ben has")
            let synced = try await SyncEngine(api: ben.api, store: InMemorySyncStore(), deviceId: "bens-phone")
            try await synced.sync()
            #expect(await synced.records(.meal)[soup.id]?["photoId"]?.string?.uppercased() == first.uuidString, "sync carries photoId")
            #expect(await problemStatus { _ = try await cleo.api.setMealPhoto(soup.id, jpeg) } == 404)

            // An edit keeps it; a second photo replaces it.
            let edited = try await ben.api.updateMeal(soup.id, MealInput(description: "Leek soup", steps: [.init(text: "Simmer.")]))
            #expect(edited.photoId == first)
            let replaced = try await ben.api.setMealPhoto(soup.id, try Self.fixture("photo.png"))
            #expect(replaced.photoId != nil && replaced.photoId != first)
            #expect(try ImageFile.inspect(try await ana.api.mealPhoto(soup.id)).format == .png)
            #expect(try await MealPhotoModel.query(on: app.db).count() == 1, "one photo a meal")

            // What is not a photo we can show changes nothing.
            #expect(await problemStatus { _ = try await ana.api.setMealPhoto(soup.id, Data("<svg onload=alert(1)>".utf8)) } == 415)
            #expect(await problemStatus { _ = try await ana.api.setMealPhoto(soup.id, try Self.fixture("photo.heic")) } == 415, "few browsers show HEIC")
            #expect(await problemStatus { _ = try await ana.api.setMealPhoto(soup.id, Data(jpeg.prefix(40))) } == 422)
            #expect(await problemStatus { _ = try await ana.api.setMealPhoto(UUID(), jpeg) } == 404)
            #expect(try await ana.api.meal(soup.id).photoId == replaced.photoId)

            // Shared: the link's document names the photo, which anyone may fetch until the link is revoked.
            let link = try await ana.api.shareRecipe(soup.id)
            let document = try JSONSerialization.jsonObject(with: try await ForkcastAPI(baseURL: url, transport: .patient).sharedRecipe(token: link.token)) as? [String: Any]
            let address = try #require(document?["image"] as? String)
            #expect(address.hasSuffix("/api/v1/shared/recipes/\(link.token)/photo"))
            let photoURL = url.appendingPathComponent("api/v1/shared/recipes/\(link.token)/photo")
            let (bytes, answer) = try await URLSession.shared.data(from: photoURL)
            let http = try #require(answer as? HTTPURLResponse)
            #expect(http.statusCode == 200 && (try? ImageFile.inspect(bytes).format) == .png, "signed out")
            #expect(http.value(forHTTPHeaderField: "Cache-Control") == "no-store" && http.value(forHTTPHeaderField: "Referrer-Policy") == "no-referrer",
                    "no cache keeps a link's answer")
            var again = URLRequest(url: photoURL)
            again.setValue(http.value(forHTTPHeaderField: "ETag"), forHTTPHeaderField: "If-None-Match")
            #expect((try await URLSession.shared.data(for: again).1 as? HTTPURLResponse)?.statusCode == 304)
            try await ana.api.unshareRecipe(soup.id)
            #expect((try await URLSession.shared.data(from: photoURL).1 as? HTTPURLResponse)?.statusCode == 404)

            // Ben leaves with a copy of the library: his copy keeps a photo of its own.
            let stew = try await ana.api.createMeal(MealInput(description: "Stew"))
            _ = try await ana.api.setMealPhoto(stew.id, jpeg)
            _ = try await ben.api.leaveHousehold()
            let bensStew = try #require(try await ben.api.meals().items.first { $0.description == "Stew" })
            #expect(bensStew.id != stew.id && bensStew.photoId != nil)
            #expect(try ImageFile.inspect(try await ben.api.mealPhoto(bensStew.id)).format == .jpeg)
            _ = try await ben.api.joinHousehold(token: try await ana.api.inviteToHousehold().token!)

            try await ben.api.deleteMealPhoto(soup.id)
            #expect(try await ana.api.meal(soup.id).photoId == nil)
            #expect(await problemStatus { _ = try await ana.api.mealPhoto(soup.id) } == 404)
            _ = try await ana.api.setMealPhoto(soup.id, jpeg)
            let before = try await MealPhotoModel.query(on: app.db).count()
            try await ana.api.deleteMeal(soup.id)
            #expect(try await MealPhotoModel.query(on: app.db).count() == before - 1, "the photo goes with its meal")
        }
    }

    /// The household's recipe photos are summed by SQL on each engine: a second meal's photo past
    /// the quota is refused with nothing changed; replacing a meal's own photo does not count the old one.
    @Test func aHouseholdsRecipePhotosHaveAQuota() async throws {
        let jpeg = try Self.fixture("photo.jpg")
        let stored = try ImageFile.strippingMetadata(jpeg).count
        try await withForkcast(adjust: { $0.photoQuotaBytes = Int64(stored) * 3 / 2 }) { app in
            let client = try await app.signUp()
            let soup = try await client.send(.POST, "/api/v1/meals", json: ["description": "Soup"]).json(SeamTests.Created.self).id
            let stew = try await client.send(.POST, "/api/v1/meals", json: ["description": "Stew"]).json(SeamTests.Created.self).id
            #expect(try await client.upload("/api/v1/meals/\(soup)/photo", data: jpeg, contentType: "image/jpeg", method: .PUT).status == .ok)
            #expect(try await client.upload("/api/v1/meals/\(soup)/photo", data: jpeg, contentType: "image/jpeg", method: .PUT).status == .ok,
                    "its own photo is replaced, not counted twice")
            let over = try await client.upload("/api/v1/meals/\(stew)/photo", data: jpeg, contentType: "image/jpeg", method: .PUT)
            #expect(over.status == .payloadTooLarge && over.problem?.detail.contains("FORKCAST_PHOTO_QUOTA_MB") == true)
            let photos = try await MealPhotoModel.query(on: app.db).count(), stewPhoto = try await MealModel.find(stew, on: app.db)?.photoID
            #expect(photos == 1 && stewPhoto == nil)
        }
    }
}
