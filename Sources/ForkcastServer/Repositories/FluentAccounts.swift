import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit

/// The server's ``Accounts``: users, their linked sign-ins and the lock account creation holds.
struct FluentAccounts: Accounts {
    let db: any Database
    /// The adapter's model of the account being created, filled in place by the insert (its
    /// timestamps), so the adapter signs in the account it holds.
    var pending: UserModel?
    /// Where photos' files are, for deleting an account.
    var photoStore: (any PhotoStore)?

    func write<T: Sendable>(_ body: @escaping @Sendable (any AccountRecords) async throws -> T) async throws -> T {
        let pending = pending, photoStore = photoStore
        return try await db.write { tx in try await body(Records(db: tx, pending: pending, photoStore: photoStore)) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any AccountRecords) async throws -> T) async throws -> T {
        try await body(Records(db: db, pending: nil, photoStore: nil))
    }

    /// Held by every account creation (PostgreSQL; SQLite has one writer anyway), so the checks
    /// and the insert are one step for concurrent requests and instances.
    private static let accountsLock = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))

    struct Records: AccountRecords, @unchecked Sendable {
        let db: any Database
        let pending: UserModel?
        let photoStore: (any PhotoStore)?

        func lockAccounts() async throws {
            try await SyncLog.lockOwner(FluentAccounts.accountsLock, on: db as! any SQLDatabase)
        }

        func accountCount() async throws -> Int { try await UserModel.query(on: db).count() }

        func hasAccount(emailKey: String) async throws -> Bool {
            try await UserModel.query(on: db).filter(\.$emailKey == emailKey).first() != nil
        }

        func insert(_ account: Account, now: Date) async throws {
            let model = pending?.id == account.id ? pending! : UserModel()
            model.id = account.id
            model.email = account.email
            model.emailKey = account.emailKey
            model.passwordHash = account.passwordHash
            model.displayName = account.displayName
            model.timeZone = account.timeZone
            model.currency = account.currency
            try await model.create(on: db)
            try await SyncLog.record(.settings, [account.id], op: .upsert, owner: account.id, on: db, now: now)
        }

        func insertMealTypes(_ types: [MealType], owner: UUID, now: Date) async throws {
            try await MealTypeRepository(db: db, kitchen: Kitchen(user: owner)).insert(all: types, now: now)
        }

        func link(_ identity: LinkedIdentity, to owner: UUID) async throws {
            try await ExternalIdentityModel(userID: owner, provider: identity.provider, subject: identity.subject, email: identity.email).create(on: db)
        }

        func lockOwner(_ owner: UUID) async throws { try await SyncLog.lockOwner(owner, on: db as! any SQLDatabase) }

        func firstAccountID() async throws -> UUID? {
            try await UserModel.query(on: db).sort(\.$createdAt).sort(\.$id).first()?.id
        }

        func insert(_ invitation: Invitation) async throws { try await InvitationModel(invitation).create(on: db) }

        func openInvitations(now: Date, tokenHash: String?, household: UUID?) async throws -> [Invitation] {
            let query = InvitationModel.query(on: db).filter(\.$usedBy == nil).filter(\.$expiresAt > now)
            if let tokenHash { query.filter(\.$tokenHash == tokenHash) } else { query.filter(\.$household == household) }
            return try await query.all().map(\.domain)
        }

        func markInvitationUsed(_ id: UUID, by account: UUID, at date: Date) async throws -> Bool {
            // Only while unused, in one statement: a use is never written over.
            let rows = try await (db as! any SQLDatabase).update(InvitationModel.schema)
                .set("used_by", to: account).set("used_at", to: date)
                .where("id", .equal, id).where("used_by", .is, SQLLiteral.null)
                .returning("id").all()
            return !rows.isEmpty
        }

        func deleteInvitation(_ id: UUID) async throws -> Bool {
            guard let model = try await InvitationModel.query(on: db).filter(\.$id == id).filter(\.$usedBy == nil).first() else { return false }
            try await model.delete(on: db)
            return true
        }

        func delete(_ owner: UUID) async throws -> Bool {
            guard let user = try await UserModel.find(owner, on: db) else { return false }
            let sql = db as! any SQLDatabase
            if sql.dialect.name == "postgresql" {
                // The person's row numbering their changes goes first: a shared write of their
                // entries holding it finishes before anything else is deleted (later, the user
                // row's delete would wait for it while it waits for the user row).
                try await sql.delete(from: "sync_heads").where("owner_id", .equal, owner).run()
            }
            let household = try await HouseholdMemberModel.find(owner, on: db)?.householdID
            // The household keeps what they added: the others go on with it.
            if let household, let others = try await members(of: household)?.members.filter({ $0.id != owner }), !others.isEmpty {
                let keeper = others.first { $0.role == .owner } ?? others[0]
                try await hand(from: owner, to: keeper.id, now: Date())
                try await setRole(keeper.id, .owner)
            }
            let photoIDs = try await PhotoModel.query(on: db).filter(\.$ownerID == owner).all().compactMap(\.id)
            if let photoStore { try await photoStore.remove(photoIDs, on: db) }
            for (table, column) in FluentAccounts.ownedTables {
                try await sql.delete(from: table).where(column, .equal, owner).run()
            }
            // A web session keeps its person in its data; the id is unique enough to find it by.
            try await sql.delete(from: WebSessionModel.schema).where("data", .like, "%\(owner.uuidString)%").run()
            try await sql.delete(from: "login_buckets").where("key", .equal, LoginThrottle.perAccount.prefix + user.emailKey).run()
            try await sql.delete(from: UserModel.schema).where("id", .equal, owner).run()
            if let household {
                // The last member's leaving ends the household.
                try await sql.raw("""
                    DELETE FROM \(ident: HouseholdModel.schema) WHERE id = \(bind: household)
                    AND NOT EXISTS (SELECT 1 FROM \(ident: HouseholdMemberModel.schema) WHERE household_id = \(bind: household))
                    """).run()
            }
            return true
        }

        func insert(_ household: Household, owner: UUID, now: Date) async throws {
            try await HouseholdModel(household).create(on: db)
            try await HouseholdMemberModel(user: owner, household: household.id, role: .owner, joinedAt: now).create(on: db)
        }

        func household(of member: UUID) async throws -> HouseholdMembers? {
            guard let membership = try await HouseholdMemberModel.find(member, on: db) else { return nil }
            return try await members(of: membership.householdID)
        }

        func insert(_ link: DiaryLink, owner: UUID) async throws { try await DiaryLinkModel(link, ownerID: owner).create(on: db) }

        func diaryLinks(of owner: UUID, now: Date) async throws -> [DiaryLink] {
            try await DiaryLinkModel.query(on: db).filter(\.$ownerID == owner).filter(\.$expiresAt > now)
                .sort(\.$createdAt, .descending).sort(\.$id, .descending).all().map(\.domain)
        }

        func diaryLink(tokenHash: String, now: Date) async throws -> (link: DiaryLink, owner: UUID)? {
            try await DiaryLinkModel.query(on: db).filter(\.$tokenHash == tokenHash).filter(\.$expiresAt > now).first()
                .map { ($0.domain, $0.ownerID) }
        }

        func deleteDiaryLink(_ id: UUID, owner: UUID) async throws -> Bool {
            let rows = try await (db as! any SQLDatabase).delete(from: DiaryLinkModel.schema)
                .where("id", .equal, id).where("user_id", .equal, owner).returning("id").all()
            return !rows.isEmpty
        }

        func insert(_ key: APIKey, owner: UUID) async throws { try await APIKeyModel(key, ownerID: owner).create(on: db) }

        func apiKeys(of owner: UUID, now: Date) async throws -> [APIKey] {
            try await APIKeyModel.query(on: db).filter(\.$ownerID == owner).filter(\.$expiresAt > now)
                .sort(\.$createdAt, .descending).sort(\.$id, .descending).all().map(\.domain)
        }

        func apiKey(tokenHash: String, now: Date) async throws -> (key: APIKey, owner: UUID)? {
            try await APIKeyModel.query(on: db).filter(\.$tokenHash == tokenHash).filter(\.$expiresAt > now).first().map { ($0.domain, $0.ownerID) }
        }

        func touchAPIKey(_ id: UUID, at: Date) async throws {
            try await (db as! any SQLDatabase).update(APIKeyModel.schema).set("last_used_at", to: at).where("id", .equal, id).run()
        }

        func deleteAPIKey(_ id: UUID, owner: UUID) async throws -> Bool {
            let rows = try await (db as! any SQLDatabase).delete(from: APIKeyModel.schema)
                .where("id", .equal, id).where("user_id", .equal, owner).returning("id").all()
            return !rows.isEmpty
        }

        func insert(_ feed: CalendarFeed, owner: UUID) async throws { try await CalendarFeedModel(feed, ownerID: owner).create(on: db) }

        func calendarFeeds(of owner: UUID) async throws -> [CalendarFeed] {
            try await CalendarFeedModel.query(on: db).filter(\.$ownerID == owner).sort(\.$createdAt, .descending).sort(\.$id, .descending).all().map(\.domain)
        }

        func calendarFeed(tokenHash: String) async throws -> (feed: CalendarFeed, owner: UUID)? {
            try await CalendarFeedModel.query(on: db).filter(\.$tokenHash == tokenHash).first().map { ($0.domain, $0.ownerID) }
        }

        func deleteCalendarFeed(_ id: UUID, owner: UUID) async throws -> Bool {
            let rows = try await (db as! any SQLDatabase).delete(from: CalendarFeedModel.schema)
                .where("id", .equal, id).where("user_id", .equal, owner).returning("id").all()
            return !rows.isEmpty
        }

        func replace(_ household: Household) async throws {
            try await (db as! any SQLDatabase).update(HouseholdModel.schema)
                .set("name", to: household.name).set("updated_at", to: household.updatedAt)
                .where("id", .equal, household.id).run()
        }
    }
}

