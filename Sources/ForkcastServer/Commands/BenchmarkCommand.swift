import ForkcastContract
import ConsoleKit
import Fluent
import ForkcastCore
import Foundation
import Vapor

/// `forkcast benchmark`: seeds one account with a large library and plan, starts the server on a
/// loopback port and reports p50/p99 latency over HTTP. A command, not a test: machines are noisy.
struct BenchmarkCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Option(name: "meals", help: "Meals to seed (default 5000)") var meals: Int?
        @Option(name: "years", help: "Years of plans to seed (default 3)") var years: Int?
        @Option(name: "requests", help: "Requests per scenario (default 300)") var requests: Int?
        @Option(name: "port", help: "Loopback port (default 18080)") var port: Int?
        @Option(name: "foods", help: "Foods to seed for the search-as-you-type scenario (default 100000)") var foods: Int?
        @Option(name: "diary-years", help: "Years of daily diary entries to seed for the dashboard (default 5)") var diaryYears: Int?
    }

    var help: String { "Seed a large account and measure API latency (p50/p99)." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        let mealCount = signature.meals ?? 5000, years = signature.years ?? 3
        let requests = signature.requests ?? 300, port = signature.port ?? 18080
        try await app.prepareStorage()

        let email = "bench-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let password = "benchmark-password"
        let user = try await AccountService(db: app.db, passwords: app.password.async, now: Date())
            .register(.init(email: email, password: password), allowSignup: true, force: true)
        context.console.print("Seeding \(mealCount) meals and \(years) years of plans for \(email)…")
        let seeded = Date()
        let today = CalendarDate(Date(), in: .gmt)
        try await seed(db: app.db, ownerID: user.id!, meals: mealCount, years: years, today: today)
        let foodCount = signature.foods ?? 100_000
        try await Self.seedFoods(db: app.db, ownerID: user.id!, count: foodCount)
        let diaryYears = signature.diaryYears ?? 5
        let diaryEntries = try await seedDiary(db: app.db, ownerID: user.id!, years: diaryYears, today: today)
        context.console.print("Seeded \(foodCount) foods and \(diaryEntries) diary entries (\(diaryYears) years)")
        context.console.print(String(format: "Seeded in %.1f s", Date().timeIntervalSince(seeded)))

        try await app.server.start(address: .hostname("127.0.0.1", port: port))
        defer { Task { await app.server.shutdown() } }
        let base = "http://127.0.0.1:\(port)"
        let login = try await app.client.post(URI(string: base + "\(Auth.Login.path)")) { try $0.content.encode(["email": email, "password": password]) }
        let token = try login.content.get(String.self, at: "token")
        var headers = HTTPHeaders()
        headers.bearerAuthorization = .init(token: token)

        func measure(_ name: String, _ call: @escaping (Int) async throws -> ClientResponse) async throws {
            for i in 0..<10 { _ = try await call(-i - 1) } // warm-up
            var samples: [Double] = []
            for i in 0..<requests {
                let start = DispatchTime.now().uptimeNanoseconds
                let response = try await call(i)
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
                guard response.status.code < 300 else { throw ConfigError("\(name) answered \(response.status)") }
            }
            samples.sort()
            func pct(_ p: Double) -> Double { samples[min(samples.count - 1, Int((Double(samples.count) * p).rounded(.up)) - 1)] }
            let label = name.padding(toLength: 32, withPad: " ", startingAt: 0)
            context.console.print(label + String(format: "n=%d  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms",
                                                 samples.count, pct(0.50), pct(0.99), samples.last!))
        }

        try await measure("GET /plan (week view)") { i in
            let start = today.adding(days: 7 * ((i % 20) - 10))
            return try await app.client.get(URI(string: base + "\(Plan.Get.path)?start=\(start.iso)&days=7"), headers: headers)
        }
        try await measure("GET /meals?protein&component") { i in
            let protein = Self.proteins[abs(i) % Self.proteins.count]
            return try await app.client.get(URI(string: base + "\(Meals.List.path)?protein=\(protein)&component=garlic&per=50"), headers: headers)
        }
        try await measure("POST /meals (create)") { i in
            try await app.client.post(URI(string: base + "\(Meals.Create.path)"), headers: headers) {
                try $0.content.encode(["description": "Bench meal \(i)", "primaryProtein": "Tofu", "primaryCarb": "Rice"])
            }
        }
        let typed = ["o", "oa", "oat", "oats", "ch", "che", "chee", "cheddar", "yog", "yogh", "mil", "milk", "bre", "bread", "xyz"]
        try await measure("GET /foods?q= (\(foodCount) foods)") { i in
            let q = typed[abs(i) % typed.count]
            return try await app.client.get(URI(string: base + "\(Foods.List.path)?q=\(q)&per=20"), headers: headers)
        }
        // The dashboard as a browser loads it: sign in through the form, then GET /diary with the cookie.
        let loginPage = try await app.client.get(URI(string: "http://127.0.0.1:\(port)/login"))
        var cookie = loginPage.headers.setCookie?["forkcast-session"]?.string ?? ""
        let csrf = loginPage.body.map { String(buffer: $0) }?.firstMatch(of: /name="_csrf" value="([^"]+)"/).map { String($0.1) } ?? ""
        let signedIn = try await app.client.post(URI(string: "http://127.0.0.1:\(port)/login"), headers: ["Cookie": "forkcast-session=\(cookie)"]) {
            try $0.content.encode(["_csrf": csrf, "email": email, "password": password], as: .urlEncodedForm)
        }
        cookie = signedIn.headers.setCookie?["forkcast-session"]?.string ?? cookie
        context.console.print("Signed in for the dashboard: HTTP \(signedIn.status.code), session cookie \(cookie.isEmpty ? "missing" : "set"), csrf \(csrf.isEmpty ? "missing" : "found")")
        try await measure("GET /diary (dashboard page)") { i in
            let date = today.adding(days: -(abs(i) % 30))
            let page = try await app.client.get(URI(string: "http://127.0.0.1:\(port)/diary?date=\(date.iso)\(i % 2 == 0 ? "&range=month" : "")"),
                                                headers: ["Cookie": "forkcast-session=\(cookie)"])
            guard page.body.map({ String(buffer: $0) })?.contains("id=\"calories-remaining\"") == true else { throw ConfigError("the dashboard did not render") }
            return page
        }
        try await measure("GET \(Diary.Summary.path) (year)") { _ in
            try await app.client.get(URI(string: base + "\(Diary.Summary.path)?from=\(today.adding(days: -364).iso)&to=\(today.iso)"), headers: headers)
        }
        await app.server.shutdown()
    }

    private func seedDiary(db: any Database, ownerID: UUID, years: Int, today: CalendarDate) async throws -> Int {
        let days = 365 * years
        var count = 0
        for start in stride(from: 0, to: days, by: 100) {
            var models: [DiaryEntryModel] = []
            for d in start..<min(days, start + 100) {
                let date = today.adding(days: -d)
                for (slot, type) in ["breakfast", "lunch", "dinner", "snack"].enumerated() {
                    let entry = DiaryEntry(loggedAt: Date(timeIntervalSince1970: Double(date.dayNumber * 86400 + 28800 + slot * 14400)), date: date,
                                           mealType: type, kind: .quickAdd, name: "Entry \(d)-\(slot)",
                                           nutrients: Nutrients(energyKcal: Decimal(300 + (d * 7 + slot * 13) % 500), protein: 20, carbohydrates: 50, fat: 15), cost: 2)
                    models.append(DiaryEntryModel(entry, ownerID: ownerID, now: Date()))
                }
            }
            count += models.count
            let batch = models
            try await db.transaction { tx in try await batch.create(on: tx) }
        }
        return count
    }

    static let foodWords = ["oats", "cheddar", "yoghurt", "milk", "bread", "apple", "banana", "rice", "pasta", "tomato",
                            "chicken", "salmon", "almond", "peanut", "butter", "honey", "lentil", "bean", "spinach", "carrot"]
    static let brands = ["Mill", "Farm", "Dairy Co", "Green", "Bakery", "Ocean", "Sun", "Valley"]

    static func seedFoods(db: any Database, ownerID: UUID, count: Int) async throws {
        let now = Date()
        for batchStart in stride(from: 0, to: count, by: 1000) {
            let foods = (batchStart..<min(count, batchStart + 1000)).map { i -> Food in
                let name = "\(Self.foodWords[i % 20].capitalized) \(Self.foodWords[(i / 20) % 20]) \(i)"
                return Food(name: name, brand: Self.brands[i % 8],
                            per100: Nutrients(energyKcal: Decimal(50 + i % 400), protein: Decimal(i % 30), carbohydrates: Decimal(i % 50), fat: Decimal(i % 20)),
                            createdAt: now)
            }
            try await db.transaction { tx in
                try await foods.map { FoodModel($0, ownerID: ownerID) }.create(on: tx)
                try await foods.flatMap { FoodTermModel.rows(for: $0, ownerID: ownerID) }.create(on: tx)
            }
        }
    }

    static let proteins = ["chicken", "beef", "tofu", "salmon", "lentils", "eggs", "pork", "beans"]
    static let carbs = ["rice", "pasta", "potatoes", "bread", "quinoa", "couscous"]
    static let components = ["garlic", "onion", "spinach", "tomato", "peppers", "cheese", "herbs", "chili", "lemon", "mushrooms"]

    private func seed(db: any Database, ownerID: UUID, meals: Int, years: Int, today: CalendarDate) async throws {
        var ids: [UUID] = []
        let now = Date()
        for batchStart in stride(from: 0, to: meals, by: 500) {
            ids += try await db.transaction { tx in
                var batchIDs: [UUID] = []
                var mealModels: [MealModel] = [], componentModels: [MealComponentModel] = []
                for i in batchStart..<min(meals, batchStart + 500) {
                    let draft = MealDraft(description: "Meal \(i) \(Self.proteins[i % 8]) with \(Self.carbs[i % 6])",
                                          primaryProtein: Self.proteins[i % 8].capitalized, primaryCarb: Self.carbs[i % 6].capitalized,
                                          otherComponents: (0..<(i % 4)).map { Self.components[(i + $0 * 3) % 10] })
                    let content = try draft.validated()
                    let id = UUID()
                    batchIDs.append(id)
                    mealModels.append(MealModel(id: id, ownerID: ownerID, content: content, now: now))
                    componentModels += content.otherComponents.enumerated().map {
                        MealComponentModel(mealID: id, ownerID: ownerID, position: $0.offset, name: $0.element)
                    }
                }
                try await mealModels.create(on: tx)
                if !componentModels.isEmpty { try await componentModels.create(on: tx) }
                return batchIDs
            }
        }
        let days = 365 * years
        let first = today.adding(days: -days / 2)
        var assignments: [AssignmentModel] = []
        for d in 0..<days {
            for slot in 0..<3 {
                assignments.append(AssignmentModel(id: UUID(), ownerID: ownerID, mealID: ids[(d * 3 + slot * 7) % ids.count],
                                                   date: first.adding(days: d), createdAt: now))
            }
        }
        for start in stride(from: 0, to: assignments.count, by: 500) {
            let batch = Array(assignments[start..<min(start + 500, assignments.count)])
            try await db.transaction { tx in try await batch.create(on: tx) }
        }
    }
}

/// `forkcast seed-foods --email E --count N`: adds N generated foods (with their search words) to an
/// existing account straight into the database, for benchmarks of food search at scale
/// (`scripts/bench.sh`). Not for real accounts.
struct SeedFoodsCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Option(name: "email", help: "The account to add foods to") var email: String?
        @Option(name: "count", help: "How many foods (default 100000)") var count: Int?
    }

    var help: String { "Benchmarks only: add generated foods to an account." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        guard let email = signature.email?.lowercased(),
              let user = try await UserModel.query(on: app.db).filter(\.$emailKey == email).first() else {
            throw ConfigError("--email must name an existing account")
        }
        let count = max(0, min(signature.count ?? 100_000, 1_000_000))
        try await BenchmarkCommand.seedFoods(db: app.db, ownerID: try user.requireID(), count: count)
        context.console.print("Added \(count) foods to \(email).")
    }
}
