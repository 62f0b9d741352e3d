import FluentKit
@testable import ForkcastServer
import ForkcastCore
import Foundation
import SQLKit
import Testing
import VaporTesting

extension Client {
    /// Sends bytes as they are (an upload), checked against the OpenAPI document like every answer.
    func upload(_ path: String, data: Data, contentType: String, method: HTTPMethod = .POST) async throws -> TestingHTTPResponse {
        var headers = authHeaders
        headers.replaceOrAdd(name: .contentType, value: contentType)
        let response = try await app.testing().sendRequest(method, path, headers: headers, body: ByteBuffer(data: data))
        OpenAPIConformance.check(method: method, path: path, response: response)
        return response
    }

    /// A multipart form, as a browser sends a file.
    static func multipart(_ parts: [(name: String, filename: String?, data: Data)], boundary: String = "forkcast-test-boundary") -> (Data, String) {
        var body = Data()
        for part in parts {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"".utf8)
            if let filename = part.filename { body += Data("; filename=\"\(filename)\"\r\nContent-Type: application/octet-stream".utf8) }
            body += Data("\r\n\r\n".utf8) + part.data + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(boundary)")
    }
}

/// Seed 004 through the API and the pages: meal types, occasions, photos, time edits, history.
@Suite("Meal types, occasions and photos (seed 004)")
struct OccasionTests {
    static let noon = ISO8601DateFormatter().date(from: "2026-11-21T12:00:00Z")!