extension FluentAccounts {
    /// Every table holding rows of one person, children before parents, and the column naming them.
    static let ownedTables: [(table: String, column: String)] = [
        ("sync_records", "owner_id"), ("sync_mutations", "owner_id"), ("sync_horizons", "owner_id"),
        (ShoppingItemModel.schema, "user_id"), (ShoppingListModel.schema, "user_id"),
        (DiaryEntryModel.schema, "user_id"), (AssignmentModel.schema, "user_id"),
        (MealIngredientModel.schema, "user_id"), (MealComponentModel.schema, "user_id"), (MealModel.schema, "user_id"),
        (FoodTermModel.schema, "user_id"), (FoodModel.schema, "user_id"),
        (PhotoModel.schema, "user_id"),
        (WeightEntryModel.schema, "user_id"), (BodyProfileModel.schema, "user_id"), (GoalSettingModel.schema, "user_id"),
        (MealTypeModel.schema, "user_id"),
        (TokenModel.schema, "user_id"), (KnownClientModel.schema, "user_id"), (ExternalIdentityModel.schema, "user_id"),
        (InvitationModel.schema, "created_by"), (HouseholdMemberModel.schema, "user_id"), (DiaryLinkModel.schema, "user_id"),
        (CalendarFeedModel.schema, "user_id"), (APIKeyModel.schema, "user_id"),
    ]
}

extension UserModel {
    /// The account as ``CreateAccount`` takes it (an id is given to a model without one).
    var newAccount: Account {
        if id == nil { id = UUID.timeOrdered() }
        return Account(id: id!, email: email, passwordHash: passwordHash, displayName: displayName, timeZone: timeZone, currency: currency)
    }
}

extension CreateAccount {
    /// Creates the account `user` describes, through ``FluentAccounts``: `user` is the stored account
    /// afterwards. A refusal comes as the ``AppError`` the sign-up pages and `forkcast user create` show.
    static func store(_ user: UserModel, on db: any Database, now: Date, onlyIfFirst: Bool = false, identity: LinkedIdentity? = nil,
                      invitation: String? = nil) async throws {
        do {
            try await CreateAccount(accounts: FluentAccounts(db: db, pending: user), now: now)(user.newAccount, onlyIfFirst: onlyIfFirst, identity: identity,
                                                                                            invitation: invitation.map(Tokens.hash))
        } catch let refusal as Refusal {
            throw AppError(refusal)
        }
    }
}
