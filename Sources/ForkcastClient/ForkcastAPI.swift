@_exported import ForkcastContract
import ForkcastCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request; swappable so apps can use their own networking and tests can cut the
/// line at the worst moment.
public protocol ForkcastTransport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// The platform's URLSession.
public struct URLSessionTransport: ForkcastTransport {
    public let session: URLSession
    public init(session: URLSession = .shared) { self.session = session }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw ForkcastError.transport("not an HTTP answer") }
        return (data, http)
    }
}

/// What went wrong, as a person or an app can act on it.
public enum ForkcastError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with an RFC 9457 problem.
    case problem(status: Int, title: String, detail: String, fields: [ValidationError.Field])
    /// The server could not be reached (nothing is known to have been saved).
    case transport(String)
    /// The answer could not be read.
    case decoding(String)

    public var description: String {
        switch self {
        case .problem(let status, let title, let detail, _): "\(title) (\(status)): \(detail)"
        case .transport(let why): "Forkcast could not be reached: \(why)"
        case .decoding(let why): "Unexpected answer: \(why)"
        }
    }
}

/// Typed calls for Forkcast's API v1: each sends one of ForkcastContract's operations with the
/// contract's request and answer types (Foundation only, so an iOS or macOS app links it beside
/// ForkcastCore without a generator plugin in its build).
public struct ForkcastAPI: Sendable {
    public let baseURL: URL
    public var token: String?
    public let transport: any ForkcastTransport

    public init(baseURL: URL, token: String? = nil, transport: any ForkcastTransport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.token = token
        self.transport = transport
    }

    // MARK: Shapes

    /// The signed-in person (ForkcastContract's answer).
    public typealias User = UserAnswer
    /// A session: the bearer token and who it signs in.
    public typealias Session = SessionAnswer

    /// A meal of the library (ForkcastContract's answer).
    public typealias Meal = MealAnswer
    /// A food of the library (ForkcastContract's answer).
    public typealias Food = FoodAnswer

    /// One page of a list (ForkcastContract's paging envelope).
    public typealias Page<Item: Codable & Sendable> = ForkcastContract.Page<Item>

    /// One change of the feed, its record as JSON (ForkcastContract's).
    public typealias Change = SyncChange<JSON>
    public typealias Changes = SyncChanges<JSON>
    /// One change a device pushes.
    public typealias Mutation = PushedMutation
    public typealias PushResult = SyncPushResult

    /// A meal planned on a day, in a meal slot or none (ForkcastContract's answer).
    public typealias Assignment = AssignmentAnswer

    /// Something eaten, as the diary keeps it (ForkcastContract's answer).
    public typealias DiaryEntry = DiaryEntryAnswer
    public typealias PhotoRef = PhotoRefAnswer
    public typealias Photo = PhotoAnswer

    /// A meal type (seed 004): the id stays when it is renamed.
    /// A meal type (ForkcastContract's answer); `MealType.Window` is its suggestion window.
    public typealias MealType = MealTypeAnswer

    /// What was eaten under one meal type on one day (ForkcastContract's answer).
    public typealias Occasion = OccasionAnswer

    /// An RFC 9457 problem answer (ForkcastContract's).
    public typealias Problem = ForkcastContract.Problem

    // MARK: Calls

    /// Creates an account; `invitation` is an invitation link's token (``createInvitation()``), which
    /// creates it while sign-up is closed.
    public func register(email: String, password: String, displayName: String? = nil, timeZone: String? = nil,
                         invitation: String? = nil) async throws -> Session {
        try await send(Auth.Register.self, body: RegisterInput(email: email, password: password, displayName: displayName, timeZone: timeZone,
                                                               invitation: invitation))
    }

    public func login(email: String, password: String) async throws -> Session {
        try await send(Auth.Login.self, body: LoginInput(email: email, password: password))
    }

    /// Revokes this client's token.
    public func logout() async throws { _ = try await send(Auth.Logout.self, Nothing()) }

