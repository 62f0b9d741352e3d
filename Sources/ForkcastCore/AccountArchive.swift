import Foundation

/// Everything one account holds, as `forkcast.json` inside an export archive (docs/export-format.md):
/// what `GET /api/v1/export` writes and `POST /api/v1/import` reads back. Records keep their ids and
/// the values as stored (a diary entry keeps the food's values from when it was logged), so an
/// import restores the account as it was, not as the foods are now.
public struct AccountArchive: Codable, Sendable, Hashable {
    public static let formatName = "forkcast-export"
    /// Raised when a field changes meaning or goes; new optional fields keep the version.
    public static let currentVersion = 1
    /// Where the JSON is inside the zip, and where the photos are.
    public static let documentPath = "forkcast.json"
    public static let photoFolder = "photos"

    public var format: String
    public var version: Int
    public var exportedAt: Date
    public var account: Account
    public var mealTypes: [MealType]
    public var foods: [Food]
    public var meals: [Meal]
    public var plan: [Assignment]
    public var diary: [DiaryEntry]
    public var photos: [PhotoRecord]
    public var weights: [WeightRecord]
    public var goals: Goals?
    public var bodyProfile: BodyProfile?
    /// Derived from the diary (entries of one meal type on one day), for programs that read the
    /// archive; an import ignores them and derives them again.
    public var occasions: [OccasionRecord]
    /// Shopping lists with their items (not their sharing links: a link stays with its server).
    public var shoppingLists: [ShoppingListRecord] = []
    /// The household's pantry: its lots, in the order they are used.
    public var pantry: [PantryItem] = []
    /// Its recipes' photos, one per meal at most.
    public var recipePhotos: [RecipePhotoRecord] = []

    public struct ShoppingListRecord: Codable, Sendable, Hashable {
        public var list: ShoppingList
        public var items: [ShoppingItem]
        public init(list: ShoppingList, items: [ShoppingItem]) {
            var unshared = list
            unshared.shareToken = nil
            self.list = unshared
            self.items = items
        }
    }

    public struct Account: Codable, Sendable, Hashable {
        public var email: String
        public var displayName: String?
        public var timeZone: String
        public var currency: String
        public var createdAt: Date?

        public init(email: String, displayName: String?, timeZone: String, currency: String, createdAt: Date?) {
            self.email = email
            self.displayName = displayName
            self.timeZone = timeZone
            self.currency = currency
            self.createdAt = createdAt
        }
    }

    /// A photo's facts; its bytes are the files `file` and `thumbnail` name inside the zip.
    public struct PhotoRecord: Codable, Sendable, Hashable {
        public var id: UUID
        public var format: ImageFormat
        public var width: Int
        public var height: Int
        public var capturedAt: Date
        public var createdAt: Date
        public var file: String
        public var thumbnail: String?

        public init(id: UUID, format: ImageFormat, width: Int, height: Int, capturedAt: Date, createdAt: Date, file: String, thumbnail: String?) {
            self.id = id
            self.format = format
            self.width = width
            self.height = height
            self.capturedAt = capturedAt
            self.createdAt = createdAt
            self.file = file
            self.thumbnail = thumbnail
        }

        /// The names a photo's files have inside the zip.
        public static func paths(_ id: UUID, format: ImageFormat, thumbnail: ImageFormat?) -> (file: String, thumbnail: String?) {
            let name = "\(AccountArchive.photoFolder)/\(id.uuidString.lowercased())"
            return ("\(name).\(format.fileExtension)", thumbnail.map { "\(name).thumbnail.\($0.fileExtension)" })
        }
    }

    /// A weighing as exported: the same value the server stores.
    public typealias WeightRecord = WeightEntry

    public struct OccasionRecord: Codable, Sendable, Hashable {
        public var id: UUID
        public var date: CalendarDate
        public var mealType: String
        public var entryIds: [UUID]
    }