    @Test func everyPersonHasTheDefaultTypesAndCanRenameAddReorderAndHide() async throws {
        try await withForkcast(allowSignup: true, clock: TestClock(Self.noon)) { app in
            let client = try await app.signUp()
            let types = try array(try await client.get("/api/v1/meal-types"))
            #expect(types.map { $0["displayName"] as? String } == ["Breakfast", "Lunch", "Dinner", "Afternoon Snack", "Snack", "Workout Fuel", "Protein Shake"])
            #expect(types.allSatisfy { $0["isSystem"] as? Bool == true })
            #expect((types[0]["window"] as? [String: Any])?["end"] as? String == "10:59")
            #expect(types[4]["window"] is NSNull, "Snack has no window: always valid")
            let lunchID = try #require(types[1]["id"] as? String)

            // Rename keeps the id (and the key entries store); names are unique without case.
            let renamed = try await client.sendJSON(.PUT, "/api/v1/meal-types/\(lunchID)", ["displayName": "Midday meal"])
            #expect(renamed.status == .ok)
            let renamedType = try object(renamed)
            #expect(renamedType["id"] as? String == lunchID && renamedType["key"] as? String == "lunch")
            let duplicate = try await client.sendJSON(.POST, "/api/v1/meal-types", ["displayName": "midday MEAL"])
            #expect(duplicate.status == .unprocessableEntity)
            #expect(try duplicate.json(TestProblem.self).message(for: "displayName")?.contains("already") == true)
            #expect(try await client.sendJSON(.POST, "/api/v1/meal-types", ["displayName": "  "]).status == .unprocessableEntity)
            #expect(try await client.sendJSON(.POST, "/api/v1/meal-types", ["displayName": "Brunch", "window": ["start": "9:00", "end": "11:00"]]).status == .unprocessableEntity)

            // A custom type with a window across midnight, moved to the top.
            let late = try await client.sendJSON(.POST, "/api/v1/meal-types", ["displayName": "Late bite <b>\"ü\u{0301}</b>",
                                                                                "window": ["start": "22:00", "end": "01:59"], "position": 0])
            #expect(late.status == .created)
            let lateType = try object(late)
            let lateID = try #require(lateType["id"] as? String)
            #expect(lateType["isSystem"] as? Bool == false && lateType["key"] is NSNull && lateType["position"] as? Int == 0)
            let reordered = try array(try await client.get("/api/v1/meal-types"))
            #expect(reordered.map { $0["position"] as? Int } == Array(0..<8).map { $0 })
            #expect(reordered[0]["id"] as? String == lateID && reordered[1]["key"] as? String == "breakfast")

            // Suggestions: the person's windows, in their zone; hidden types are not suggested.
            func suggestion(_ at: String) async throws -> String? {
                let answer = try object(try await client.get("/api/v1/meal-types/suggestion?at=\(at)"))
                return (answer["key"] as? String) ?? (answer["displayName"] as? String)
            }
            #expect(try await suggestion("2026-11-21T23:30:00Z")?.hasPrefix("Late bite") == true)
            #expect(try await suggestion("2026-11-21T12:00:00Z") == "lunch")
            #expect(try await client.get("/api/v1/meal-types/suggestion?at=yesterday").status == .badRequest)
            #expect(try await client.sendJSON(.PUT, "/api/v1/meal-types/\(lateID)", ["hidden": true]).status == .ok)
            #expect(try await suggestion("2026-11-21T23:30:00Z") == "dinner")

            // Entries may use any type by key or id, hidden ones included; unknown ones are refused.
            let onHidden = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 120], "mealType": lateID])
            #expect(onHidden.status == .created)
            #expect(try object(onHidden)["mealType"] as? String == lateID.lowercased())
            let byLunchID = try object(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 100], "mealType": lunchID]))
            #expect(byLunchID["mealType"] as? String == "lunch", "a system type's id is stored as its key")
            #expect(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 100], "mealType": "Breakfast"]).status == .created)
            #expect(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 100], "mealType": "elevenses"]).status == .unprocessableEntity)
            let day = try object(try await client.get("/api/v1/diary?date=2026-11-21"))
            let groups = try #require(day["entries"] as? [[String: Any]])
            #expect(groups.first { $0["mealTypeId"] as? String == lateID }?["name"] as? String == "Late bite <b>\"ü\u{0301}</b>", "a hidden type keeps its entries")
            #expect(groups.first { $0["mealType"] as? String == "lunch" }?["name"] as? String == "Midday meal")
            #expect(try await client.sendJSON(.PUT, "/api/v1/meal-types/\(types[4]["id"] as! String)", ["hidden": true]).status == .unprocessableEntity,
                    "Snack is always offered")

            // Another person's types are not yours.
            let other = try await app.signUp("other@example.com")
            #expect(try await other.get("/api/v1/meal-types/\(lateID)").status == .notFound)
            #expect(try await other.sendJSON(.PUT, "/api/v1/meal-types/\(lateID)", ["displayName": "Mine"]).status == .notFound)
            #expect(try await other.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 1], "mealType": lateID]).status == .unprocessableEntity)
            #expect(try array(try await other.get("/api/v1/meal-types"))[1]["displayName"] as? String == "Lunch")
        }
    }

    @Test func entriesJoinTheirOccasionAndHistoryIsMealFirst() async throws {
        try await withForkcast(clock: TestClock(Self.noon)) { app in
            let client = try await app.signUp()
            func log(_ at: String, _ type: String, _ kcal: Int) async throws -> [String: Any] {
                try object(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": kcal], "mealType": type, "loggedAt": at]))
            }
            let first = try await log("2026-11-20T12:05:00Z", "lunch", 300)
            let second = try await log("2026-11-20T12:40:00Z", "lunch", 200)
            #expect(first["occasionId"] as? String == second["occasionId"] as? String, "the second joins the existing occasion")
            let plate = try await client.sendJSON(.POST, "/api/v1/diary/plate", ["mealType": "lunch", "loggedAt": "2026-11-20T13:00:00Z",
                                                                                 "items": [["quickAdd": ["energyKcal": 50]]]])
            #expect(try array(plate)[0]["occasionId"] as? String == first["occasionId"] as? String, "a plate joins it too")
            let snack = try await log("2026-11-20T16:00:00Z", "snack", 100)
            #expect(snack["occasionId"] as? String != first["occasionId"] as? String, "another type is a new occasion")
            _ = try await log("2026-11-19T08:00:00Z", "breakfast", 400)
            _ = try await log("2026-11-21T08:00:00Z", "breakfast", 350)

            let history = try array(try await client.get("/api/v1/occasions?limit=10"))
            #expect(history.map { "\($0["date"]!) \($0["mealType"]!)" } == ["2026-11-21 breakfast", "2026-11-20 snack", "2026-11-20 lunch", "2026-11-19 breakfast"])
            let lunch = history[2]
            #expect(lunch["entryCount"] as? Int == 3 && (lunch["totals"] as? [String: Any])?["energyKcal"] as? Double == 550)
            #expect(lunch["firstLoggedAt"] as? String == "2026-11-20T12:05:00Z" && lunch["lastLoggedAt"] as? String == "2026-11-20T13:00:00Z")
            #expect(lunch["mealTypeName"] as? String == "Lunch")
            #expect(try array(try await client.get("/api/v1/occasions?before=2026-11-21")).first?["date"] as? String == "2026-11-20")
            #expect(try array(try await client.get("/api/v1/occasions?date=2026-11-19")).map { $0["date"] as? String } == ["2026-11-19"], "jump to a day")
            let page = try array(try await client.get("/api/v1/occasions?limit=2"))
            #expect(page.map { $0["date"] as? String } == ["2026-11-21", "2026-11-20", "2026-11-20"], "a page ends at a day boundary")
            #expect(try await client.get("/api/v1/occasions?limit=0").status == .badRequest)
            #expect(try await client.get("/api/v1/occasions?limit=9223372036854775807").status == .badRequest)
            #expect(try await client.get("/api/v1/occasions?before=2026-02-30").status == .badRequest)

            let detail = try object(try await client.get("/api/v1/occasions/\(lunch["id"] as! String)"))
            #expect((detail["entries"] as? [[String: Any]])?.map { ($0["nutrients"] as? [String: Any])?["energyKcal"] as? Double } == [300, 200, 50])
            // Gone with its last entry.
            #expect(try await client.send(.DELETE, "/api/v1/diary/entries/\(snack["id"] as! String)").status == .noContent)
            #expect(try await client.get("/api/v1/occasions/\(snack["occasionId"] as! String)").status == .notFound)
        }
    }

    @Test func aTimeEditAsksBeforeMovingOnlyThatEntry() async throws {
        try await withForkcast(clock: TestClock(Self.noon)) { app in
            let client = try await app.signUp()
            let a = try object(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 300], "mealType": "lunch", "loggedAt": "2026-11-20T12:00:00Z"]))
            let b = try object(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 200], "mealType": "lunch", "loggedAt": "2026-11-20T12:30:00Z"]))
            let id = a["id"] as! String
            // A later time the same day stays in the same occasion: no question.
            let later = try await client.sendJSON(.PUT, "/api/v1/diary/entries/\(id)", ["loggedAt": "2026-11-20T13:10:00Z"])
            #expect(later.status == .ok)
            let laterEntry = try object(later)
            #expect(laterEntry["occasionId"] as? String == a["occasionId"] as? String)
            // The next day: 409 naming both occasions, nothing changed.
            let asked = try await client.sendJSON(.PUT, "/api/v1/diary/entries/\(id)", ["loggedAt": "2026-11-21T00:30:00Z"])
            #expect(asked.status == .conflict)
            let problem = try object(asked)
            #expect((problem["type"] as? String)?.hasSuffix("/occasion-change") == true)
            #expect((problem["from"] as? [String: Any])?["id"] as? String == a["occasionId"] as? String)
            #expect((problem["to"] as? [String: Any])?["date"] as? String == "2026-11-21")
            #expect((problem["detail"] as? String)?.contains("confirmMove") == true)
            #expect(try object(try await client.get("/api/v1/diary/entries/\(id)"))["loggedAt"] as? String == "2026-11-20T13:10:00Z")
            // A new time and a new type together also move it; confirmed, only this entry moves.
            #expect(try await client.sendJSON(.PUT, "/api/v1/diary/entries/\(id)", ["loggedAt": "2026-11-20T16:00:00Z", "mealType": "afternoon-snack"]).status == .conflict)
            let moved = try object(try await client.sendJSON(.PUT, "/api/v1/diary/entries/\(id)", ["loggedAt": "2026-11-21T00:30:00Z", "confirmMove": true]))
            #expect(moved["date"] as? String == "2026-11-21" && moved["mealType"] as? String == "lunch")
            #expect(try object(try await client.get("/api/v1/diary/entries/\(b["id"] as! String)"))["date"] as? String == "2026-11-20", "the rest stays")
            #expect(try object(try await client.get("/api/v1/occasions/\(a["occasionId"] as! String)"))["entryCount"] as? Int == 1)
            // A type change alone is the person's explicit choice.
            #expect(try await client.sendJSON(.PUT, "/api/v1/diary/entries/\(b["id"] as! String)", ["mealType": "dinner"]).status == .ok)
        }
    }

}