    /// Sign in with Apple: the identity token `ASAuthorizationAppleIDCredential` gave the app, the
    /// raw nonce whose SHA-256 the app put in the request, and the name Apple told it (first sign-in
    /// only). With a bearer token set, links Apple to that account instead.
    public func signInWithApple(identityToken: String, nonce: String?, displayName: String? = nil) async throws -> Session {
        try await send(Auth.Apple.self, body: AppleSignInInput(identityToken: identityToken, nonce: nonce, displayName: displayName))
    }

    /// How this account signs in.
    public func signInMethods() async throws -> SignInMethods { try await send(Identities.List.self, Nothing()) }

    /// Unlinks Apple (`apple`) or the OpenID Connect provider (`oidc`).
    public func unlinkIdentity(_ provider: SignInProvider) async throws {
        _ = try await send(Identities.Unlink.self, ProviderParameter(provider))
    }

    /// The invitation links waiting (the server's owner only), newest first.
    public func invitations() async throws -> [InvitationAnswer] { try await send(Invitations.List.self, Nothing()) }

    /// Makes a one-time sign-up link (the server's owner only); its `link` and `token` are in this
    /// answer only.
    public func createInvitation() async throws -> InvitationAnswer { try await send(Invitations.Create.self, Nothing()) }

    /// Revokes a link waiting to be used.
    public func revokeInvitation(_ id: UUID) async throws { _ = try await send(Invitations.Revoke.self, IDParameter(id)) }

    public func me() async throws -> User { try await send(Me.Get.self, Nothing()) }

    /// Changes the display name, time zone or currency (nil: unchanged; an empty name clears it).
    public func updateMe(_ input: ProfileInput) async throws -> User { try await send(Me.Update.self, body: input) }

    /// A page of the meal library, filtered (protein, carb, components, text).
    public func meals(_ query: MealQuery = MealQuery()) async throws -> Page<Meal> { try await send(Meals.List.self, query) }

    public func createMeal(_ input: MealInput) async throws -> Meal { try await send(Meals.Create.self, body: input) }

    public func meal(_ id: UUID) async throws -> Meal { try await send(Meals.Get.self, MealParameters(id)) }

    public func updateMeal(_ id: UUID, _ input: MealInput) async throws -> Meal { try await send(Meals.Update.self, MealParameters(id), body: input) }

    public func deleteMeal(_ id: UUID) async throws { _ = try await send(Meals.Delete.self, IDParameter(id)) }

    /// The plan of `days` days from `start` (default the 7 days from today).
    public func plan(start: CalendarDate? = nil, days: Int? = nil) async throws -> PlanAnswer {
        try await send(Plan.Get.self, PlanQuery(start: start, days: days))
    }

    /// Plans a meal on a day, optionally in a meal slot (a meal type's key or id), making `servings`
    /// portions (nil: the meal's own).
    public func assign(mealId: UUID, date: CalendarDate, mealType: String? = nil, servings: Int? = nil) async throws -> Assignment {
        try await send(Plan.Assign.self, body: AssignmentInput(mealId: mealId, date: date, mealType: mealType, servings: servings))
    }

    /// Changes a planned meal: its meal, day, slot or portions.
    public func updateAssignment(_ id: UUID, _ input: AssignmentInput) async throws -> Assignment {
        try await send(Plan.UpdateAssignment.self, IDParameter(id), body: input)
    }

    /// Plans several meals at once, all or none (accepting suggestions).
    public func assign(_ inputs: [AssignmentInput]) async throws -> [Assignment] {
        try await send(Plan.AssignMany.self, body: AssignmentsInput(assignments: inputs))
    }

    /// "Fill my week": meals for the empty slots, closest to the goals; nothing is planned.
    public func suggestions(_ input: SuggestionsInput) async throws -> SuggestionsAnswer { try await send(Plan.Suggest.self, body: input) }

    // Shopping lists

    public func shoppingLists(page: Int? = nil, per: Int? = nil) async throws -> Page<ShoppingListSummaryAnswer> {
        try await send(ShoppingLists.List.self, PageQuery(page: page, per: per))
    }