    public init(exportedAt: Date, account: Account, mealTypes: [MealType], foods: [Food], meals: [Meal], plan: [Assignment],
                diary: [DiaryEntry], photos: [PhotoRecord], weights: [WeightRecord], goals: Goals?, bodyProfile: BodyProfile?,
                owner: UUID, shoppingLists: [ShoppingListRecord] = [], pantry: [PantryItem] = [], recipePhotos: [RecipePhotoRecord] = []) {
        format = Self.formatName
        self.recipePhotos = recipePhotos
        self.shoppingLists = shoppingLists
        self.pantry = pantry
        version = Self.currentVersion
        self.exportedAt = exportedAt
        self.account = account
        self.mealTypes = mealTypes
        self.foods = foods
        self.meals = meals
        self.plan = plan
        self.diary = diary
        self.photos = photos
        self.weights = weights
        self.goals = goals
        self.bodyProfile = bodyProfile
        occasions = OccasionSummary.group(diary, owner: owner).sorted { ($0.date, $0.firstLoggedAt) < ($1.date, $1.firstLoggedAt) }.map {
            OccasionRecord(id: $0.id, date: $0.date, mealType: $0.mealType, entryIds: $0.entries.map(\.id))
        }
    }

    private enum CodingKeys: String, CodingKey {
        case format, version, exportedAt, account, mealTypes, foods, meals, plan, diary, photos, weights, goals, bodyProfile, occasions
        case shoppingLists, pantry, recipePhotos
    }

