import ForkcastClient
import ForkcastContract
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// Every route with a parameter, called by one member of a household with each id of another
/// member's own records (diary entry, occasion, weight, coach link, the account itself), through the
/// API with a token and through the pages with a signed-in browser: nothing answers with them,
/// no read succeeds, and afterwards all of them are still there, unchanged.
@Suite("Households: a sweep of every route for another member's records")
struct HouseholdPrivacySweepTests {
    /// The owner manages members by their ids: that is the point of those routes, not a leak.
    static let membership = ["/api/v1/household/members/", "/settings/household/members/"]

    @Test func noRouteReachesAnotherMembersOwnRecords() async throws {
        try await withServer(allowSignup: true) { app, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana"), ben = try await HouseholdSharingTests.person(url, "Ben")
            _ = try await ben.api.joinHousehold(token: try await ana.api.inviteToHousehold().token!)
            let entry = try await ben.api.log(DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 777), name: "Ben's private note"))
            let weight = try await ben.api.recordWeight(WeightInput(weightKg: 81.7))
            let link = try await ben.api.createDiaryLink(DiaryLinkInput(from: entry.date, to: entry.date, shows: ["diary", "weights"]))
            let occasion = try #require(try await ben.api.occasions().first)
            let secrets = ["Ben's private note", "Ben&#39;s private note", "Ben&#x27;s private note", "81.7"]
            let ids = [entry.id, occasion.id, weight.id, link.id, ben.id].map { $0.uuidString.lowercased() }

            let anasToken = try #require(ana.api.token)
            var browser = Browser(app: app)
            _ = try await browser.signIn("ana@example.com")
            let csrf = try await browser.csrf(from: "/settings")
            var swept = 0, readsAnswered: [String] = []
            for route in app.routes.all where route.path.contains(where: { if case .parameter = $0 { true } else { false } }) {
                let template = "/" + route.path.map(\.description).joined(separator: "/")
                guard !Self.membership.contains(where: template.hasPrefix), !route.path.contains(where: { $0 == .catchall || $0 == .anything }) else { continue }
                for id in ids {
                    let path = "/" + route.path.map { if case .parameter = $0 { id } else { $0.description } }.joined(separator: "/")
                    let response: TestingHTTPResponse
                    if path.hasPrefix("/api/") {
                        var headers = HTTPHeaders()
                        headers.bearerAuthorization = .init(token: anasToken)
                        headers.contentType = .json
                        let body = route.method == .GET || route.method == .DELETE ? nil : ByteBuffer(string: "{}")
                        response = try await app.testing().sendRequest(route.method, path, headers: headers, body: body)
                    } else {
                        response = try await browser.send(route.method, path, form: route.method == .GET ? nil : ["_csrf": csrf])
                    }
                    swept += 1
                    let body = response.body.string
                    #expect(!secrets.contains(where: body.contains), "\(route.method) \(path) answered with Ben's own: \(body.prefix(300))")
                    #expect(response.status.code < 500, "\(route.method) \(path): \(response.status)")
                    if route.method == .GET, (200..<300).contains(response.status.code) { readsAnswered.append("\(route.method) \(template)") }
                }
            }
            #expect(swept > 200, "every route with a parameter, each id: \(swept) requests")
            #expect(readsAnswered.isEmpty, "reads answered with another member's id: \(Set(readsAnswered).sorted())")

            // Nothing of Ben's changed.
            #expect(try await ben.api.diaryDay(entry.date).entries.flatMap(\.entries).map(\.name) == ["Ben's private note"])
            #expect(try await ben.api.weights().items.map(\.id) == [weight.id])
            #expect(try await ben.api.diaryLinks().map(\.id) == [link.id])
            #expect(try await ben.api.occasion(occasion.id).id == occasion.id)
            #expect(try await ana.api.household().members.map(\.id) == [ana.id, ben.id])
        }
    }
}
