import FluentKit
@testable import ForkcastServer
import ForkcastContract
import ForkcastCore
import Foundation
import PropertyBased
import SQLKit
import Testing
import VaporTesting
import ZIPFoundation

/// A browser: keeps cookies between requests and reads the CSRF token from pages.
struct Browser {
    let app: Application
    var cookies: [String: String] = [:]
    var headers: HTTPHeaders = [:]

    @discardableResult
    mutating func send(_ method: HTTPMethod, _ path: String, form: [String: String]? = nil) async throws -> TestingHTTPResponse {
        try await send(method, path, pairs: form.map { $0.map { ($0.key, $0.value) } })
    }

    /// A form whose fields may repeat (a plate's rows).
    @discardableResult
    mutating func send(_ method: HTTPMethod, _ path: String, pairs form: [(String, String)]?) async throws -> TestingHTTPResponse {
        var headers = self.headers
        if !cookies.isEmpty { headers.replaceOrAdd(name: .cookie, value: cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")) }
        var body: ByteBuffer?
        if let form {
            var components = URLComponents()
            components.queryItems = form.map { URLQueryItem(name: $0.0, value: $0.1) }
            body = ByteBuffer(string: components.percentEncodedQuery!.replacingOccurrences(of: "+", with: "%2B"))
            headers.replaceOrAdd(name: .contentType, value: "application/x-www-form-urlencoded")
        }
        let response = try await app.testing().sendRequest(method, path, headers: headers, body: body)
        for (name, value) in response.headers.setCookie?.all ?? [:] {
            if value.expires.map({ $0 < Date() }) == true || value.string.isEmpty { cookies[name] = nil } else { cookies[name] = value.string }
        }
        return response
    }

    mutating func csrf(from path: String) async throws -> String {
        let page = try await send(.GET, path).body.string
        let marker = "name=\"csrf-token\" content=\""
        let start = try #require(page.range(of: marker)).upperBound
        return String(page[start...].prefix { $0 != "\"" })
    }

    mutating func signIn(_ email: String = "owner@example.com", password: String = "correct horse", next: String? = nil) async throws -> TestingHTTPResponse {
        let token = try await csrf(from: "/login")
        var form = ["_csrf": token, "email": email, "password": password]
        if let next { form["next"] = next }
        return try await send(.POST, "/login", form: form)
    }
}

@Suite("Hardening")
struct HardeningTests {
    // MARK: Crashes and poison data

    @Test func hugeAndNegativePagesAreABadRequestNotACrash() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for path in ["/api/v1/meals", "/api/v1/foods", "/api/v1/weights"] {
                for query in ["page=9223372036854775807", "page=9223372036854775808", "page=-1", "page=0", "per=-5", "per=0",
                              "per=9223372036854775807", "page=1000001", "page=1e3", "per=%00"] {
                    let response = try await client.get("\(path)?\(query)")
                    #expect(response.status == .badRequest, "\(path)?\(query): \(response.status)")
                    #expect(response.headers.contentType?.subType == "problem+json")
                }
                let last = try await client.get("\(path)?page=\(Paging.maximumPage)&per=\(Paging.maximumPer)")
                #expect(last.status == .ok, "the largest page is empty, not an error")
            }
        }
    }