    /// A list from the plan of `from` … `to`: every ingredient, scaled by the portions planned, summed per food.
    public func makeShoppingList(from: CalendarDate, to: CalendarDate, name: String? = nil) async throws -> ShoppingListAnswer {
        try await send(ShoppingLists.Create.self, body: ShoppingListInput(from: from, to: to, name: name))
    }

    public func shoppingList(_ id: UUID) async throws -> ShoppingListAnswer { try await send(ShoppingLists.Get.self, IDParameter(id)) }

    /// Reads the plan again: quantities follow it, checked marks and your own items stay.
    public func refreshShoppingList(_ id: UUID) async throws -> ShoppingListAnswer { try await send(ShoppingLists.Refresh.self, IDParameter(id)) }

    public func deleteShoppingList(_ id: UUID) async throws { _ = try await send(ShoppingLists.Delete.self, IDParameter(id)) }

    public func addShoppingItem(to list: UUID, _ input: ShoppingItemInput) async throws -> ShoppingItemAnswer {
        try await send(ShoppingLists.AddItem.self, IDParameter(list), body: input)
    }

    /// Checks an item off (or back on), or changes its name, amount or aisle.
    public func updateShoppingItem(_ item: UUID, on list: UUID, _ change: ShoppingItemUpdate) async throws -> ShoppingItemAnswer {
        try await send(ShoppingLists.UpdateItem.self, ShoppingItemParameters(id: list, itemId: item), body: change)
    }

    public func deleteShoppingItem(_ item: UUID, on list: UUID) async throws {
        _ = try await send(ShoppingLists.DeleteItem.self, ShoppingItemParameters(id: list, itemId: item))
    }

    /// A link that opens the list without an account (read and check off), until revoked.
    public func shareShoppingList(_ id: UUID) async throws -> ShoppingShareAnswer { try await send(ShoppingLists.Share.self, IDParameter(id)) }

    public func unshareShoppingList(_ id: UUID) async throws { _ = try await send(ShoppingLists.Unshare.self, IDParameter(id)) }

    public func unassign(_ id: UUID) async throws { _ = try await send(Plan.Unassign.self, IDParameter(id)) }

    /// A page of your foods, searched by name or brand.
    public func foods(matching text: String? = nil, page: Int? = nil, per: Int? = nil) async throws -> Page<Food> {
        try await send(Foods.List.self, FoodQuery(q: text, page: page, per: per))
    }

    public func createFood(_ input: FoodInput) async throws -> Food { try await send(Foods.Create.self, body: input) }

    /// Foods of the shared catalogue (USDA FoodData Central), best match first; `text` of 2
    /// characters or more. A catalogue food already made yours has its `foodId`.
    public func catalog(matching text: String, page: Int? = nil, per: Int? = nil) async throws -> Page<CatalogFoodAnswer> {
        try await send(Foods.Catalog.self, CatalogQuery(q: text, page: page, per: per))
    }

    /// The catalogue food made one of your foods (the same food when it already is one).
    public func adopt(catalogId: String) async throws -> Food { try await send(Foods.Import.self, body: FoodImportInput(catalogId: catalogId)) }

    /// The nutrients Forkcast tracks, with their units and daily values.
    public func nutrients() async throws -> [NutrientAnswer] { try await send(NutrientDefinitions.List.self, Nothing()).items }

    /// A food by barcode: yours, else an Open Food Facts product (its id nil until imported).
    public func lookUpBarcode(_ code: String) async throws -> BarcodeLookup { try await send(Foods.LookUpBarcode.self, BarcodeParameter(code)) }

    /// Logs what was eaten: a food amount, servings of a meal, a quick add, or a photo to count later.
    public func log(_ input: DiaryEntryInput) async throws -> DiaryEntry { try await send(Diary.Log.self, body: input) }

    /// Logs several items at once to one meal type (all or nothing).
    public func logPlate(_ input: PlateInput) async throws -> [DiaryEntry] { try await send(Diary.Plate.self, body: input) }