    /// Reads an archive; `occasions`, derived from the diary and ignored by an import, may be left out.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(String.self, forKey: .format)
        version = try c.decode(Int.self, forKey: .version)
        exportedAt = try c.decode(Date.self, forKey: .exportedAt)
        account = try c.decode(Account.self, forKey: .account)
        mealTypes = try c.decode([MealType].self, forKey: .mealTypes)
        foods = try c.decode([Food].self, forKey: .foods)
        meals = try c.decode([Meal].self, forKey: .meals)
        plan = try c.decode([Assignment].self, forKey: .plan)
        diary = try c.decode([DiaryEntry].self, forKey: .diary)
        photos = try c.decode([PhotoRecord].self, forKey: .photos)
        weights = try c.decode([WeightRecord].self, forKey: .weights)
        goals = try c.decodeIfPresent(Goals.self, forKey: .goals)
        bodyProfile = try c.decodeIfPresent(BodyProfile.self, forKey: .bodyProfile)
        occasions = try c.decodeIfPresent([OccasionRecord].self, forKey: .occasions) ?? []
        // Exports from before shopping lists have none.
        shoppingLists = try c.decodeIfPresent([ShoppingListRecord].self, forKey: .shoppingLists) ?? []
        pantry = try c.decodeIfPresent([PantryItem].self, forKey: .pantry) ?? []
        recipePhotos = try c.decodeIfPresent([RecipePhotoRecord].self, forKey: .recipePhotos) ?? []
    }

    /// Writes the same JSON as encoding it whole (keys in sorted order), a record at a time, one
    /// record per line, so a large archive never has to be one string in memory.
    public func writeJSON(encoder: JSONEncoder, to sink: (Data) throws -> Void) throws {
        var first = true
        func key(_ name: String) throws {
            try sink(Data("\(first ? "{" : ",\n")\(try String(decoding: JSONEncoder().encode(name), as: UTF8.self)):".utf8))
            first = false
        }
        func value(_ name: String, _ value: some Encodable) throws {
            try key(name)
            try sink(try encoder.encode(value))
        }
        func list<T: Encodable>(_ name: String, _ items: [T]) throws {
            try key(name)
            try sink(Data("[".utf8))
            for (index, item) in items.enumerated() {
                try sink(Data((index == 0 ? "\n" : ",\n").utf8))
                try sink(try encoder.encode(item))
            }
            try sink(Data((items.isEmpty ? "]" : "\n]").utf8))
        }
        try value("account", account)
        if let bodyProfile { try value("bodyProfile", bodyProfile) }
        try list("diary", diary)
        try value("exportedAt", exportedAt)
        try list("foods", foods)
        try value("format", format)
        if let goals { try value("goals", goals) }
        try list("mealTypes", mealTypes)
        try list("meals", meals)
        try list("occasions", occasions)
        try list("pantry", pantry)
        try list("photos", photos)
        try list("plan", plan)
        try list("recipePhotos", recipePhotos)
        try list("shoppingLists", shoppingLists)
        try value("version", version)
        try list("weights", weights)
        try sink(Data("}\n".utf8))
    }

    /// How many records of each kind it holds (what an import creates), by the names of its fields.
    public var counts: [String: Int] {
        ["mealTypes": mealTypes.count, "foods": foods.count, "meals": meals.count, "plan": plan.count, "diary": diary.count,
         "photos": photos.count, "weights": weights.count, "goals": goals == nil ? 0 : 1, "bodyProfile": bodyProfile == nil ? 0 : 1,
         "shoppingLists": shoppingLists.count, "pantry": pantry.count, "recipePhotos": recipePhotos.count]
    }

    /// Problems that make it unreadable as a whole: another format, a later version, or ids that
    /// appear twice or point at records it does not hold.
    public func problems() -> [ValidationError.Field] {
        var problems: [ValidationError.Field] = []
        guard format == Self.formatName else {
            return [.init(field: "format", message: "This is not a Forkcast export (format \"\(format.prefix(40))\").")]
        }
        guard (1...Self.currentVersion).contains(version) else {
            return [.init(field: "version", message: "This export is version \(version); this server reads up to version \(Self.currentVersion). Update Forkcast first.")]
        }
        func unique(_ ids: [UUID], _ field: String) {
            if Set(ids).count != ids.count { problems.append(.init(field: field, message: "The same id appears twice in \(field).")) }
        }
        unique(mealTypes.map(\.id), "mealTypes")
        unique(foods.map(\.id), "foods")
        unique(meals.map(\.id), "meals")
        unique(plan.map(\.id), "plan")
        unique(diary.map(\.id), "diary")
        unique(photos.map(\.id), "photos")
        unique(weights.map(\.id), "weights")
        unique(shoppingLists.map(\.list.id), "shoppingLists")
        unique(shoppingLists.flatMap { $0.items.map(\.id) }, "shoppingLists.items")
        unique(pantry.map(\.id), "pantry")
        let foodIDs = Set(foods.map(\.id)), mealIDs = Set(meals.map(\.id)), photoIDs = Set(photos.map(\.id))
        for (index, meal) in meals.enumerated() where meal.ingredients.contains(where: { !foodIDs.contains($0.foodId) }) {
            problems.append(.init(field: "meals[\(index)].ingredients", message: "An ingredient of “\(meal.description.prefix(80))” names a food the export does not hold."))
        }
        for (index, assignment) in plan.enumerated() where !mealIDs.contains(assignment.mealId) {
            problems.append(.init(field: "plan[\(index)].mealId", message: "A planned meal (\(assignment.mealId)) is not among the export's meals."))
        }
        for (index, entry) in diary.enumerated() {
            if let photo = entry.photoId, !photoIDs.contains(photo) {
                problems.append(.init(field: "diary[\(index)].photoId", message: "A diary entry shows a photo (\(photo)) the export does not hold."))
            }
        }
        for (index, record) in shoppingLists.enumerated() {
            if let item = record.items.firstIndex(where: { $0.foodId.map { !foodIDs.contains($0) } ?? false }) {
                problems.append(.init(field: "shoppingLists[\(index)].items[\(item)].foodId", message: "A shopping item names a food the export does not hold."))
            }
            if record.items.contains(where: { $0.listId != record.list.id }) {
                problems.append(.init(field: "shoppingLists[\(index)].items", message: "An item of “\(record.list.name.prefix(80))” says it is on another list."))
            }
            if record.items.count > ShoppingList.maximumItems {
                problems.append(.init(field: "shoppingLists[\(index)].items", message: "A list holds at most \(ShoppingList.maximumItems) items."))
            }
        }
        if let index = pantry.firstIndex(where: { !foodIDs.contains($0.foodId) }) {
            problems.append(.init(field: "pantry[\(index)].foodId", message: "A pantry lot names a food the export does not hold."))
        }
        if pantry.count > PantryItem.maximumItems {
            problems.append(.init(field: "pantry", message: "A pantry holds at most \(PantryItem.maximumItems) lots."))
        }
        problems += photoProblems(meals: mealIDs)
        let shown = diary.compactMap(\.photoId)
        if Set(shown).count != shown.count { problems.append(.init(field: "diary", message: "A photo is shown by more than one diary entry.")) }
        return problems
    }
}