    @Test func implausibleNumbersAreRefusedBeforeTheyAreStored() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for body in [#"{"weightKg": 1e38}"#, #"{"weightKg": -5}"#, #"{"weightKg": 0}"#, #"{"weightLb": 1e308}"#, #"{"weightKg": 700}"#] {
                let response = try await client.send(.POST, "/api/v1/weights", raw: body)
                #expect(response.status == .unprocessableEntity, "\(body): \(response.body.string)")
            }
            let profile = #"{"sex":"male","birthDate":"1990-01-01","heightCm":1e30,"weightKg":1e38,"activityLevel":"light","aim":"maintain"}"#
            let refused = try await client.send(.PUT, "/api/v1/body-profile", raw: profile)
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.problem?.message(for: "heightCm") != nil && refused.problem?.message(for: "weightKg") != nil)
            let goals = try await client.send(.PUT, "/api/v1/goals", raw: #"{"energyKcal":1e300,"protein":-1,"carbohydrates":100,"fat":50}"#)
            #expect(goals.status == .unprocessableEntity)
            let quick = try await client.send(.POST, "/api/v1/diary/entries", raw: #"{"quickAdd":{"energyKcal":1e30},"mealType":"lunch"}"#)
            #expect(quick.status == .unprocessableEntity)
            let food = try await client.send(.POST, "/api/v1/foods", raw: #"{"name":"Oats","per100":{"energyKcal":380},"serving":{"size":1e300,"unit":"g"},"price":{"amount":1e300,"per":"package","packageSize":500}}"#)
            #expect(food.status == .unprocessableEntity)
            #expect(food.problem?.message(for: "serving.size") != nil && food.problem?.message(for: "price.amount") != nil)
            #expect(try await client.get("/api/v1/weights").json(WeightPage.self).metadata.total == 0)
        }
    }

    /// Foundation calls 1.5 in a whole-number field "not valid JSON", naming nothing: the answer
    /// is still the 422 naming the field, and nothing is saved.
    @Test func anIdThatIsNotOneIsA422SayingWhatAnIdLooksLike() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for (path, body, field) in [("/api/v1/diary/entries", #"{"mealType":"lunch","photoId":"abc"}"#, "photoId"),
                                        ("/api/v1/plan/assignments", #"{"mealId":"not-an-id","date":"2026-11-29"}"#, "mealId")] {
                let answer = try await client.send(.POST, path, raw: body)
                #expect(answer.status == .unprocessableEntity, "\(answer.body.string)")
                let message = try #require(answer.problem?.message(for: field))
                #expect(message.contains("must be an id") && !message.contains("Attempted"), "\(message)")
            }
        }
    }

    @Test func aParameterOutsideTheBoundsTheDocumentDeclaresIsA400SayingThem() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for (path, message) in [("/api/v1/plan?days=0", "days must be at least 1 and at most \(WeekWindow.maximumLength); got 0."),
                                    ("/api/v1/plan?days=999", "days must be at least 1 and at most \(WeekWindow.maximumLength); got 999."),
                                    ("/api/v1/sync/changes?limit=0", "limit must be at least 1 and at most \(SyncChangesQuery.maximumLimit); got 0.")] {
                let answer = try await client.get(path)
                #expect(answer.status == .badRequest && answer.body.string.contains(message), "\(path): \(answer.body.string)")
            }
            #expect(try await client.get("/api/v1/plan?days=\(WeekWindow.maximumLength)").status == .ok, "the bound itself is allowed")
        }
    }

    @Test func aFractionOrAHugeNumberInAWholeNumberFieldIsA422NamingIt() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let meal = try await client.createMeal("Soup").id.uuidString
            let cases: [(String, String, String)] = [
                ("/api/v1/plan/assignments", #"{"mealId":"\#(meal)","date":"2026-11-29","servings":1.5}"#, "servings"),
                ("/api/v1/plan/assignments", #"{"mealId":"\#(meal)","date":"2026-11-29","servings":1e30}"#, "servings"),
                ("/api/v1/plan/assignments", #"{"mealId":"\#(meal)","date":"2026-11-29","servings":18446744073709551615}"#, "servings"),
                ("/api/v1/plan/assignments/batch", #"{"assignments":[{"mealId":"\#(meal)","date":"2026-11-29","servings":2},{"mealId":"\#(meal)","date":"2026-11-30","servings":2.5}]}"#, "assignments[1].servings"),
                ("/api/v1/plan/suggestions", #"{"start":"2026-11-29","days":1.5}"#, "days"),
                ("/api/v1/meal-types", #"{"displayName":"Late bite","window":{"start":"22:00","end":"23:00"},"position":1e30}"#, "position"),
            ]
            for (path, body, field) in cases {
                let answer = try await client.send(.POST, path, raw: body)
                #expect(answer.status == .unprocessableEntity, "\(body): \(answer.status) \(answer.body.string)")
                #expect(answer.problem?.message(for: field)?.contains("whole number") == true, "\(body): \(answer.body.string)")
            }
            // The same number in a pushed record is refused with the same problem, not "not valid JSON".
            let now = ISO8601DateFormatter().string(from: Date())
            for (servings, id) in [("1.5", UUID()), ("1e30", UUID())] {
                let push = #"{"deviceId":"phone","mutations":[{"mutationId":"\#(id)","kind":"assignment","id":"\#(id)","op":"upsert","updatedAt":"\#(now)","record":{"mealId":"\#(meal)","date":"2026-11-29","servings":\#(servings)}}]}"#
                let answer = try await client.send(.POST, "/api/v1/sync/push", raw: push)
                let result = try #require((try JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView)) as? [String: Any])?["results"] as? [[String: Any]]).first
                let problem = result?["problem"] as? [String: Any]
                #expect(result?["status"] as? String == "rejected" && problem?["status"] as? Int == 422, "\(answer.body.string)")
                let errors = problem?["errors"] as? [[String: String]] ?? []
                #expect(errors.contains { $0["field"] == "servings" && $0["message"]?.contains("whole number") == true }, "\(answer.body.string)")
            }
            #expect(try await client.plan("start=2026-11-29").days.allSatisfy(\.assignments.isEmpty), "nothing was planned")
            // A body that does not parse is still a 400, whatever numbers it holds.
            let broken = try await client.send(.POST, "/api/v1/plan/assignments", raw: #"{"mealId":"\#(meal)","servings":1.5,"#)
            #expect(broken.status == .badRequest && broken.problem?.detail.contains("not valid JSON") == true)
            // A whole number in the same body is planned.
            let planned = try await client.send(.POST, "/api/v1/plan/assignments", raw: #"{"mealId":"\#(meal)","date":"2026-11-29","servings":2}"#)
            #expect(planned.status == .created, "\(planned.body.string)")
        }
    }

    /// A form is read as the API reads JSON: a NUL nobody typed is U+FFFD (SQLite cut the text at it,
    /// so "\0Rice" was stored as an empty name), and a look-alike name is the same name on both doors.
    @Test func aFormAndTheAPIStoreTheSameTextForTheSameInput() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            var browser = Browser(app: app)
            #expect(try await browser.signIn().status == .seeOther)
            let token = try await browser.csrf(from: "/settings")
            let saved = try await browser.send(.POST, "/settings", form: ["_csrf": token, "displayName": "Ana\u{0}Lee", "timeZone": "UTC", "currency": "EUR"])
            #expect(saved.status == .seeOther, "\(saved.body.string)")
            func name() async throws -> [String: Any]? {
                try JSONSerialization.jsonObject(with: Data(try await client.get("/api/v1/me").body.readableBytesView)) as? [String: Any]
            }
            let byForm = try await name()?["displayName"] as? String
            #expect(byForm == "Ana\u{FFFD}Lee", "\(String(describing: byForm?.unicodeScalars.map(\.value)))")
            let viaAPI = try await client.send(.PUT, "/api/v1/me", raw: #"{"displayName":"Ana\u0000Lee","timeZone":"UTC","currency":"EUR"}"#)
            #expect(viaAPI.status == .ok)
            #expect(try await name()?["displayName"] as? String == byForm)
            // A byte-order mark before "Breakfast" makes no second Breakfast, by form or by API.
            let web = try await browser.send(.POST, "/settings/meal-types", form: ["_csrf": token, "displayName": "\u{FEFF}Breakfast"])
            #expect(web.status == .unprocessableEntity && web.body.string.contains("already have"), "\(web.status)")
            let api = try await client.send(.POST, "/api/v1/meal-types", raw: #"{"displayName":"\uFEFFBreakfast"}"#)
            #expect(api.status == .unprocessableEntity && api.problem?.message(for: "displayName")?.contains("already have") == true, "\(api.body.string)")
            // A day that does not exist is refused on the web as on the API, not replaced by today.
            #expect(try await browser.send(.GET, "/diary/nutrients?date=2026-02-30").status == .badRequest)
            let meal = try await client.createMeal("Soup").id.uuidString
            let planned = try await browser.send(.POST, "/plan/assignments", form: ["_csrf": token, "mealId": meal, "date": "2026-02-30"])
            #expect(planned.status == .unprocessableEntity, "\(planned.status)")
            #expect(try await client.plan("start=2026-02-23").days.allSatisfy(\.assignments.isEmpty))
            // The planner's stepper: portions that are not a whole number are a 422 naming them, and change nothing.
            let made = try await client.send(.POST, "/api/v1/plan/assignments", raw: #"{"mealId":"\#(meal)","date":"2026-11-30","servings":2}"#)
            let entry = try JSONSerialization.jsonObject(with: Data(made.body.readableBytesView)) as? [String: Any]
            let assignment = try #require(entry?["id"] as? String, "\(made.body.string)")
            for servings in ["abc", "2.5", ""] {
                let stepped = try await browser.send(.POST, "/plan/assignments/\(assignment)/servings", form: ["_csrf": token, "servings": servings])
                #expect(stepped.status == .unprocessableEntity && stepped.body.string.contains("whole number"), "\(servings): \(stepped.status)")
            }
            let after = try await client.get("/api/v1/plan/assignments/\(assignment)")
            #expect(after.body.string.contains(#""servings":2"#), "\(after.body.string)")
        }
    }

    @Test func instantsAndDatesAreReadStrictly() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for loggedAt in ["2026-11-22T25:00:00Z", "2026-02-30T12:00:00Z", "9999-12-31T23:59:59+14:00", "2026-11-22T12:00:00"] {
                let response = try await client.send(.POST, "/api/v1/diary/entries", raw: #"{"quickAdd":{"energyKcal":100},"mealType":"snack","loggedAt":"\#(loggedAt)"}"#)
                #expect(response.status == .unprocessableEntity, "\(loggedAt): \(response.body.string)")
                #expect(response.problem?.message(for: "loggedAt") != nil)
            }
            for path in ["/api/v1/diary?date=", "/api/v1/plan?start=", "/api/v1/meals?page=", "/api/v1/diary/summary?from=&to="] {
                #expect(try await client.get(path).status == .badRequest, "\(path)")
            }
            // Numbers beyond Decimal's range are numbers, not "invalid JSON": tiny ones are 0, huge ones fail their range.
            let tiny = try await client.send(.POST, "/api/v1/diary/entries", raw: #"{"quickAdd":{"energyKcal":100,"fat":1e-300},"mealType":"snack"}"#)
            #expect(tiny.status == .created, "\(tiny.body.string)")
            // A negative one is still below zero (read as 0 it was accepted: schemathesis's ST201 on a meal's fat).
            let tinyBelowZero = try await client.send(.POST, "/api/v1/diary/entries", raw: #"{"quickAdd":{"energyKcal":100,"fat":-5.3320577572152434e-220},"mealType":"snack"}"#)
            #expect(tinyBelowZero.status == .unprocessableEntity && tinyBelowZero.problem?.message(for: "quickAdd.fat") != nil, "\(tinyBelowZero.body.string)")
            let meal = try await client.send(.POST, "/api/v1/meals", raw: #"{"description":"Soup","servings":2,"nutrition":{"fat":-5.3320577572152434e-220}}"#)
            #expect(meal.status == .unprocessableEntity, "\(meal.body.string)")
            let huge = try await client.send(.POST, "/api/v1/weights", raw: #"{"weightKg":1e308}"#)
            #expect(huge.status == .unprocessableEntity && huge.problem?.message(for: "weightKg") != nil, "\(huge.body.string)")
        }
    }

    @Test func pagesSurvivePoisonAlreadyInTheDatabase() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            let user = try #require(try await UserModel.query(on: app.db).first())
            // What an older version let in: an absurd weight and profile, and computed goals.
            try await WeightEntryModel(id: UUID(), ownerID: user.id!, measuredAt: Date(), weightKg: 1e38, source: "manual").create(on: app.db)
            let profile = BodyProfileModel()
            profile.id = UUID()
            profile.ownerID = user.id!
            profile.sex = "male"
            profile.birthDate = "1990-01-01"
            profile.heightCm = 1e30
            profile.weightKg = 1e38
            profile.activityLevel = "light"
            profile.aim = "maintain"
            profile.updatedAt = Date()
            try await profile.create(on: app.db)
            try await BodyRepository(db: app.db, ownerID: user.id!).saveGoals(Goals(energyKcal: 0, protein: 0, carbohydrates: 0, fat: 0, source: .computed), now: Date())
            var browser = Browser(app: app)
            #expect(try await browser.signIn().status == .seeOther)
            for path in ["/diary", "/diary?range=month", "/goals"] {
                let page = try await browser.send(.GET, path)
                #expect(page.status == .ok, "\(path): \(page.status)")
            }
            #expect(try await app.anonymous.get("/healthz").status == .ok, "the server is still up")
        }
    }

    // MARK: Script injection

    @Test func escapingWorksOnBytesSoCombiningMarksCannotHideAQuote() {
        let hostile = "\"\u{301} autofocus onfocus=alert(1) x=\u{301}'<\u{301}>\u{0}"
        let escaped = HTML.escape(hostile)
        #expect(!escaped.utf8.contains(UInt8(ascii: "\"")) && !escaped.utf8.contains(UInt8(ascii: "'")))
        #expect(!escaped.utf8.contains(UInt8(ascii: "<")) && !escaped.utf8.contains(UInt8(ascii: ">")))
        #expect(!escaped.utf8.contains(0))
        let field = FormField(name: "description", label: hostile, value: hostile, error: hostile, hint: hostile, inputMode: hostile).render.html
        #expect(HTMLShape(field) == HTMLShape(FormField(name: "description", label: "x", value: "x", error: "x", hint: "x", inputMode: "x").render.html))
    }

    /// Random Unicode (combining marks, quotes, angle brackets, NUL, RTL marks) through every page
    /// component: the parsed output has exactly the elements and attributes of a harmless input.
    @Test func noTextCanAddElementsOrAttributesToAPage() async {
        let pieces = ["\"", "'", "<", ">", "&", "=", "`", "/", " ", "\u{301}", "\u{0}", "\u{202E}", "\u{200F}", "\u{FEFF}", "a", "é",
                      "script", "onfocus", "<!--", "-->", "]]>", "\n", "寿"]
        let text = Gen<String?>.element(of: pieces).map { $0! }.array(of: 0...24).map { "a" + $0.joined() }
        await propertyCheck(count: 300, input: text) { hostile in
            for (name, render) in Self.components {
                let harmless = render("x"), attacked = render(hostile)
                #expect(HTMLShape(attacked) == HTMLShape(harmless), "\(name) with \(hostile.debugDescription)")
            }
        }
    }

    static let components: [(String, @Sendable (String) -> String)] = [
        ("form field", { FormField(name: "n", label: $0, value: $0, error: $0, autocomplete: $0, hint: $0, list: $0, inputMode: $0).render.html }),
        ("meal card", { MealListPage.card(.init(meal: Meal(description: $0, primaryProtein: $0, primaryCarb: $0, otherComponents: [$0, "b"]), isPlanned: false), csrf: $0, today: CalendarDate(year: 2026, month: 11, day: 23)!).html }),
        ("food card", { FoodListPage.card(Food(name: $0, brand: $0, portion: $0), currency: $0).html }),
        ("layout", { Layout(title: $0, section: .meals, csrf: $0, flash: $0).render(HTML("<p>\($0)</p>")).html }),
        ("error page", { ErrorPage(problem: ProblemDetails(type: $0, title: $0, status: .badRequest, detail: $0)).render(layout: Layout(title: $0, csrf: $0)).html }),
        ("login page", { LoginPage(email: $0, next: $0, message: $0).render(layout: Layout(title: $0, csrf: $0, signedIn: false), passwordLogin: true, providers: []).html }),
    ]

    @Test func aHostileSearchIsShownAsText() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let saved = try await browser.send(.POST, "/meals", form: ["_csrf": try await browser.csrf(from: "/meals/new"),
                                                                      "description": "\"\u{301} autofocus onfocus=alert(1) x=\u{301}<img src=x onerror=alert(2)>"])
            #expect(saved.status == .seeOther, "the hostile meal is saved, to be shown below")
            let q = "%22%CC%81%20autofocus%20onfocus%3Dalert(1)%20x%3D"
            for path in ["/meals?q=\(q)", "/meals", "/plan", "/foods?q=\(q)"] {
                let page = try await browser.send(.GET, path)
                #expect(page.status == .ok, "\(path)")
                let shape = HTMLShape(page.body.string)
                #expect(!shape.attributes.contains("onfocus") && !shape.attributes.contains("onerror") && !shape.attributes.contains("autofocus"), "\(path)")
                #expect(!shape.elements.contains("img"), "\(path)")
                #expect(page.headers.first(name: "Content-Security-Policy")?.contains("script-src 'self'") == true)
            }
        }
    }

    @Test func everyAnswerCarriesTheSecurityHeaders() async throws {
        try await withForkcast { app in
            for path in ["/healthz", "/login", "/setup", "/api/v1/meals", "/css/app.css", "/nothing-here"] {
                let response = try await app.anonymous.get(path)
                #expect(response.headers.first(name: "Content-Security-Policy")?.contains("frame-ancestors 'none'") == true, "\(path)")
                #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(path)")
                #expect(response.headers.first(name: "Referrer-Policy") == "same-origin", "\(path)")
                #expect(response.headers.first(name: .strictTransportSecurity) == nil, "no HSTS over plain HTTP")
            }
        }
    }

    // MARK: Sessions and sign-in

    @Test func bearerCallsNeverTouchWebSessions() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for _ in 0..<5 {
                let response = try await client.get("/api/v1/meals")
                #expect(response.status == .ok)
                #expect(response.headers.setCookie == nil, "no cookie for a bearer call")
            }
            #expect(try await WebSessionModel.query(on: app.db).count() == 0)
            // A cookie sent beside a bearer token is ignored, not refreshed.
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let cookie = try #require(browser.cookies[SecurityHeadersMiddleware.sessionCookie])
            let mixed = try await client.send(.GET, "/api/v1/me", headers: ["Cookie": "forkcast-session=\(cookie)"])
            #expect(mixed.status == .ok && mixed.headers.setCookie == nil)
        }
    }

    @Test func signInAndSignOutIssueANewSessionID() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            var browser = Browser(app: app)
            _ = try await browser.csrf(from: "/login")
            #expect(browser.cookies[SecurityHeadersMiddleware.sessionCookie] == nil, "the sign-in form starts no session")
            #expect(try await browser.signIn().status == .seeOther)
            let before = try #require(browser.cookies[SecurityHeadersMiddleware.sessionCookie])
            let first = try await browser.csrf(from: "/meals")
            _ = try await browser.send(.POST, "/logout", form: ["_csrf": first])
            #expect(browser.cookies[SecurityHeadersMiddleware.sessionCookie] == nil, "signing out leaves no session")
            #expect(try await browser.signIn().status == .seeOther)
            let signedIn = try #require(browser.cookies[SecurityHeadersMiddleware.sessionCookie])
            #expect(signedIn != before, "each sign-in has a new session id")
            // The old id no longer works for anything.
            var attacker = Browser(app: app, cookies: [SecurityHeadersMiddleware.sessionCookie: before])
            #expect(try await attacker.send(.GET, "/meals").status == .seeOther)
            #expect(try await browser.send(.GET, "/meals").status == .ok)
            let token = try await browser.csrf(from: "/meals")
            _ = try await browser.send(.POST, "/logout", form: ["_csrf": token])
            var replay = Browser(app: app, cookies: [SecurityHeadersMiddleware.sessionCookie: signedIn])
            #expect(try await replay.send(.GET, "/meals").status == .seeOther, "a signed-out session is dead")
        }
    }

    @Test func expiredSessionsAndTokensStopWorkingAndAreDeleted() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            var browser = Browser(app: app), idle = Browser(app: app)
            _ = try await browser.signIn()
            _ = try await idle.signIn()
            #expect(try await browser.send(.GET, "/meals").status == .ok)
            clock.advance(by: 31 * 24 * 3600)
            // Coming back with an expired session signs nobody in (and removes that session);
            // the idle browser's expired session is left for housekeeping.
            #expect(try await browser.send(.GET, "/meals").status == .seeOther)
            #expect(try await client.get("/api/v1/me").status == .unauthorized)
            let removed = try await Housekeeping.run(on: app.db, now: clock.now)
            #expect(removed.sessions >= 1)
            #expect(try await WebSessionModel.query(on: app.db).filter(\.$expiresAt <= clock.now).count() == 0)
            #expect(try await TokenModel.query(on: app.db).filter(\.$expiresAt <= clock.now).count() == 0)
        }
    }

    @Test func signInNeverRedirectsOffSite() async throws {
        for hostile in ["//evil.example", "/\t/evil.example", "/\n/evil.example", "/\\evil.example", "\\\\evil.example", "/\r\n/evil.example",
                        "https://evil.example", "javascript:alert(1)", " /x", "/%09/evil", "/\u{0}x", "/x\\y", ""] {
            let path = AccountRules.localRedirectPath(hostile)
            #expect(path == nil || path == "/%09/evil", "\(hostile.debugDescription) → \(path ?? "nil")")
        }
        #expect(AccountRules.localRedirectPath("/meals?protein=x&q=a%20b") == "/meals?protein=x&q=a%20b")
        try await withForkcast { app in
            _ = try await app.signUp()
            var browser = Browser(app: app)
            let response = try await browser.signIn(next: "/\t/evil.example")
            #expect(response.headers.first(name: .location) == SiteURL.diary().path)
        }
    }

    @Test func csrfIsNotSkippedForAnInvalidAuthorizationHeader() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            browser.headers = ["Authorization": "Bearer not-a-token", "Content-Type": "application/json"]
            let response = try await browser.send(.POST, "/api/v1/meals")
            #expect(response.status == .unauthorized)
            #expect(try await MealModel.query(on: app.db).count() == 0)
            browser.headers = ["Content-Type": "application/json"]
            #expect(try await browser.send(.POST, "/api/v1/meals").status == .forbidden, "a cookie without the CSRF header")
        }
    }

    @Test func cookiesAreSecureAndHSTSIsSentOnHTTPS() async throws {
        try await withForkcast(adjust: { $0.publicURL = "https://food.example" }) { app in
            _ = try await app.signUp()
            var browser = Browser(app: app)
            let response = try await browser.signIn()
            let cookie = try #require(response.headers.setCookie?[SecurityHeadersMiddleware.sessionCookie])
            #expect(cookie.isSecure && cookie.isHTTPOnly)
            #expect(response.headers.first(name: .strictTransportSecurity)?.hasPrefix("max-age=") == true)
        }
        try await withForkcast(adjust: { $0.trustProxy = true }) { app in
            _ = try await app.signUp()
            var browser = Browser(app: app, headers: ["X-Forwarded-Proto": "https"])
            // A visitor's page sets the CSRF cookie of its own: Secure too behind the proxy's https.
            let login = try await app.anonymous.send(.GET, "/login", headers: ["X-Forwarded-Proto": "https"])
            let visitor = try #require(login.headers.setCookie?[CSRF.visitorCookie])
            #expect(visitor.isSecure && visitor.isHTTPOnly)
            let response = try await browser.signIn()
            #expect(response.headers.setCookie?[SecurityHeadersMiddleware.sessionCookie]?.isSecure == true)
        }
    }

    @Test func undeclaredMethodsAre405() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let response = try await client.send(.PATCH, "/api/v1/meals")
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers.first(name: .allow)?.contains("GET") == true)
            #expect(response.headers.first(name: .allow)?.contains("POST") == true)
            #expect(try await client.send(.DELETE, "/api/v1/plan").status == .methodNotAllowed)
            #expect(try await client.get("/api/v1/nothing").status == .notFound)
        }
    }

    // MARK: Writes under concurrency

    /// 16 clients × 100 writes at once (meals with ingredients and diary entries): none may fail
    /// because another is writing, and none may be lost. Runs on SQLite and, in CI, PostgreSQL.
    /// The waits for a turn (SQLite's write gate, 15 s; a PostgreSQL connection, 5 s) are longer
    /// than production's here: beside the other tests on a slow machine a turn took longer (a few of
    /// 1,600 writes answered 503), which says nothing of the queue. That writers past the limit get
    /// their 503 in time is the system tests' (test_concurrency.py).
    @Test func sixteenConcurrentWritersLoseNothing() async throws {
        try await withForkcast(allowSignup: true, adjust: { $0.writeWaitLimit = .seconds(120); $0.postgresConnectionWaitLimit = .seconds(120) }) { app in
            let owner = try await app.signUp()
            let food = try await owner.send(.POST, "/api/v1/foods", raw: #"{"name":"Oats","per100":{"energyKcal":380,"protein":13,"carbohydrates":60,"fat":7}}"#)
            let foodID = try food.json(IDOnly.self).id
            let failures = try await withThrowingTaskGroup(of: [String].self) { group in
                for writer in 0..<16 {
                    group.addTask {
                        var failures: [String] = []
                        for i in 0..<100 {
                            let response: TestingHTTPResponse
                            if i % 2 == 0 {
                                response = try await owner.send(.POST, "/api/v1/meals", raw: """
                                    {"description":"Porridge \(writer)-\(i)","ingredients":[{"foodId":"\(foodID)","quantity":80,"unit":"g"}]}
                                    """)
                            } else {
                                response = try await owner.send(.POST, "/api/v1/diary/entries", raw: """
                                    {"foodId":"\(foodID)","quantity":\(40 + i),"unit":"g","mealType":"breakfast"}
                                    """)
                            }
                            if response.status != .created { failures.append("\(response.status): \(response.body.string)") }
                        }
                        return failures
                    }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            #expect(failures.isEmpty, "\(failures.count) writes failed, e.g. \(failures.first ?? "")")
            #expect(try await MealModel.query(on: app.db).count() == 800)
            #expect(try await DiaryEntryModel.query(on: app.db).count() == 800)
        }
    }

    /// Group commit: writers queued behind an open SQLite transaction join it and share its commit,
    /// and one that fails rolls back only its own changes, never a neighbour's.
    @Test func writersShareCommitsAndAFailingOneTakesOnlyItsOwnChanges() async throws {
        struct Refused: Error {}
        try await withForkcast { app in
            let sql = app.db as! any SQLDatabase
            try await sql.raw("CREATE TABLE group_commit_probe (writer INTEGER NOT NULL, step INTEGER NOT NULL)").run()
            let gate = app.writeGate
            let before = await gate.transactions
            let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for writer in 0..<20 {
                    group.addTask {
                        do {
                            try await app.db.write { tx in
                                let sql = tx as any SQLDatabase
                                try await sql.raw("INSERT INTO group_commit_probe (writer, step) VALUES (\(bind: writer), 1)").run()
                                try await Task.sleep(for: .milliseconds(20))  // the others queue meanwhile
                                if writer % 5 == 3 { throw Refused() }
                                try await sql.raw("INSERT INTO group_commit_probe (writer, step) VALUES (\(bind: writer), 2)").run()
                            }
                            return (writer, true)
                        } catch is Refused {
                            return (writer, false)
                        }
                    }
                }
                return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
            }
            #expect(outcomes.count == 20)
            #expect(outcomes.filter { !$0.value }.keys.sorted() == [3, 8, 13, 18])
            let rows = try await sql.raw("SELECT writer, step FROM group_commit_probe ORDER BY writer, step").all()
            let saved = try rows.map { "\(try $0.decode(column: "writer", as: Int.self)).\(try $0.decode(column: "step", as: Int.self))" }
            let expected = (0..<20).filter { $0 % 5 != 3 }.flatMap { ["\($0).1", "\($0).2"] }
            #expect(saved == expected)
            if sql.dialect.name == "sqlite" {
                let transactions = await gate.transactions - before
                #expect(transactions < 20, "20 writers used \(transactions) transactions: none were grouped")
            }
        }
    }

    @Test func healthSaysWhetherTheDatabaseIsWritable() async throws {
        try await withForkcast { app in
            let healthy = try await app.anonymous.get("/healthz")
            #expect(healthy.status == .ok)
            #expect(healthy.body.string.contains("\"writable\":true"))
        }
    }
}

struct IDOnly: Decodable { var id: UUID }
struct WeightPage: Decodable {
    var items: [Item]
    var metadata: TestMealPage.Metadata
    struct Item: Decodable { var id: UUID; var weightKg: Decimal }
}

/// The elements and attribute names of an HTML text, in order, read the way a browser's tokenizer
/// reads tags (quoted attribute values may hold `>`); text and attribute values are ignored.
struct HTMLShape: Equatable, CustomStringConvertible {
    var elements: [String] = []
    var attributes: [String] = []

    init(_ html: String) {
        let bytes = Array(html.utf8)
        var i = 0
        func isNameByte(_ b: UInt8) -> Bool { !(b == 32 || b == 9 || b == 10 || b == 12 || b == 13 || b == UInt8(ascii: "/") || b == UInt8(ascii: ">") || b == UInt8(ascii: "=")) }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<"), i + 1 < bytes.count else { i += 1; continue }
            let next = bytes[i + 1]
            let isLetter = (next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z")
            if next == UInt8(ascii: "!") {  // comment or doctype: to the next '>'
                elements.append("!")
                while i < bytes.count, bytes[i] != UInt8(ascii: ">") { i += 1 }
                continue
            }
            guard isLetter || next == UInt8(ascii: "/") else { i += 1; continue }
            i += 1
            if bytes[i] == UInt8(ascii: "/") { i += 1 }
            var name = [UInt8]()
            while i < bytes.count, isNameByte(bytes[i]) { name.append(bytes[i] | (bytes[i] >= 65 && bytes[i] <= 90 ? 0x20 : 0)); i += 1 }
            elements.append(String(decoding: name, as: UTF8.self))
            // Attributes until '>'.
            while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
                if bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 12 || bytes[i] == 13 || bytes[i] == UInt8(ascii: "/") { i += 1; continue }
                var attribute = [UInt8]()
                while i < bytes.count, isNameByte(bytes[i]) || (attribute.isEmpty && bytes[i] == UInt8(ascii: "=")) { attribute.append(bytes[i]); i += 1 }
                attributes.append(String(decoding: attribute, as: UTF8.self).lowercased())
                if i < bytes.count, bytes[i] == UInt8(ascii: "=") {
                    i += 1
                    if i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                        let quote = bytes[i]
                        i += 1
                        while i < bytes.count, bytes[i] != quote { i += 1 }
                        i += 1
                    } else {
                        while i < bytes.count, !(bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 12 || bytes[i] == 13 || bytes[i] == UInt8(ascii: ">")) { i += 1 }
                    }
                }
            }
            i += 1
        }
    }

    var description: String { "elements \(elements) attributes \(attributes)" }
}