    /// A day of the diary (default today): entries by meal type, totals, goals and what remains.
    public func diaryDay(_ date: CalendarDate? = nil) async throws -> DiaryDayAnswer { try await send(Diary.Day.self, DayQuery(date: date)) }

    public func deleteEntry(_ id: UUID) async throws { _ = try await send(Diary.Delete.self, IDParameter(id)) }

    /// Logs one serving of a planned meal: into `mealType`, else its plan slot.
    public func logPlanned(_ assignmentId: UUID, mealType: String? = nil) async throws -> DiaryEntry {
        try await send(Diary.LogPlanned.self, body: LogPlannedInput(assignmentId: assignmentId, mealType: mealType))
    }

    /// Eats a meal of another day again (say yesterday's breakfast), as it was logged.
    public func copyMeal(from: CalendarDate, fromMealType: String, to: CalendarDate? = nil, mealType: String? = nil) async throws -> [DiaryEntry] {
        try await send(Diary.Copy.self, body: CopyMealInput(from: from, fromMealType: fromMealType, to: to, mealType: mealType))
    }

    // Seed 004: meal types, photos, occasions, time edits.

    public func mealTypes() async throws -> [MealType] { try await send(MealTypes.List.self, Nothing()) }

    public func createMealType(_ name: String, window: MealTypeWindow? = nil) async throws -> MealType {
        try await send(MealTypes.Create.self, body: MealTypeInput(displayName: name, window: window.map { .some($0) }))
    }

    /// Renames a type, or hides it, or moves it (`position`, 0 = first); nil fields stay.
    public func updateMealType(_ id: UUID, name: String? = nil, hidden: Bool? = nil, position: Int? = nil) async throws -> MealType {
        try await send(MealTypes.Update.self, IDParameter(id), body: MealTypeInput(displayName: name, position: position, hidden: hidden))
    }

    /// The type the person's windows suggest at an instant (in their time zone).
    public func suggestedMealType(at instant: Date) async throws -> MealType {
        try await send(MealTypes.Suggestion.self, SuggestionQuery(at: instant))
    }

    /// Uploads a photo (JPEG, PNG, WebP or HEIC bytes); the server strips its metadata.
    public func uploadPhoto(_ data: Data, capturedAt: Date? = nil) async throws -> Photo {
        try await upload(Photos.Upload.self, PhotoUploadQuery(capturedAt: capturedAt), data, contentType: "application/octet-stream")
    }

    /// A photo's image (or its thumbnail) as stored, without its metadata.
    public func photoImage(_ id: UUID, thumbnail: Bool = false) async throws -> Data {
        thumbnail ? try await download(Photos.Thumbnail.self, IDParameter(id)) : try await download(Photos.Image.self, IDParameter(id))
    }

    /// A photo entry, not counted yet, in `mealType` (default: the suggested one) on `date` (default today).
    public func logPhoto(_ photoId: UUID, mealType: String? = nil, date: CalendarDate? = nil) async throws -> DiaryEntry {
        try await log(DiaryEntryInput(date: date, mealType: mealType, photoId: photoId))
    }

    /// Changes an entry: a new amount, or only its meal type, time, note, name or photo.
    public func editEntry(_ id: UUID, _ change: DiaryEntryInput) async throws -> DiaryEntry {
        try await send(Diary.Edit.self, IDParameter(id), body: DiaryEntryUpdate(change))
    }

    /// Counts a photo entry (or corrects a quick add) with calories.
    public func countEntry(_ id: UUID, energyKcal: Decimal, name: String? = nil) async throws -> DiaryEntry {
        try await editEntry(id, DiaryEntryInput(quickAdd: .init(energyKcal: energyKcal), name: name))
    }

    /// Changes when an entry was eaten. When that moves it to another occasion the server answers
    /// 409 (`occasion-change`) unless `confirmMove` is true.
    public func editTime(_ id: UUID, loggedAt: Date, confirmMove: Bool = false) async throws -> DiaryEntry {
        try await editEntry(id, DiaryEntryInput(loggedAt: loggedAt, confirmMove: confirmMove))
    }

