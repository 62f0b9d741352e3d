import AsyncHTTPClient
@testable import ForkcastServer
import ForkcastCore
import SQLKit
import Foundation
import NIOConcurrencyHelpers
import Testing
import VaporTesting

extension SyncAPITests {
    @Test func oneMutationIdTwiceInABatchIsRefused() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let body = try JSONSerialization.data(withJSONObject: ["deviceId": "phone", "mutations": [
                ["mutationId": "m1", "kind": "meal", "id": UUID().uuidString, "op": "upsert", "updatedAt": iso(Date()), "record": ["description": "Soup"]],
                ["mutationId": "m1", "kind": "meal", "id": UUID().uuidString, "op": "upsert", "updatedAt": iso(Date()), "record": ["description": "Stew"]],
            ]])
            let response = try await client.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self))
            #expect(response.status == .unprocessableEntity)
            #expect(response.problem?.message(for: "mutations[1].mutationId")?.contains("twice") == true)
            #expect(try await client.get("/api/v1/meals").body.string.contains("Soup") == false, "nothing of the batch is applied")
        }
    }

    /// A push applies several mutations to a transaction, each in a savepoint: a refused group undoes
    /// its own changes only, and what its changes would have done once committed (removing a deleted
    /// entry's photo file) is dropped with them.
    @Test func aRefusedGroupInAPushUndoesOnlyItsOwnChangesAndKeepsThePhotoItsDeleteWouldRemove() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/photos/photo.jpg"))
            let uploaded = try await client.upload("/api/v1/photos", data: jpeg, contentType: "image/jpeg")
            #expect(uploaded.status == .created)
            let photoID = try #require((try JSONSerialization.jsonObject(with: Data(buffer: uploaded.body)) as? [String: Any])?["id"] as? String)
            let logged = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["photoId": photoID, "mealType": "lunch"])
            #expect(logged.status == .created)
            let entryID = try #require((try JSONSerialization.jsonObject(with: Data(buffer: logged.body)) as? [String: Any])?["id"] as? String)
            let head = try await feed(client).cursor

            let now = iso(Date().addingTimeInterval(1))
            let soup = UUID(), stew = UUID()
            let result = try await push(client, [
                ["mutationId": "a", "kind": "meal", "id": soup.uuidString, "op": "upsert", "updatedAt": now, "record": ["description": "Soup"]],
                ["mutationId": "b", "kind": "diaryEntry", "id": entryID, "op": "delete", "updatedAt": now, "group": "plate"],
                ["mutationId": "c", "kind": "meal", "id": UUID().uuidString, "op": "upsert", "updatedAt": now, "record": ["description": " "], "group": "plate"],
                ["mutationId": "d", "kind": "meal", "id": stew.uuidString, "op": "upsert", "updatedAt": now, "record": ["description": "Stew"]],
            ])
            #expect(result.results.map(\.status) == ["applied", "rejected", "rejected", "applied"])
            #expect(result.results[2].problem?.errors?.first?.field == "description")
            #expect(result.results[1].problem?.detail.contains("Nothing of this group was saved") == true)

            // The group's delete was undone, and so was the removal of the photo's file it asked for.
            #expect(try await client.get("/api/v1/diary/entries/\(entryID)").status == .ok)
            let image = try await client.get("/api/v1/photos/\(photoID)/image")
            #expect(image.status == .ok && image.body.readableBytes > 0)
            // The mutations around it were applied, and only they are in the feed.
            #expect(try await client.get("/api/v1/meals/\(soup)").status == .ok)
            #expect(try await client.get("/api/v1/meals/\(stew)").status == .ok)
            let changes = try await feed(client, since: head).changes
            #expect(changes.map(\.id) == [soup, stew] && changes.map(\.op) == ["upsert", "upsert"])
            // Sent again, every answer is the one it got; nothing changes.
            #expect(try await push(client, [
                ["mutationId": "a", "kind": "meal", "id": soup.uuidString, "op": "upsert", "updatedAt": now, "record": ["description": "Soup"]],
                ["mutationId": "b", "kind": "diaryEntry", "id": entryID, "op": "delete", "updatedAt": now, "group": "plate"],
                ["mutationId": "c", "kind": "meal", "id": UUID().uuidString, "op": "upsert", "updatedAt": now, "record": ["description": " "], "group": "plate"],
                ["mutationId": "d", "kind": "meal", "id": stew.uuidString, "op": "upsert", "updatedAt": now, "record": ["description": "Stew"]],
            ]).results == result.results)
            #expect(try await feed(client, since: head).changes.count == 2)
            #expect(try await client.get("/api/v1/photos/\(photoID)/image").status == .ok)
        }
    }

    /// The push's writes share the signed-in person in memory: a refused group's change of their
    /// settings is undone there too, not only in the database.
    @Test func aRefusedGroupsSettingsChangeDoesNotLeakIntoTheRestOfThePush() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let me = try await client.get("/api/v1/me").json(TestUser.self)
            let now = iso(Date().addingTimeInterval(1))
            let body = try JSONSerialization.data(withJSONObject: ["deviceId": "phone", "mutations": [
                ["mutationId": "s1", "kind": "settings", "id": me.id.uuidString, "op": "upsert", "updatedAt": now,
                 "record": ["timeZone": "Pacific/Kiritimati", "currency": "JPY"], "group": "g"],
                ["mutationId": "s2", "kind": "meal", "id": UUID().uuidString, "op": "upsert", "updatedAt": now, "record": ["description": ""], "group": "g"],
                ["mutationId": "s3", "kind": "settings", "id": me.id.uuidString, "op": "upsert", "updatedAt": now, "record": ["displayName": "Ann"]],
            ]])
            let response = try await client.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self))
            #expect(response.status == .ok)
            let results = try #require((try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])?["results"] as? [[String: Any]])
            #expect(results.map { $0["status"] as? String } == ["rejected", "rejected", "applied"])
            // The applied change's answer shows the settings as stored, not the refused group's.
            let record = try #require(results[2]["record"] as? [String: Any])
            #expect(record["displayName"] as? String == "Ann" && record["timeZone"] as? String == me.timeZone && record["currency"] as? String != "JPY")
            let after = try await client.get("/api/v1/me").json(TestUser.self)
            #expect(after.timeZone == me.timeZone && after.displayName == "Ann")
            #expect(!(try await client.get("/api/v1/me").body.string.contains("JPY")))
        }
    }

    @Test func aPushFromBeforeTheForgottenDeletionsIsGone() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock, adjust: { $0.tokenLifetime = 365 * 86_400 }) { app in
            let client = try await app.signUp()
            let soup = try await client.createMeal("Soup")
            let editedOffline = clock.now.addingTimeInterval(60)
            clock.advance(by: 120)
            #expect(try await client.send(.DELETE, "/api/v1/meals/\(soup.id)").status == .noContent)
            clock.advance(by: 91 * 86_400)
            #expect(try await Housekeeping.pruneTombstones(on: app.db, now: clock.now) == 1)
            // A device back after 91 days pushes the edit it made before the deletion.
            let stale = try await push(client, [["mutationId": "old", "kind": "meal", "id": soup.id.uuidString, "op": "upsert",
                                                 "updatedAt": iso(editedOffline), "record": ["description": "Soup with bread"]]])
            #expect(stale.results[0].status == "rejected")
            #expect(stale.results[0].problem?.status == 410)
            #expect(try await client.get("/api/v1/meals/\(soup.id)").status == .notFound, "the deleted soup stays deleted")
            // A change made now to a new record is applied as always.
            let fresh = try await push(client, [["mutationId": "new", "kind": "meal", "id": UUID().uuidString, "op": "upsert",
                                                 "updatedAt": iso(clock.now), "record": ["description": "Bread"]]])
            #expect(fresh.results[0].status == "applied")
        }
    }

    @Test func listenersShareOneReadPerChangeAndAreCapped() async throws {
        let events = SyncEvents()
        let owner = UUID()
        let reads = Counter()
        var streams: [AsyncStream<Void>] = []
        for _ in 0..<(SyncEvents.maximumListenersPerOwner + 5) { streams.append(await events.subscribe(owner: owner).events) }
        #expect(await events.listenerCount(owner: owner) == SyncEvents.maximumListenersPerOwner)
        // The five oldest were closed: their streams end.
        for stream in streams.prefix(5) { for await _ in stream {} }
        for round in 1...3 {
            await events.publish(owner: owner)
            let heads = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await events.newest(owner: owner) { await reads.increment(); try await Task.sleep(for: .milliseconds(5)); return round } }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(heads.allSatisfy { $0 == round })
            #expect(await reads.value == round, "one read per change, not one per listener")
        }
    }

    @Test func invalidAndForeignMutationsAreRejectedAndStoreNothing() async throws {
        try await withForkcast(allowSignup: true) { app in
            let alice = try await app.signUp("alice@example.com")
            let bob = try await app.signUp("bob@example.com")
            let alicesMeal = try await alice.createMeal("Alice's stew")
            let now = iso(Date())
            let result = try await push(bob, [
                ["mutationId": "1", "kind": "meal", "id": UUID().uuidString, "op": "upsert", "updatedAt": now, "record": ["description": "  "]],
                ["mutationId": "2", "kind": "meal", "id": alicesMeal.id.uuidString, "op": "upsert", "updatedAt": now, "record": ["description": "Mine now"]],
                ["mutationId": "3", "kind": "assignment", "id": UUID().uuidString, "op": "upsert", "updatedAt": now,
                 "record": ["mealId": alicesMeal.id.uuidString, "date": "2026-11-23"]],
                ["mutationId": "4", "kind": "meal", "id": UUID().uuidString, "op": "upsert", "updatedAt": now],
            ])
            #expect(result.results.map(\.status) == Array(repeating: "rejected", count: 4))
            #expect(result.results[0].problem?.errors?.first?.field == "description")
            #expect(result.results[1].problem?.status == 404, "another user's id is indistinguishable from a missing one")
            #expect(result.results[2].problem?.status == 404 && result.results[2].problem?.errors?.first?.field == "mealId")
            // A malformed batch (an unknown kind or op, a record that is not an object) is refused whole.
            let body = try JSONSerialization.data(withJSONObject: ["deviceId": "phone", "mutations": [
                ["mutationId": "5", "kind": "recipe", "id": UUID().uuidString, "op": "upsert", "updatedAt": now, "record": [:]],
                ["mutationId": "6", "kind": "meal", "id": UUID().uuidString, "op": "upsert", "updatedAt": now, "record": [1, 2]]]])
            let malformed = try await bob.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self))
            #expect(malformed.status == .unprocessableEntity)
            #expect(malformed.problem?.message(for: "mutations[0].kind") != nil && malformed.problem?.message(for: "mutations[1].record") != nil)
            #expect(try await bob.meals().metadata.total == 0)
            #expect(try await alice.get("/api/v1/meals/\(alicesMeal.id)").json(TestMeal.self).description == "Alice's stew")
            #expect(try await feed(bob).changes.map(\.kind).filter { $0 != "mealType" } == ["settings"], "bob's feed has nothing of alice's")
        }
    }

    @Test func everyKindRoundTripsThroughThePush() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let me = try await client.get("/api/v1/me").json(TestUser.self)
            let now = iso(Date().addingTimeInterval(1))  // after the account's own settings (whole seconds)
            let food = UUID(), meal = UUID(), assignment = UUID(), entry = UUID(), weight = UUID()
            let result = try await push(client, [
                ["mutationId": "f", "kind": "food", "id": food.uuidString, "op": "upsert", "updatedAt": now,
                 "record": ["name": "Oats", "per100": ["energyKcal": 380]]],
                ["mutationId": "m", "kind": "meal", "id": meal.uuidString, "op": "upsert", "updatedAt": now,
                 "record": ["description": "Porridge", "ingredients": [["foodId": food.uuidString, "quantity": 80, "unit": "g"]]]],
                ["mutationId": "a", "kind": "assignment", "id": assignment.uuidString, "op": "upsert", "updatedAt": now,
                 "record": ["mealId": meal.uuidString, "date": "2026-11-24"]],
                ["mutationId": "d", "kind": "diaryEntry", "id": entry.uuidString, "op": "upsert", "updatedAt": now,
                 "record": ["foodId": food.uuidString, "quantity": 50, "unit": "g", "mealType": "breakfast"]],
                ["mutationId": "w", "kind": "weight", "id": weight.uuidString, "op": "upsert", "updatedAt": now,
                 "record": ["weightKg": 72.5, "measuredAt": now]],
                ["mutationId": "g", "kind": "goals", "id": me.id.uuidString, "op": "upsert", "updatedAt": now,
                 "record": ["energyKcal": 2100, "protein": 140, "carbohydrates": 240, "fat": 70]],
                ["mutationId": "s", "kind": "settings", "id": me.id.uuidString, "op": "upsert", "updatedAt": now,
                 "record": ["timeZone": "Europe/Paris"]],
            ])
            #expect(result.results.map(\.status) == Array(repeating: "applied", count: 7), "\(result.results.map { $0.problem?.detail ?? "" })")
            #expect(try await client.get("/api/v1/foods/\(food)").status == .ok)
            #expect(try await client.get("/api/v1/plan/assignments/\(assignment)").status == .ok)
            #expect(try await client.get("/api/v1/diary/entries/\(entry)").status == .ok)
            #expect(try await client.get("/api/v1/me").json(TestUser.self).timeZone == "Europe/Paris")
            let kinds = try await feed(client).changes.map(\.kind)
            #expect(Set(kinds) == ["settings", "mealType", "food", "meal", "assignment", "diaryEntry", "weight", "goals"])
            // A food a meal uses cannot be deleted by a push either.
            let refused = try await push(client, [["mutationId": "x", "kind": "food", "id": food.uuidString, "op": "delete",
                                                   "updatedAt": iso(Date().addingTimeInterval(2))]])
            #expect(refused.results[0].status == "rejected" && refused.results[0].problem?.status == 409)
        }
    }
    /// On SQLite a push's write, which may carry up to 64 mutations, ends as soon as another writer
    /// waits at the write gate: the person's meal saved meanwhile is written after the push's first
    /// mutation, not after all of them. (On PostgreSQL writes do not queue at one gate.)
    @Test func aPushsWriteEndsAsSoonAsAnotherWriterWaitsAtTheGate() async throws {
        guard TestDatabase.postgresURL == nil else { return }
        try await withForkcast { app in
            let client = try await app.signUp()
            let start = try await feed(client)
            let now = iso(Date())
            let mutations: [[String: Any]] = (0..<10).map { n in
                ["mutationId": "m\(n)", "kind": "meal", "id": UUID().uuidString, "op": "upsert", "updatedAt": now, "record": ["description": "Pushed \(n)"]]
            }
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["deviceId": "phone", "mutations": mutations]), as: UTF8.self)
            // A write holds the gate; the push, then another writer, queue behind it.
            let (holder, (push, other)) = try await app.whileAWriteHoldsTheGate { untilWaiting in
                let push = Task { try await client.send(.POST, "/api/v1/sync/push", raw: body).json(PushResult.self) }
                try await untilWaiting(1)
                let other = Task { try await client.createMeal("Written meanwhile") }
                try await untilWaiting(2)
                return (push, other)
            }
            try await holder.value
            #expect(try await push.value.results.map(\.status) == Array(repeating: "applied", count: 10))
            _ = try await other.value
            let order = try await feed(client, since: start.cursor).changes.compactMap(\.record?.description)
            #expect(order == ["Pushed 0", "Written meanwhile"] + (1..<10).map { "Pushed \($0)" }, "\(order)")
        }
    }

    /// What a page queued offline, as typed: amounts with a decimal comma and a named portion,
    /// read on the server by ForkcastCore's rules; what does not read is refused, naming the field.
    @Test func anEntryQueuedAsTypedIsReadByTheServersRules() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let now = iso(Date().addingTimeInterval(1))
            let bread = UUID(), milk = UUID(), typed = UUID(), portion = UUID(), quick = UUID()
            let entry = { (id: UUID, record: [String: Any]) -> [String: Any] in
                ["mutationId": id.uuidString, "kind": "diaryEntry", "id": id.uuidString, "op": "upsert", "updatedAt": now,
                 "record": record.merging(["mealType": "lunch"]) { a, _ in a }]
            }
            let result = try await push(client, [
                ["mutationId": "f", "kind": "food", "id": bread.uuidString, "op": "upsert", "updatedAt": now, "record": ["name": "Rye bread", "per100": ["energyKcal": 250]]],
                ["mutationId": "m", "kind": "food", "id": milk.uuidString, "op": "upsert", "updatedAt": now, "record": ["name": "Milk", "basis": "ml", "per100": ["energyKcal": 64]]],
                entry(typed, ["foodId": bread.uuidString, "quantity": "37,5", "unit": "g"]),
                entry(portion, ["foodId": bread.uuidString, "quantity": "1,5", "unit": "portion:128"]),
                entry(quick, ["quickAdd": ["energyKcal": "95,5"]]),
                entry(UUID(), ["foodId": bread.uuidString, "quantity": "a lot", "unit": "g"]),
                entry(UUID(), ["foodId": milk.uuidString, "quantity": "2", "unit": "portion:240"]),
            ])
            #expect(result.results.map(\.status) == ["applied", "applied", "applied", "applied", "applied", "rejected", "rejected"],
                    "\(result.results.map { $0.problem?.detail ?? "" })")
            let refused = result.results.suffix(2).map { "\($0.problem?.detail ?? "") \($0.problem?.errors?.map(\.field) ?? [])" }
            #expect(refused[0].contains("quantity") && refused[1].contains("unit"), "\(refused)")
            var amounts: [String] = []
            for id in [typed, portion] {
                let answer = try object(try await client.get("/api/v1/diary/entries/\(id)"))
                amounts.append("\(answer["quantity"] ?? "") \(answer["unit"] ?? "")")
            }
            #expect(amounts == ["37.5 g", "192 g"])
            let kcal = (try object(try await client.get("/api/v1/diary/entries/\(quick)"))["nutrients"] as? [String: Any])?["energyKcal"]
            #expect("\(kcal ?? "")" == "95.5")
        }
    }
}