/// The check every API test's answer goes through (Support/OpenAPIConformance.swift) does catch drift.
@Suite("OpenAPI conformance check")
struct OpenAPIConformanceCheckTests {
    @Test func undocumentedStatusesAndShapesAreCaught() {
        let meals = #"{"items":[],"metadata":{"page":1,"per":100,"total":0}}"#
        #expect(OpenAPIConformance.problems(method: "GET", path: "/api/v1/meals?q=x", status: 200, contentType: "application/json", body: Data(meals.utf8)).isEmpty)
        #expect(!OpenAPIConformance.problems(method: "GET", path: "/api/v1/meals", status: 200, contentType: "application/json", body: Data(#"{"items":5}"#.utf8)).isEmpty)
        #expect(!OpenAPIConformance.problems(method: "GET", path: "/api/v1/meals", status: 418, contentType: nil, body: Data()).isEmpty)
        #expect(!OpenAPIConformance.problems(method: "GET", path: "/api/v1/recipes", status: 200, contentType: nil, body: Data()).isEmpty)
        let problem = #"{"type":"x","title":"y","status":404,"detail":"z"}"#
        #expect(OpenAPIConformance.problems(method: "GET", path: "/api/v1/meals/\(UUID())", status: 404, contentType: "application/problem+json", body: Data(problem.utf8)).isEmpty)
    }
}