    /// History, newest first: occasions on days before `before` (or up to `date`).
    public func occasions(before: CalendarDate? = nil, date: CalendarDate? = nil, limit: Int = 20) async throws -> [Occasion] {
        try await send(Occasions.List.self, OccasionQuery(before: before, date: date, limit: limit))
    }

    public func occasion(_ id: UUID) async throws -> Occasion { try await send(Occasions.Get.self, IDParameter(id)) }

    public func changes(since cursor: String?, limit: Int = 500) async throws -> Changes {
        try await send(Sync.Changes.self, SyncChangesQuery(since: cursor, limit: limit))
    }

    /// Sends a device's changes. `sentAt` is the device's clock now: the server takes off every
    /// `updatedAt` whatever it runs ahead of the server's, so a fast clock cannot win over edits
    /// made after its own.
    public func push(deviceId: String, mutations: [Mutation], sentAt: Date = Date()) async throws -> PushResult {
        try await send(Sync.Push.self, body: SyncPushInput(deviceId: deviceId, sentAt: sentAt, mutations: mutations))
    }

    // MARK: Your data

    /// What an import created (or, in a dry run, would create), by the export's field names.
    public typealias ImportReport = AccountImportReport

    /// The whole account as the export zip (forkcast.json, photos, diary.csv); see docs/export-format.md.
    public func exportAccount() async throws -> Data {
        try await download(Me.Export.self, Nothing(), timeout: 600)
    }

    /// Restores an export zip into this account, which must be empty; `dryRun` checks it and changes nothing.
    public func importAccount(_ archive: Data, dryRun: Bool = false) async throws -> ImportReport {
        try await upload(Me.Import.self, DryRunQuery(dryRun: dryRun ? true : nil), archive, contentType: "application/zip", timeout: 600)
    }

    /// Deletes the account and everything of it; the password is asked for again. The token ends with it.
    public func deleteAccount(password: String) async throws {
        _ = try await send(Me.Delete.self, body: DeleteAccountInput(password: password))
    }

    /// Deletes an account without a password: `identityToken` from a sign-in in the last ten minutes.
    public func deleteAccount(identityToken: String, nonce: String?) async throws {
        _ = try await send(Me.Delete.self, body: DeleteAccountInput(identityToken: identityToken, nonce: nonce))
    }

    // MARK: Operations of ForkcastContract

    /// Calls one operation of API v1 as ForkcastContract defines it: its path and query from
    /// `parameters`, its body, and its typed answer. An operation removed from the contract no longer
    /// builds here.
    public func send<Op: APIOperation>(_ operation: Op.Type, _ parameters: Op.Parameters, body: Op.Body) async throws -> Op.Answer {
        precondition(Op.rawBody == nil && Op.rawAnswer == nil, "\(Op.id) sends or answers bytes: call upload or download")
        let data = try await bytes(Op.self, parameters, body: Op.Body.self == Nothing.self ? nil : try Self.encoder.encode(body),
                                   contentType: "application/json")
        if Op.Answer.self == Nothing.self { return Nothing() as! Op.Answer }
        return try Self.answer(Op.Answer.self, from: data)
    }

    /// Calls an operation whose body is bytes (``APIOperation/rawBody``: a photo, an archive).
    public func upload<Op: APIOperation>(_ operation: Op.Type, _ parameters: Op.Parameters, _ data: Data, contentType: String,
                                         timeout: TimeInterval = 120) async throws -> Op.Answer {
        let answer = try await bytes(Op.self, parameters, body: data, contentType: contentType, timeout: timeout)
        if Op.Answer.self == Nothing.self { return Nothing() as! Op.Answer }
        return try Self.answer(Op.Answer.self, from: answer)
    }

    /// Calls an operation whose answer is bytes (``APIOperation/rawAnswer``: a file).
    public func download<Op: APIOperation>(_ operation: Op.Type, _ parameters: Op.Parameters, timeout: TimeInterval = 120) async throws -> Data {
        try await bytes(Op.self, parameters, body: nil, contentType: "application/json", timeout: timeout)
    }

