import Fluent
import ForkcastCore
import Foundation
import SQLKit

/// Whose shared records — foods, meals, meal types, the plan, shopping lists — a repository
/// reaches: those of every member of `user`'s household. A row keeps the member who added it in
/// `user_id`; every member reads and changes it alike. Scoping is one SQL expression
/// (``holds(_:)``), so it is the same in every query, and a change reaches every member's change
/// feed (``feeds``), which is how the others' pages, events and synced devices learn of it.
struct Kitchen: Sendable {
    /// The member acting: what they add is stored as theirs.
    let user: UUID
    /// The feeds a change is recorded in: every member's inside a write (``enter(_:on:)``);
    /// the acting member's alone outside one (reads record nothing).
    let feeds: [UUID]
    /// The household, when known (inside a write).
    let household: UUID?

    /// For reads: the members are found by the query itself.
    init(user: UUID) { (self.user, feeds, household) = (user, [user], nil) }

    private init(user: UUID, feeds: [UUID], household: UUID?) { (self.user, self.feeds, self.household) = (user, feeds, household) }

    /// Inside a write transaction: the household's turn (on PostgreSQL, its lock: members' writes
    /// to shared records take turns), then its members, read under that turn so a member joining
    /// at the same time is either in `feeds` or joins after this write.
    static func enter(_ user: UUID, on db: any Database) async throws -> Kitchen {
        let sql = db as! any SQLDatabase
        guard let household = try await sql.raw("SELECT household_id FROM household_members WHERE user_id = \(bind: user)")
            .first()?.decode(column: "household_id", as: UUID.self) else {
            // An account made before households (an older instance during an upgrade) is alone.
            try await SyncLog.lockOwner(user, on: sql)
            return Kitchen(user: user, feeds: [user], household: nil)
        }
        try await SyncLog.lockOwner(household, on: sql)
        let members = try await sql.raw("SELECT user_id FROM household_members WHERE household_id = \(bind: household) ORDER BY user_id")
            .all().map { try $0.decode(column: "user_id", as: UUID.self) }
        return Kitchen(user: user, feeds: members.contains(user) ? members : members + [user], household: household)
    }

    /// `column IN (the household's members)`: the acting member, and everyone sharing their household.
    func holds(_ column: String) -> SQLQueryString {
        """
        \(unsafeRaw: column) IN (SELECT \(bind: user) UNION SELECT hm.user_id FROM household_members hm
          JOIN household_members me ON me.household_id = hm.household_id WHERE me.user_id = \(bind: user))
        """
    }

    /// The household's rows of `M`, or those whose `column` is one of `ids`, in `order`: a plain
    /// `SELECT *`, chunked so a long list stays within every driver's bind limit. Fluent's own query
    /// names each column with an alias and rebuilds that name for every field of every row: a week's
    /// answer spent a quarter of its time there (docs/performance.md).
    func rows<M: Model>(of _: M.Type, where column: String? = nil, in ids: some Collection<UUID> = [UUID](), order: String = "id",
                        on db: any Database) async throws -> [M] {
        let sql = db as! any SQLDatabase, ids = Array(Set(ids))
        func select(_ condition: SQLQueryString) async throws -> [M] {
            try await sql.raw("SELECT * FROM \(ident: M.schema) WHERE \(holds("user_id"))\(condition) ORDER BY \(unsafeRaw: order)").all()
                .map { try $0.decode(fluentModel: M.self) }
        }
        guard let column else { return try await select("") }
        var result: [M] = []
        for start in stride(from: 0, to: ids.count, by: 500) {
            result += try await select(" AND \(ident: column) IN \(SQLBind.group(Array(ids[start..<min(start + 500, ids.count)])))")
        }
        return result
    }

    /// ``holds(_:)`` on a Fluent query of a shared table (its owner column is `user_id`).
    var filter: DatabaseQuery.Filter { .sql(embed: holds("user_id")) }

    /// Records changes in every member's feed.
    func record(_ kind: SyncKind, _ ids: [UUID], op: SyncOp, on db: any Database, now: Date) async throws {
        for owner in feeds { try await SyncLog.record(kind, ids, op: op, owner: owner, on: db, now: now) }
    }
}

extension QueryBuilder {
    /// Only the rows of `kitchen`'s household.
    func filter(_ kitchen: Kitchen) -> Self { filter(kitchen.filter) }
}
