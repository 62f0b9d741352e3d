import FluentKit
import SQLKit

/// Plain `INSERT INTO t (columns) VALUES (?, …), …` statements for new models, with the columns and
/// values each model gives through Fluent's own input.
///
/// What Fluent's `create` does too, minus building its query tree and escaping every identifier
/// through SQLKit's serializer, which was the largest single cost of logging an entry (docs/performance.md).
/// Fluent's model middleware is not run (this project has none), nor `@Timestamp`: models that have
/// one use `create`.
enum PlainInsert {
    /// The rows one statement takes (21 columns each stay well within SQLite's 32,766 variables).
    static let rowsPerStatement = 500

    /// One statement per ``rowsPerStatement`` rows; nil when a model's input is not plain values (a database
    /// default, an enum case, a nested dictionary) or the models do not all give the same columns.
    static func statements<M: Model>(_ models: [M]) -> [SQLQueryString]? {
        guard !models.isEmpty else { return [] }
        let rows = models.map { model in
            let input = Input()
            model.input(to: input)
            return input
        }
        let columns = rows[0].keys
        guard rows.allSatisfy({ $0.plain && $0.keys == columns }),
              columns.allSatisfy({ $0.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 } }) else {
            return nil
        }
        let head = "INSERT INTO \"\(M.schema)\" (" + columns.map { "\"\($0)\"" }.joined(separator: ", ") + ") VALUES "
        return stride(from: 0, to: rows.count, by: rowsPerStatement).map { start in
            "\(unsafeRaw: head)\(SQLList(rows[start..<min(start + rowsPerStatement, rows.count)].map { SQLGroupExpression($0.values) }))"
        }
    }

    /// Collects a model's columns and values, as Fluent's query would bind them.
    private final class Input: DatabaseInput {
        var keys: [String] = []
        var values: [any SQLExpression] = []
        /// false once a value was not a plain one.
        var plain = true
        let wantsUnmodifiedKeys = false

        func set(_ value: DatabaseQuery.Value, at key: FieldKey) {
            keys.append(key.description)
            switch value {
            case .bind(let encodable):
                values.append((encodable as? any OptionalValue)?.isNone == true ? SQLLiteral.null : SQLBind(encodable))
            case .null:
                values.append(SQLLiteral.null)
            default:
                plain = false
            }
        }
    }
}

extension Collection where Element: Model, Self: Sendable {
    /// Inserts these new models with ``PlainInsert`` statements (Fluent's `create` when they are
    /// not plain values, or the database is not an SQL one).
    func insert(on db: any Database) async throws {
        guard let sql = db as? any SQLDatabase, let statements = PlainInsert.statements(Array(self)) else {
            return try await create(on: db)
        }
        for statement in statements { try await sql.raw(statement).run() }
        for model in self { model._$idExists = true }
    }
}

private protocol OptionalValue { var isNone: Bool { get } }
extension Optional: OptionalValue { var isNone: Bool { self == nil } }
