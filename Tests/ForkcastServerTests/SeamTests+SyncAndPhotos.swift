import FluentKit
@testable import ForkcastServer
import ForkcastCore
import Foundation
import SQLKit
import Testing
import VaporTesting

extension SeamTests {
    // MARK: Sync

    @Test func twoIdenticalPushesAtOnceGetTheSameAnswer() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let entry = UUID().uuidString, now = sync.iso(Date())
            let sync = sync
            let results = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let mutation: [String: Any] = ["mutationId": "tab", "kind": "diaryEntry", "id": entry, "op": "upsert", "updatedAt": now,
                                                       "record": ["quickAdd": ["energyKcal": 90], "name": "Toast", "mealType": "breakfast"]]
                        return try await sync.push(client, [mutation]).results[0].status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results == ["applied", "applied", "applied", "applied"])
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 1)
        }
    }

    @Test func aPageQueuedForOneAccountSendsNothingAsAnother() async throws {
        try await withForkcast(allowSignup: true) { app in
            let ana = try await app.signUp("ana@example.com")
            let ben = try await app.signUp("ben@example.com")
            let anaID = try await ana.get("/api/v1/me").json(TestUser.self).id
            let body = try JSONSerialization.data(withJSONObject: ["deviceId": "browser", "mutations": [
                ["mutationId": "m1", "kind": "diaryEntry", "id": UUID().uuidString, "op": "upsert", "updatedAt": sync.iso(Date()),
                 "record": ["quickAdd": ["energyKcal": 120], "name": "Ana's snack", "mealType": "snack"]]]])
            // Ana's outbox, flushed while Ben is signed in: refused, nothing saved.
            let refused = try await ben.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self),
                                             headers: [RequireUserMiddleware.accountHeader: anaID.uuidString.lowercased()])
            #expect(refused.status == .conflict)
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 0)
            // A header that names no account is a bad request, not "another account".
            for garbage in ["not-a-uuid", "", "\(anaID.uuidString)x"] {
                let bad = try await ana.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self),
                                             headers: [RequireUserMiddleware.accountHeader: garbage])
                #expect(bad.status == .badRequest, "\(garbage): \(bad.body.string)")
                #expect(bad.body.string.contains("must be an account id"))
            }
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 0)
            // As Ana it goes through.
            let sent = try await ana.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self),
                                          headers: [RequireUserMiddleware.accountHeader: anaID.uuidString.lowercased()])
            #expect(sent.status == .ok)
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 1)
        }
    }

    @Test func anOfflinePlateIsOneChange() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let now = sync.iso(Date())
            func item(_ id: String, _ kcal: Any) -> [String: Any] {
                ["mutationId": id, "kind": "diaryEntry", "id": UUID().uuidString, "op": "upsert", "updatedAt": now, "group": "plate-1",
                 "record": ["quickAdd": ["energyKcal": kcal], "name": "Item \(id)", "mealType": "lunch"]]
            }
            // One item the rules refuse: nothing of the plate is saved, and every item says why.
            let refused = try await sync.push(client, [item("a", 100), item("b", -5), item("c", 120)])
            #expect(refused.results.map(\.status) == ["rejected", "rejected", "rejected"])
            #expect(refused.results[1].problem?.status == 422)
            #expect(refused.results[0].problem?.detail.contains("Nothing of this group was saved") == true)
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 0)
            // A good plate is saved whole, and sending it again changes nothing.
            var plate = [item("d", 100), item("e", 200)]
            plate = plate.map { var m = $0; m["group"] = "plate-2"; return m }
            #expect(try await sync.push(client, plate).results.map(\.status) == ["applied", "applied"])
            #expect(try await sync.push(client, plate).results.map(\.status) == ["applied", "applied"])
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 2)
            // More than a plate's 50 items is refused whole.
            let big = (0..<51).map { index -> [String: Any] in var m = item("big\(index)", 10); m["group"] = "plate-3"; return m }
            let body = try JSONSerialization.data(withJSONObject: ["deviceId": "phone", "mutations": big])
            let tooBig = try await client.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self))
            #expect(tooBig.status == .unprocessableEntity)
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 2)
        }
    }

    // MARK: Photos

    static func photoFile(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/photos/\(name)"))
    }

    struct Created: Decodable { var id: UUID }

    @Test func onePhotoIsShownByOneEntryEvenWhenFourAskAtOnce() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let uploaded = try await client.upload("/api/v1/photos", data: try Self.photoFile("photo.jpg"), contentType: "image/jpeg")
            let photo = try uploaded.json(Created.self).id
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await client.send(.POST, "/api/v1/diary/entries", json: ["photoId": photo.uuidString, "mealType": "lunch"]).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .conflict }.count == 3, "\(statuses)")
            #expect(try await DiaryEntryModel.query(on: app.db).filter(\.$photoID == photo).count() == 1)
        }
    }

    @Test func aRefusedPhotoEntryLeavesNoPhoto() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let (form, type) = Client.multipart([("photo", "IMG.jpg", try Self.photoFile("photo.jpg")), ("mealType", nil, Data("no such meal".utf8))])
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .cookie, value: browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
            headers.replaceOrAdd(name: .contentType, value: type)
            headers.replaceOrAdd(name: .accept, value: "application/json")
            headers.replaceOrAdd(name: "Sec-Fetch-Site", value: "same-origin")
            let refused = try await app.testing().sendRequest(.POST, "/diary/photo", headers: headers, body: ByteBuffer(data: form))
            #expect(refused.status == .unprocessableEntity, "\(refused.body.string)")
            #expect(try await PhotoModel.query(on: app.db).count() == 0, "the photo was stored before the entry was checked")
        }
    }

    @Test func photosNoEntryShowsAreSweptAfterADay() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            let jpeg = try Self.photoFile("photo.jpg")
            let kept = try await client.upload("/api/v1/photos", data: jpeg, contentType: "image/jpeg").json(Created.self).id
            let forgotten = try await client.upload("/api/v1/photos", data: jpeg, contentType: "image/jpeg").json(Created.self).id
            #expect(try await client.send(.POST, "/api/v1/diary/entries", json: ["photoId": kept.uuidString]).status == .created)
            // Within the grace period nothing goes (a client uploads, then logs).
            clock.advance(by: 3600)
            #expect(try await Housekeeping.run(on: app.db, now: clock.now, photoStore: app.photoStore).photos == 0)
            clock.advance(by: Housekeeping.unattachedPhotoGrace)
            #expect(try await Housekeeping.run(on: app.db, now: clock.now, photoStore: app.photoStore).photos == 1)
            #expect(try await client.get("/api/v1/photos/\(forgotten)/image").status == .notFound)
            #expect(try await client.get("/api/v1/photos/\(kept)/image").status == .ok)
        }
    }

    @Test func eachPersonsPhotosHaveAQuota() async throws {
        let jpeg = try Self.photoFile("photo.jpg")
        // What one photo takes once stored: stripped, with its embedded thumbnail.
        let stored = try ImageFile.strippingMetadata(jpeg).count + (ImageFile.embeddedThumbnail(jpeg)?.count ?? 0)
        try await withForkcast(adjust: { $0.photoQuotaBytes = Int64(stored) * 3 / 2 }) { app in
            let client = try await app.signUp()
            #expect(try await client.upload("/api/v1/photos", data: jpeg, contentType: "image/jpeg").status == .created)
            let over = try await client.upload("/api/v1/photos", data: jpeg, contentType: "image/jpeg")
            #expect(over.status == .payloadTooLarge)
            #expect(over.problem?.detail.contains("FORKCAST_PHOTO_QUOTA_MB") == true)
            #expect(try await PhotoModel.query(on: app.db).count() == 1)
        }
    }

    @Test func entriesSharingAPhotoBeforeTheIndexKeepItOnTheEarliest() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let photo = try await client.upload("/api/v1/photos", data: try Self.photoFile("photo.jpg"), contentType: "image/jpeg").json(Created.self).id
            let first = try await client.send(.POST, "/api/v1/diary/entries", json: ["photoId": photo.uuidString]).json(Created.self).id
            let second = try await client.send(.POST, "/api/v1/diary/entries", json: ["quickAdd": ["energyKcal": 200]]).json(Created.self).id
            // The state an older server could leave: two entries showing one photo.
            try await M014_PhotoOnOneEntry().revert(on: app.db)
            let sql = app.db as! any SQLDatabase
            try await sql.raw("UPDATE diary_entries SET photo_id = \(bind: photo), created_at = \(bind: Date().addingTimeInterval(60)) WHERE id = \(bind: second)").run()
            try await M014_PhotoOnOneEntry().prepare(on: app.db)
            let entries = try await DiaryEntryModel.query(on: app.db).all()
            #expect(entries.first { $0.id == first }?.photoID == photo)
            #expect(entries.first { $0.id == second }?.photoID == nil)
            #expect(entries.first { $0.id == second }?.energyKcal == 200, "the later entry keeps everything else")
        }
    }

    // MARK: Storage hygiene

    @Test func everyMigrationRevertsToAnEmptyDatabase() async throws {
        try await withForkcast { app in
            try await app.autoRevert()
            let sql = app.db as! any SQLDatabase
            let tables: [String]
            if sql.dialect.name == "sqlite" {
                tables = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all()
                    .map { try $0.decode(column: "name", as: String.self) }
            } else {
                tables = try await sql.raw("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()").all()
                    .map { try $0.decode(column: "table_name", as: String.self) }
            }
            #expect(tables.filter { $0 != "_fluent_migrations" }.isEmpty, "\(tables)")
        }
    }
}
