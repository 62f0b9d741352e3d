import FluentKit
@testable import ForkcastServer
import ForkcastCore
import Foundation
import SQLKit
import Testing
import VaporTesting

extension OccasionTests {
    @Test func photosAreCheckedByContentStrippedPrivateCachedAndGoWithTheirEntry() async throws {
        try await withForkcast(allowSignup: true, clock: TestClock(Self.noon), adjust: { $0.photoMaxBytes = 200_000 }) { app in
            let client = try await app.signUp()
            let jpeg = try fixturePhoto("photo.jpg")
            #expect(String(decoding: jpeg, as: UTF8.self).contains("ForkcastTestCam"), "the fixture carries camera and GPS metadata")
            let uploaded = try await client.upload("/api/v1/photos?capturedAt=2026-11-21T11:58:00Z", data: jpeg, contentType: "application/octet-stream")
            #expect(uploaded.status == .created)
            let p = try object(uploaded)
            let photoID = try #require(p["id"] as? String)
            #expect(p["format"] as? String == "jpeg" && p["contentType"] as? String == "image/jpeg")
            #expect(p["width"] as? Int == 64 && p["height"] as? Int == 48)
            #expect(p["capturedAt"] as? String == "2026-11-21T11:58:00Z")
            #expect(uploaded.headers.first(name: .location) == "/api/v1/photos/\(photoID)")

            // What is served carries none of the metadata.
            let image = try await client.get("/api/v1/photos/\(photoID)/image")
            #expect(image.status == .ok && image.headers.contentType?.description == "image/jpeg")
            let served = Data(buffer: image.body)
            for marker in ["ForkcastTestCam", "ForkcastTest", "http://ns.adobe.com/xap", "Photoshop 3.0"] {
                #expect(!String(decoding: served, as: UTF8.self).contains(marker), "\(marker) is stripped")
            }
            #expect(try ImageFile.inspect(served).width == 64)
            #expect(image.headers.first(name: .cacheControl)?.contains("private") == true && image.headers.first(name: .cacheControl)?.contains("immutable") == true)
            let etag = try #require(image.headers.first(name: .eTag))
            var conditional = client.authHeaders
            conditional.replaceOrAdd(name: .ifNoneMatch, value: etag)
            #expect(try await app.testing().sendRequest(.GET, "/api/v1/photos/\(photoID)/image", headers: conditional).status == .notModified)
            // The thumbnail is the embedded one (16×12), stripped too.
            let thumbnail = Data(buffer: try await client.get("/api/v1/photos/\(photoID)/thumbnail").body)
            #expect(try ImageFile.inspect(thumbnail).width == 16 && !String(decoding: thumbnail, as: UTF8.self).contains("ForkcastTest"))

            // By content, not name or header: a PNG sent as a "jpg" is a PNG; text is refused.
            let png = try object(try await client.upload("/api/v1/photos", data: try fixturePhoto("png-named-as.jpg"), contentType: "image/jpeg"))
            #expect(png["format"] as? String == "png")
            #expect(try await client.upload("/api/v1/photos", data: Data("<script>alert(1)</script>".utf8), contentType: "image/jpeg").status == .unsupportedMediaType)
            #expect(try await client.upload("/api/v1/photos", data: jpeg.prefix(300), contentType: "image/jpeg").status == .unprocessableEntity, "a truncated file")
            #expect(try await client.upload("/api/v1/photos", data: Data(), contentType: "image/jpeg").status == .unprocessableEntity)
            #expect(try await client.upload("/api/v1/photos", data: Data(count: 300_000), contentType: "image/jpeg").status == .payloadTooLarge)
            // Past what the route reads at all, the problem says the photo's limit (it said the
            // 64 KB of a JSON body).
            let readAtMost = app.forkcastConfig.photoMaxBytes + PhotoRepository.maximumThumbnailBytes + 64 * 1024
            let huge = try await client.send(.POST, "/api/v1/photos", raw: String(repeating: "x", count: readAtMost + 1024), contentType: "image/jpeg",
                                             overTheNetwork: true)
            #expect(huge.status == .payloadTooLarge)
            #expect(huge.problem?.detail.contains("at most \(readAtMost >> 10) KB") == true, "\(huge.problem?.detail ?? huge.body.string)")
            for name in ["photo.webp", "photo.heic", "photo.png"] {
                let answer = try await client.upload("/api/v1/photos", data: try fixturePhoto(name), contentType: "application/octet-stream")
                #expect(answer.status == .created, "\(name): \(answer.body.string)")
            }

            // A client's thumbnail, in a form as browsers send it, is checked the same way.
            let (form, type) = Client.multipart([("photo", "meal.jpg", jpeg), ("thumbnail", "t.jpg", try fixturePhoto("thumbnail-source.jpg")),
                                                 ("capturedAt", nil, Data("2026-11-21T11:59:00Z".utf8))])
            #expect(try await client.upload("/api/v1/photos", data: form, contentType: type).status == .created)
            let (badForm, badType) = Client.multipart([("photo", "meal.jpg", jpeg), ("thumbnail", "t.jpg", Data("not an image".utf8))])
            #expect(try await client.upload("/api/v1/photos", data: badForm, contentType: badType).status == .unsupportedMediaType)

            // A photo entry is not counted yet; the day says how many.
            let entry = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["photoId": photoID, "mealType": "lunch"])
            #expect(entry.status == .created)
            let e = try object(entry)
            let entryID = e["id"] as! String
            #expect(e["kind"] as? String == "photo" && e["counted"] as? Bool == false && e["name"] as? String == "Photo")
            #expect((e["photo"] as? [String: Any])?["thumbnailUrl"] as? String == "/api/v1/photos/\(photoID)/thumbnail")
            #expect(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["photoId": photoID, "mealType": "lunch"]).status == .conflict, "one entry per photo")
            var day = try object(try await client.get("/api/v1/diary?date=2026-11-21"))
            #expect(day["uncountedEntries"] as? Int == 1 && (day["totals"] as? [String: Any])?["energyKcal"] as? Double == 0)
            let occasions = try array(try await client.get("/api/v1/occasions"))
            #expect((occasions[0]["photos"] as? [[String: Any]])?.first?["id"] as? String == photoID)
            #expect(occasions[0]["uncountedEntries"] as? Int == 1)

            // Completed later from a quick add: counted, the photo stays.
            let completed = try object(try await client.sendJSON(.PUT, "/api/v1/diary/entries/\(entryID)", ["quickAdd": ["energyKcal": 640], "name": "Ramen"]))
            #expect(completed["kind"] as? String == "quickAdd" && completed["counted"] as? Bool == true)
            #expect((completed["photo"] as? [String: Any])?["id"] as? String == photoID)
            day = try object(try await client.get("/api/v1/diary?date=2026-11-21"))
            #expect(day["uncountedEntries"] as? Int == 0 && (day["totals"] as? [String: Any])?["energyKcal"] as? Double == 640)

            // Private: another person's request is a 404, as for a photo that does not exist.
            let other = try await app.signUp("other@example.com")
            for path in ["/api/v1/photos/\(photoID)", "/api/v1/photos/\(photoID)/image", "/api/v1/photos/\(photoID)/thumbnail"] {
                #expect(try await other.get(path).status == .notFound)
            }
            #expect(try await other.sendJSON(.POST, "/api/v1/diary/entries", ["photoId": photoID]).status == .notFound)

            // Sync carries the photo's metadata and the entry's reference.
            let feed = try object(try await client.get("/api/v1/sync/changes"))
            let changes = try #require(feed["changes"] as? [[String: Any]])
            #expect(changes.contains { $0["kind"] as? String == "photo" && $0["id"] as? String == photoID })

            // Deleted with its entry: the row, and the bytes wherever they are kept.
            #expect(try await client.send(.DELETE, "/api/v1/diary/entries/\(entryID)").status == .noContent)
            #expect(try await client.get("/api/v1/photos/\(photoID)/image").status == .notFound)
            let id = try #require(UUID(uuidString: photoID))
            #expect(try await PhotoModel.find(id, on: app.db) == nil)
            #expect(try await app.photoStore.load(id, variant: .full, on: app.db) == nil)
            #expect(try await app.photoStore.load(id, variant: .thumbnail, on: app.db) == nil)
            #expect(try await PhotoBlobModel.query(on: app.db).filter(\.$photoID == id).count() == 0)
        }
    }

    @Test func thePagesCaptureShowHistoryConfirmMovesAndManageTypes() async throws {
        try await withForkcast(clock: TestClock(Self.noon)) { app in
            let client = try await app.signUp()
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            // Today's capture: the camera, the suggested type preselected.
            let today = try await browser.send(.GET, "/diary").body.string
            #expect(today.contains("capture=\"environment\"") && today.contains("accept=\"image/*\""))
            #expect(today.contains("<option value=\"lunch\" selected>Lunch</option>"), "noon suggests Lunch")
            _ = try await browser.csrf(from: "/diary")
            let (form, type) = Client.multipart([("photo", "IMG_0001.HEIC", try fixturePhoto("photo.heic")), ("mealType", nil, Data("lunch".utf8)),
                                                 ("date", nil, Data("2026-11-21".utf8))])
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .cookie, value: browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
            headers.replaceOrAdd(name: .contentType, value: type)
            // The file's form streams in after the CSRF check: the browser's own word that the form is
            // this site's (Sec-Fetch-Site, or an Origin naming this server) stands in for its token,
            // which no longer travels in the upload's address.
            var sameSite = headers
            sameSite.replaceOrAdd(name: "Sec-Fetch-Site", value: "same-origin")
            let saved = try await app.testing().sendRequest(.POST, "/diary/photo", headers: sameSite, body: ByteBuffer(data: form))
            #expect(saved.status == .seeOther, "\(saved.body.string)")
            var forgedHeaders = [headers]
            for (name, value) in [("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Site", "same-site"), ("Origin", "https://evil.example")] {
                var forged = headers
                forged.replaceOrAdd(name: name, value: value)
                forgedHeaders.append(forged)
            }
            for forged in forgedHeaders {
                let answer = try await app.testing().sendRequest(.POST, "/diary/photo", headers: forged, body: ByteBuffer(data: form))
                #expect(answer.status == .forbidden, "a form post from elsewhere is refused: \(forged)")
            }
            var fromHere = headers
            fromHere.replaceOrAdd(name: .origin, value: "http://forkcast.example:8080")
            fromHere.replaceOrAdd(name: .host, value: "forkcast.example:8080")
            // Past the check, the form is the route's to refuse (a meal type that is not one), nothing stored.
            let (unknownType, _) = Client.multipart([("photo", "IMG_0001.HEIC", try fixturePhoto("photo.heic")), ("mealType", nil, Data("no such meal".utf8))])
            #expect(try await app.testing().sendRequest(.POST, "/diary/photo", headers: fromHere, body: ByteBuffer(data: unknownType)).status == .unprocessableEntity,
                    "a browser without Sec-Fetch-Site, its Origin this server's")
            let after = try await browser.send(.GET, "/diary").body.string
            #expect(after.contains("not counted") && after.contains("1 photo not counted yet"))
            let day = try object(try await client.get("/api/v1/diary"))
            let entry = try #require((day["entries"] as? [[String: Any]])?.flatMap { ($0["entries"] as? [[String: Any]]) ?? [] }.first)
            #expect(entry["kind"] as? String == "photo" && entry["mealType"] as? String == "lunch")

            // History shows the occasion with its thumbnail and opens it.
            let history = try await browser.send(.GET, "/history").body.string
            #expect(history.contains("Lunch") && history.contains("/api/v1/photos/") && history.contains("1 not counted yet"))
            let occasion = try await browser.send(.GET, "/history/\(entry["occasionId"] as! String)")
            #expect(occasion.status == .ok && occasion.body.string.contains("/diary/entries/\(entry["id"] as! String)/edit"))
            #expect(try await browser.send(.GET, "/history?date=2026-11-20").body.string.contains("Nothing logged on or before"))

            // Rename a type in Settings: the capture chooser and history show the new name.
            let types = try array(try await client.get("/api/v1/meal-types"))
            let lunchID = types[1]["id"] as! String
            let settingsToken = try await browser.csrf(from: "/settings/meal-types")
            let renamed = try await browser.send(.POST, "/settings/meal-types/\(lunchID)", form: ["_csrf": settingsToken, "displayName": "Midday",
                                                                                                  "windowStart": "11:00", "windowEnd": "14:59"])
            #expect(renamed.status == .seeOther)
            #expect(try await browser.send(.GET, "/diary").body.string.contains("<option value=\"lunch\" selected>Midday</option>"))
            #expect(try await browser.send(.GET, "/history").body.string.contains("Midday"))
            let clash = try await browser.send(.POST, "/settings/meal-types", form: ["_csrf": settingsToken, "displayName": "midday"])
            #expect(clash.status == .unprocessableEntity && clash.body.string.contains("already"))
            let added = try await browser.send(.POST, "/settings/meal-types", form: ["_csrf": settingsToken, "displayName": "Second breakfast",
                                                                                     "windowStart": "09:30", "windowEnd": "10:30"])
            #expect(added.status == .seeOther)
            #expect(try await browser.send(.GET, "/settings/meal-types").body.string.contains("Second breakfast"))

            // A catalogue food named on its page is made the person's only by a save that succeeds:
            // not by the live totals, not by an edit refused.
            let entryPath = "/diary/entries/\(entry["id"] as! String)"
            #expect(try await client.get("/api/v1/foods/catalog?q=carrot").status == .ok)
            var carrots = ["_csrf": try await browser.csrf(from: entryPath + "/edit"), "mealType": "lunch", "ingredientFood": "Carrots, raw",
                           "ingredientFoodId": "", "ingredientQuantity": "80", "ingredientUnit": "g", "note": ""]
            browser.headers.replaceOrAdd(name: "X-Fragment", value: "entry-totals")
            #expect(try await browser.send(.POST, entryPath, form: carrots).status == .ok)
            browser.headers.remove(name: "X-Fragment")
            carrots["mealType"] = "no such meal"
            #expect(try await browser.send(.POST, entryPath, form: carrots).status == .unprocessableEntity)
            let foods = try object(try await client.get("/api/v1/foods"))["items"] as? [[String: Any]]
            #expect(foods?.isEmpty == true, "no food adopted: \(foods ?? [])")

            // Counted from a food on its page (an empty amount is the food's usual portion).
            _ = try await client.createFood(FoodsAPITests.oats)
            let countToken = try await browser.csrf(from: "/diary/entries/\(entry["id"] as! String)/edit")
            let countPage = try await browser.send(.GET, "/diary/entries/\(entry["id"] as! String)/edit").body.string
            #expect(countPage.contains("id=\"count-as\"") && countPage.contains("Not counted yet"))
            let counted = try await browser.send(.POST, "/diary/entries/\(entry["id"] as! String)", form: ["_csrf": countToken, "mealType": "lunch",
                "ingredientFood": "Rolled oats", "ingredientFoodId": "", "ingredientQuantity": "50", "ingredientUnit": "g", "note": ""])
            #expect(counted.status == .seeOther, "\(counted.body.string.prefix(300))")
            let countedEntry = try object(try await client.get("/api/v1/diary/entries/\(entry["id"] as! String)"))
            #expect(countedEntry["kind"] as? String == "food" && countedEntry["counted"] as? Bool == true && countedEntry["photo"] is [String: Any])
            #expect((countedEntry["nutrients"] as? [String: Any])?["energyKcal"] as? Double == 186)

            // A time edit to another day asks first on the page.
            let editToken = try await browser.csrf(from: "/diary/entries/\(entry["id"] as! String)/edit")
            let asked = try await browser.send(.POST, "/diary/entries/\(entry["id"] as! String)", form: ["_csrf": editToken, "mealType": "lunch",
                                                                                                       "date": "2026-11-20", "time": "12:00", "note": ""])
            #expect(asked.status == .conflict && asked.body.string.contains("Move this entry to another day?"))
        }
    }
}