    /// The answer's bytes of one operation: its path and query from `parameters`.
    private func bytes<Op: APIOperation>(_ operation: Op.Type, _ parameters: Op.Parameters, body: Data?, contentType: String,
                                         timeout: TimeInterval = 30) async throws -> Data {
        var values: [String: String] = [:]
        var query: [URLQueryItem] = []
        let inPath = Set(Op.path.parameterNames)
        for (name, value) in try ParameterEncoder.encode(parameters) {
            if inPath.contains(name) { values[name] = value } else { query.append(URLQueryItem(name: name, value: value)) }
        }
        let path = String(Op.path.filled(values).dropFirst())
        return try await send(Op.method.rawValue, path, query: query, body: body, contentType: contentType, timeout: timeout)
    }

    public func send<Op: APIOperation>(_ operation: Op.Type, _ parameters: Op.Parameters) async throws -> Op.Answer where Op.Body == Nothing {
        try await send(operation, parameters, body: Nothing())
    }

    public func send<Op: APIOperation>(_ operation: Op.Type, body: Op.Body) async throws -> Op.Answer where Op.Parameters == Nothing {
        try await send(operation, Nothing(), body: body)
    }

    /// A page of weighings, newest first.
    public func weights(page: Int? = nil, per: Int? = nil) async throws -> Page<WeightEntry> {
        try await send(Weights.List.self, PageQuery(page: page, per: per))
    }

    /// Records a weighing (kg, or pounds when kg is nil); refused with 409 when one exists at that instant.
    public func recordWeight(_ input: WeightInput) async throws -> WeightEntry {
        try await send(Weights.Record.self, body: input)
    }

    public func deleteWeight(_ id: UUID) async throws {
        _ = try await send(Weights.Delete.self, IDParameter(id))
    }

    // MARK: Plumbing

    /// Instants with milliseconds, so two changes in the same second keep their order.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            var container = encoder.singleValueContainer()
            try container.encode(formatter.string(from: date))
        }
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = Instant.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an instant: \(text)"))
            }
            return date
        }
        return decoder
    }()

    /// An answer's body as `T`; one that does not read is ``ForkcastError/decoding(_:)``.
    private static func answer<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do { return try decoder.decode(T.self, from: data) } catch { throw ForkcastError.decoding(String(describing: error)) }
    }

    /// The answer's bytes; a problem answer is thrown as ``ForkcastError/problem(status:title:detail:fields:)``.
    private func send(_ method: String, _ path: String, query: [URLQueryItem], body: Data?, contentType: String,
                      timeout: TimeInterval = 30) async throws -> Data {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        // An operation's path is already percent-encoded (PathTemplate.filled): appended as it is.
        components.percentEncodedPath = String(components.percentEncodedPath.trimmingSuffix("/")) + "/" + path
        if !query.isEmpty {
            components.queryItems = query
            // URLComponents leaves "+" as it is, which a server reads as a space ("C++" would be "C  ").
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        let data: Data, response: HTTPURLResponse
        do { (data, response) = try await transport.send(request) } catch let error as ForkcastError { throw error } catch {
            throw ForkcastError.transport(String(describing: error))
        }
        guard (200..<300).contains(response.statusCode) else {
            if let problem = try? Self.decoder.decode(Problem.self, from: data) {
                throw ForkcastError.problem(status: problem.status, title: problem.title, detail: problem.detail, fields: problem.errors ?? [])
            }
            throw ForkcastError.problem(status: response.statusCode, title: "HTTP \(response.statusCode)", detail: String(decoding: data.prefix(300), as: UTF8.self), fields: [])
        }
        return data
    }
}

/// Records travel as JSON in the shape of their resource (ForkcastCore's JSONValue).
public typealias JSON = JSONValue

extension StringProtocol {
    /// The text without one trailing `suffix` (a base URL's "/").
    func trimmingSuffix(_ suffix: String) -> SubSequence { hasSuffix(suffix) ? dropLast(suffix.count) : self[...] }
}