/// Found by the outside review: each of these once stopped the server or lost data.
@Suite("Review findings")
struct ReviewFindingTests {
    @Test func anAuthorizationHeaderOnAWebPageIsIgnored() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            for value in ["Bearer x", "Basic dXNlcjpwYXNz"] {
                let page = try await app.testing().sendRequest(.GET, "/login", headers: ["Authorization": value])
                #expect(page.status == .ok, "\(value)")
            }
        }
    }

    @Test func strayPercentSignsAndQuotesInFormsAreJustText() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            var browser = Browser(app: app)
            let token = try await browser.csrf(from: "/login")
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .cookie, value: browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
            headers.replaceOrAdd(name: .contentType, value: "application/x-www-form-urlencoded")
            let body = "_csrf=\(token)&email=100%&password=x\"{|%zz"
            let response = try await app.testing().sendRequest(.POST, "/login", headers: headers, body: ByteBuffer(string: body))
            #expect(response.status == .unauthorized)
            #expect(try await app.anonymous.get("/healthz").status == .ok)
            #expect(URLEncoded.pairs("a=100%&b=x+y&c=%E2%82%AC&d").map { "\($0.name)=\($0.value)" } == ["a=100%", "b=x y", "c=€", "d="])
        }
    }

    @Test func twoDevicesMayUseTheSameMutationIDs() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(1))
            for (device, name) in [("phone", "Phone soup"), ("tablet", "Tablet stew")] {
                let body = #"{"deviceId":"\#(device)","mutations":[{"mutationId":"1","kind":"meal","id":"\#(UUID())","op":"upsert","updatedAt":"\#(now)","record":{"description":"\#(name)"}}]}"#
                let response = try await client.send(.POST, "/api/v1/sync/push", raw: body)
                #expect(response.status == .ok)
            }
            #expect(Set(try await client.meals().items.map(\.description)) == ["Phone soup", "Tablet stew"])
        }
    }

    @Test func aWeighingCannotBeInTheFuture() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let later = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3 * 86_400))
            let response = try await client.send(.POST, "/api/v1/weights", raw: #"{"weightKg":70,"measuredAt":"\#(later)"}"#)
            #expect(response.status == .unprocessableEntity && response.problem?.message(for: "measuredAt") != nil)
        }
    }

    @Test func aVeryLongPathIsNotFound() async throws {
        try await withForkcast { app in
            let long = "/" + String(repeating: "a", count: 300), file = "/css/" + String(repeating: "b", count: 256) + ".css"
            let first = try await app.anonymous.get(long), second = try await app.anonymous.get(file)
            #expect(first.status == .notFound && second.status == .notFound)
        }
    }

    /// Public's files are served; only paths starting with one of Public's entries are looked up on
    /// disk, and nothing outside Public can be reached.
    @Test func publicFilesAreServedAndNothingOutsideThem() async throws {
        try await withForkcast { app in
            for path in ["/css/app.css", "/sw.js", "/manifest.webmanifest"] {
                let response = try await app.anonymous.get(path)
                #expect(response.status == .ok && response.body.readableBytes > 0, "\(path)")
            }
            #expect(try await app.anonymous.get("/css/app.css").headers.contentType?.subType == "css")
            for path in ["/css/../../Package.swift", "/css/%2e%2e/%2e%2e/Package.swift", "/Package.swift", "/js/nothing.js"] {
                #expect(try await app.anonymous.get(path).status != .ok, "\(path)")
            }
        }
    }

    @Test func csvCellsNeverStartAFormula() {
        let entry = DiaryEntry(loggedAt: Date(), date: CalendarDate(iso: "2026-11-22")!, mealType: "lunch", note: "@SUM(A1)", kind: .quickAdd,
                               name: "=HYPERLINK(\"http://x\")", nutrients: Nutrients(energyKcal: 100))
        let csv = DiaryExport.csv([entry])
        #expect(csv.contains("\"'=HYPERLINK(\"\"http://x\"\")\"") && csv.contains("'@SUM(A1)"))
    }

    @Test func csvShowsLocalTimeBesideUTCAndAmountsRoundedAsShown() throws {
        let instant = try #require(ISO8601DateFormatter().date(from: "2026-11-22T23:30:00Z"))
        let entry = DiaryEntry(loggedAt: instant, date: CalendarDate(iso: "2026-11-23")!, mealType: "snack", note: nil, kind: .quickAdd,
                               name: "Toast", nutrients: Nutrients(energyKcal: Decimal(string: "151.6"), protein: Decimal(string: "5.25")))
        let csv = DiaryExport.csv([entry], zone: try #require(TimeZone(identifier: "Europe/Berlin")), mealTypeNames: ["snack": "Snack, late"])
        let row = csv.split(separator: "\r\n")[1]
        #expect(row.contains("2026-11-22T23:30:00Z") && row.hasSuffix(",2026-11-23 00:30,Europe/Berlin,\"Snack, late\""), "\(row)")
        #expect(row.contains(",Toast,quickAdd,,,152,5.3,") || row.contains(",Toast,quickAdd,,,152,5.2,"), "\(row)")
    }

    @Test func aZipWhoseHeaderUnderstatesItsSizeIsStillABomb() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("forkcast-liar-\(UUID()).zip")
        defer { try? FileManager.default.removeItem(at: url) }
        let size = 8 << 20
        let archive = try Archive(url: url, accessMode: .create)
        let head = Data("<?xml version=\"1.0\"?>\n<HealthData locale=\"en\">\n".utf8)
        try archive.addEntry(with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(size), compressionMethod: .deflate) { position, chunk in
            position == 0 ? head + Data(repeating: 32, count: chunk - head.count) : Data(repeating: 32, count: chunk)
        }
        // Rewrite the stated uncompressed size (local header and central directory) to 100 bytes.
        var bytes = [UInt8](try Data(contentsOf: url))
        for i in 0..<(bytes.count - 30) {
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 0x03, bytes[i + 3] == 0x04 { bytes.replaceSubrange((i + 22)..<(i + 26), with: [100, 0, 0, 0]) }
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 0x01, bytes[i + 3] == 0x02 { bytes.replaceSubrange((i + 24)..<(i + 28), with: [100, 0, 0, 0]) }
        }
        try Data(bytes).write(to: url)
        do {
            _ = try AppleHealthImport.parse(fileAt: url)
            Issue.record("the bomb was accepted")
        } catch let failure as AppleHealthImport.Failure {
            #expect(failure.message.contains("zip bomb"), "\(failure.message)")
        } catch {
            Issue.record("refused for another reason than the inflation count: \(error)")
        }
    }
}
