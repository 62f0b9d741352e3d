@testable import ForkcastServer
import ForkcastContract
import ForkcastCore
import Foundation
import Testing
import VaporTesting

/// The web pages' models and server-side behaviour, without a browser (the browser suite covers the rest).
@Suite("Web pages")
struct WebPageTests {
    @Test func userTextIsEscapedInPages() {
        let name = "<script>alert('x')</script> & \"friends\""
        let html: HTML = "<p>\(name)</p>"
        #expect(html.html == "<p>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;friends&quot;</p>")
        let item = MealRepository.Listed(meal: Meal(description: name), isPlanned: false)
        #expect(!MealListPage.card(item, csrf: "t", today: CalendarDate(year: 2026, month: 11, day: 23)!).html.contains("<script>"))
    }

    @Test func theListModelPutsPlannedMealsLastAndCountsTheLibrary() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let soup = try await client.createMeal("Soup", protein: "Lentils")
            _ = try await client.createMeal("Toast")
            _ = try await client.assign(soup.id, on: "2026-11-23")
            let user = try #require(try await UserModel.query(on: app.db).first())
            let owner = try Owner(user: user, db: app.db, now: Date(), uuid: { UUID() }, application: app)
            let window = WeekWindow(start: CalendarDate(iso: "2026-11-21")!)
            let model = try await owner.mealList(filter: MealFilter(), window: window)
            #expect(model.items.map(\.meal.description) == ["Toast", "Soup"])
            #expect(model.items.map(\.isPlanned) == [false, true])
            let filtered = try await owner.mealList(filter: MealFilter(protein: "lentils"), window: window)
            #expect(filtered.items.count == 1 && filtered.libraryCount == 2)
            let html = MealListPage(model: filtered, csrf: "t").results.html
            #expect(html.contains("1 of 2 meals match"))
            #expect(html.contains("class=\"meal card planned\""))
        }
    }

    @Test func thePlannerModelHasSevenDaysWithTodayMarked() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let meal = try await client.createMeal("Pancakes")
            _ = try await client.assign(meal.id, on: "2026-11-22")
            let user = try #require(try await UserModel.query(on: app.db).first())
            let today = CalendarDate(iso: "2026-11-21")!
            let model = try await Owner(user: user, db: app.db, now: Date(), uuid: { UUID() }, application: app).plannerWeek(start: today, today: today)
            #expect(model.days.count == 7)
            #expect(model.days[1].entries.map(\.meal.description) == ["Pancakes"])
            let html = PlannerPage(model: model, csrf: "t").week.html
            #expect(html.contains("id=\"day-2026-11-21\""))
            #expect(html.contains("class=\"day card today\""))
            #expect(html.contains("Sunday") && html.contains("22 November 2026"))
            #expect(PlannerPage.rangeTitle(WeekWindow(start: CalendarDate(iso: "2026-12-29")!)) == "29 December 2026 – 4 January 2027")
        }
    }

    /// Planned for breakfast and eaten at lunch: Today and the planner both call it logged, by one rule.
    @Test func thePlannerAndTodayAgreeOnWhatWasLogged() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let pho = try await client.createMeal("Phở")
            let planned = try await client.send(.POST, "/api/v1/plan/assignments", json: ["mealId": pho.id.uuidString, "date": "2026-11-21", "mealType": "breakfast"])
            let assignment = try planned.json(TestAssignment.self).id
            let other = try await client.assign(try await client.createMeal("Toast").id, on: "2026-11-21").json(TestAssignment.self).id
            struct Eaten: Encodable { var mealId: UUID; var servings: Decimal; var date: String; var mealType: String }
            #expect(try await client.send(.POST, "/api/v1/diary/entries", json: Eaten(mealId: pho.id, servings: 1.5, date: "2026-11-21", mealType: "lunch")).status == .created)
            let user = try #require(try await UserModel.query(on: app.db).first())
            let owner = try Owner(user: user, db: app.db, now: Date(), uuid: { UUID() }, application: app)
            let today = CalendarDate(iso: "2026-11-21")!
            let week = try await owner.plannerWeek(start: today, today: today)
            let dashboard = try await owner.dashboard(date: today, range: "week")
            #expect(week.logged == [assignment] && dashboard.logged == week.logged)
            let html = PlannerPage(model: week, csrf: "t").week.html
            let rows = html.components(separatedBy: "<li class=\"planned-meal\"")
            let phoRow = try #require(rows.first { $0.contains("assignment-\(assignment.uuidString)") })
            let toastRow = try #require(rows.first { $0.contains("assignment-\(other.uuidString)") })
            #expect(phoRow.contains("✓ Logged") && !phoRow.contains("log-button"))
            #expect(toastRow.contains("log-button") && !toastRow.contains("✓ Logged"))
        }
    }

    /// The planner's Shopping list button twice makes one list, read from the plan again; a week
    /// with nothing planned makes none.
    @Test func thePlannersShoppingButtonKeepsOneListPerWeek() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            _ = try await client.assign(try await client.createMeal("Chili").id, on: "2026-11-23")
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let token = try await browser.csrf(from: "/plan?start=2026-11-23")
            let week = ["_csrf": token, "from": "2026-11-23", "to": "2026-11-29", "week": "1"]
            let first = try await browser.send(.POST, "/shopping", form: week)
            let again = try await browser.send(.POST, "/shopping", form: week)
            #expect(first.status == .seeOther && again.headers.first(name: .location) == first.headers.first(name: .location))
            #expect(try await ShoppingListModel.query(on: app.db).count() == 1)
            let empty = try await browser.send(.POST, "/shopping", form: ["_csrf": token, "from": "2026-11-30", "to": "2026-12-06", "week": "1"])
            #expect(empty.headers.first(name: .location) == "/plan?start=2026-11-30")
            #expect(try await ShoppingListModel.query(on: app.db).count() == 1)
            // The Shopping page's own form still makes a list when asked, even a second one.
            _ = try await browser.send(.POST, "/shopping", form: ["_csrf": token, "from": "2026-11-23", "to": "2026-11-29"])
            #expect(try await ShoppingListModel.query(on: app.db).count() == 2)
        }
    }

    @Test func pagesNeedASignedInUser() async throws {
        try await withForkcast { app in
            let first = try await app.anonymous.get("/meals")
            #expect(first.status == .seeOther)
            #expect(first.headers.first(name: .location) == "/setup")
            _ = try await app.signUp()
            let later = try await app.anonymous.get("/plan?start=2026-11-23")
            #expect(later.status == .seeOther)
            #expect(later.headers.first(name: .location)?.hasPrefix("/login?next=/plan") == true)
        }
    }

    @Test func formsWithoutTheTokenAreRefused() async throws {
        try await withForkcast { app in
            let response = try await app.anonymous.send(.POST, "/setup", raw: "email=a%40b.c&password=password123",
                                                        contentType: "application/x-www-form-urlencoded")
            #expect(response.status == .forbidden)
            #expect(response.headers.contentType == .html, "people get a page, not JSON")
            #expect(try await UserModel.query(on: app.db).count() == 0)
        }
    }

    @Test func signInOnlyRedirectsToLocalPaths() {
        #expect(WebAuthController.safeNext("/meals?protein=x") == "/meals?protein=x")
        #expect(WebAuthController.safeNext("//evil.example") == "/diary")
        #expect(WebAuthController.safeNext("https://evil.example") == "/diary")
        #expect(WebAuthController.safeNext(nil) == "/diary")
    }

    /// SiteURL is the one description of the web app's addresses: every web route registered is one
    /// of its patterns and every pattern is registered; pages hold no literal paths.
    @Test func everyWebRouteComesFromSiteURL() async throws {
        try await withForkcast { app in
            let registered = Set(app.routes.all.map { "/" + $0.path.map(\.description).joined(separator: "/") }
                .filter { !$0.hasPrefix("/api/") && $0 != "/healthz" })
            #expect(registered == Set(SiteURL.pages.map(\.template)))
        }
        let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ForkcastServer/Web")
        let files = FileManager.default.enumerator(at: web, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && $0.lastPathComponent != "SiteURL.swift" }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            // Both as written in a Swift string (`src=\"/`) and as it reads in a raw one (`src="/`).
            for literal in ["href=\"/", "action=\"/", "href=\\\"/", "redirect(to: \"/", "src=\"/", "src=\\\"/", "action=\\\"/"] {
                #expect(!text.contains(literal), "\(file.lastPathComponent) has a literal path (\(literal))")
            }
        }
    }

    /// The scripts decide no limit or window: every page states ForkcastCore's (outbox.js reads them
    /// from `<body>`: the plate's items, a push's mutations, Undo's seconds, how long a deletion left
    /// with its page is kept, how long signing out waits for it).
    @Test func everyPageStatesCoresLimitsAndWindows() {
        let html = Layout(title: "Today", csrf: "t", account: UUID()).render("<p>x</p>").html
        #expect(html.contains("data-plate-limit=\"\(DiaryValidation.maximumPlateItems)\""))
        #expect(html.contains("data-push-limit=\"\(SyncPushInput.maximumMutations)\""))
        #expect(html.contains("data-undo-seconds=\"\(UndoWindow.seconds)\""))
        #expect(html.contains("data-left-delete-seconds=\"86400\""))
        #expect(html.contains("data-sign-out-wait-seconds=\"\(UndoWindow.signOutWaitSeconds)\""))
        let script = try? String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ForkcastServer/Public/js/outbox.js"), encoding: .utf8)
        for attribute in ["undoSeconds", "leftDeleteSeconds", "signOutWaitSeconds"] {
            #expect(script?.contains("document.body.dataset.\(attribute))") == true, "outbox.js reads \(attribute) from the page")
        }
    }

    @Test func siteURLsEncodeFilters() {
        let url = SiteURL.meals(MealFilter(protein: "Crème & co", components: ["a b", "c"])).path
        #expect(url == "/meals?protein=Cr%C3%A8me%20%26%20co&component=a%20b&component=c")
    }
}
