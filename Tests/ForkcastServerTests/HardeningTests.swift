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
}
