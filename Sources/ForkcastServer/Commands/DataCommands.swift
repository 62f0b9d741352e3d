import ConsoleKit
import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit
import Vapor

/// `forkcast import FILE --email ADDRESS [--dry-run]`: restores an export into an empty account,
/// creating the account when the server has none with that address (moving servers).
struct ImportCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "file", help: "The export zip")
        var file: String
        @Option(name: "email", help: "The account to import into (created when it does not exist)")
        var email: String?
        @Option(name: "password", help: "Password of a new account (asked for when left out)")
        var password: String?
        @Flag(name: "dry-run", help: "Check everything and say what would be created, changing nothing")
        var dryRun: Bool
    }

    var help: String { "Import an export into an empty account: `import forkcast-export.zip --email you@example.com`" }

    func run(using context: CommandContext, signature: Signature) async throws {
        guard let email = signature.email else {
            context.console.error("--email is required: the account to import into.")
            throw ExitCode(2)
        }
        let app = context.application
        try await app.prepareStorage()
        let now = app.dependencies.now()
        do {
            let (archive, files) = try AccountData.readArchive(at: URL(fileURLWithPath: signature.file))
            var user = try await UserModel.query(on: app.db).filter(\.$emailKey == Account.emailKey(email.trimmed)).first()
            if user == nil, signature.dryRun {
                context.console.info("No account \(email) yet: the import would create it.")
            } else if user == nil {
                let password = signature.password ?? context.console.ask("Password for the new account \(email):", isSecure: true)
                let service = AccountService(db: app.db, passwords: app.password.async, now: now)
                user = try await service.register(.init(email: email, password: password, displayName: archive.account.displayName,
                                                        timeZone: archive.account.timeZone), allowSignup: true, force: true)
                context.console.info("Created the account \(email).")
            }
            guard let user else {
                context.console.success("Dry run: the archive is readable and holds \(Self.describe(archive.counts)).")
                return
            }
            let data = AccountData(user: user, db: app.db, photoStore: app.photoStore, now: now)
            let console = context.console
            let report = try await data.importArchive(archive, files: files, dryRun: signature.dryRun) { done, total in
                console.output("Imported step \(done) of \(total)".consoleText(.info))
            }
            context.console.success("\(signature.dryRun ? "Dry run, nothing changed: would create" : "Imported") \(Self.describe(report.created)) into \(user.email).")
        } catch let error as AppError {
            context.console.error(error.problem.detail)
            for field in error.problem.errors ?? [] { context.console.error("  \(field.field): \(field.message)") }
            throw ExitCode(1)
        }
    }

    /// "2 foods, 1 meal, 4 diary entries": what an import created, for people.
    static func describe(_ counts: [String: Int]) -> String {
        let names: [(key: String, one: String, many: String)] = [
            ("mealTypes", "meal type", "meal types"), ("foods", "food", "foods"), ("meals", "meal", "meals"),
            ("plan", "planned meal", "planned meals"), ("diary", "diary entry", "diary entries"), ("photos", "photo", "photos"),
            ("weights", "weight", "weights"), ("goals", "goals", "goals"), ("bodyProfile", "body profile", "body profiles"),
            ("shoppingLists", "shopping list", "shopping lists"), ("pantry", "pantry lot", "pantry lots"),
            ("recipePhotos", "recipe photo", "recipe photos"),
        ]
        let parts = names.compactMap { name in counts[name.key].flatMap { $0 > 0 ? "\($0) \($0 == 1 ? name.one : name.many)" : nil } }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }
}

/// `forkcast backup DIR`: a consistent copy of the SQLite database and the photos, made while the
/// server runs (SQLite's `VACUUM INTO` reads one snapshot). PostgreSQL is backed up with pg_dump.
struct BackupCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "directory", help: "Where to put the backup (a new folder is made inside it)")
        var directory: String
    }

    var help: String { "Copy the SQLite database and photos while the server runs: `backup /mnt/backups`" }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        guard case .sqlite = app.forkcastConfig.storage else {
            context.console.error("This server keeps its data (photos too) in PostgreSQL: back it up with pg_dump, e.g. pg_dump --format=custom --file=forkcast.dump \"$DATABASE_URL\" (see the README).")
            throw ExitCode(2)
        }
        do {
            let result = try await Backup.make(in: signature.directory, app: app)
            context.console.success("Backed up to \(result.folder): the database and \(result.photos) photo files\(result.missing > 0 ? "; \(result.missing) photos deleted while it ran are not in it" : "").")
        } catch let error as AppError {
            context.console.error(error.problem.detail)
            throw ExitCode(1)
        }
    }
}

/// Makes a backup folder: `forkcast.sqlite` (one snapshot of the database) and `photos/` (the files
/// of the photos that snapshot holds).
enum Backup {
    struct Result { var folder: String; var photos: Int; var missing: Int }

    static func make(in directory: String, app: Application, now: Date = Date()) async throws -> Result {
        let stamp = Instant.format(now).prefix(19).replacingOccurrences(of: ":", with: "-")
        let folder = (directory as NSString).appendingPathComponent("forkcast-backup-\(stamp)")
        let fm = FileManager.default
        guard case .sqlite(let path) = app.forkcastConfig.storage, fm.fileExists(atPath: path) else {
            throw AppError.badRequest("There is no SQLite database to back up here (FORKCAST_DATA_DIR is \(app.forkcastConfig.dataDirectory)).")
        }
        guard !fm.fileExists(atPath: folder) else { throw AppError.conflict("\(folder) already exists; choose another directory.") }
        do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw AppError.badRequest("Cannot create \(folder): \(error.localizedDescription)")
        }
        let target = (folder as NSString).appendingPathComponent("forkcast.sqlite")
        let sql = app.db as! any SQLDatabase
        // One read snapshot of the whole database, written out compacted; writers go on meanwhile.
        try await sql.raw("VACUUM INTO \(bind: target)").run()
        // The photos that snapshot holds; files are written before their row commits and removed
        // only after their deletion commits, so every one is there unless deleted since.
        let rows = try await sql.raw("SELECT id, thumbnail_size FROM photos").all()
        let store = (app.forkcastConfig.dataDirectory as NSString).appendingPathComponent("photos")
        var copied = 0, missing = 0
        for row in rows {
            let id = try row.decode(column: "id", as: UUID.self)
            let variants: [PhotoVariant] = try row.decode(column: "thumbnail_size", as: Int.self) > 0 ? [.full, .thumbnail] : [.full]
            for variant in variants {
                let relative = DirectoryPhotoStore.relativePath(id, variant)
                let destination = (folder as NSString).appendingPathComponent("photos/" + relative)
                try fm.createDirectory(atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                do {
                    try fm.copyItem(atPath: (store as NSString).appendingPathComponent(relative), toPath: destination)
                    copied += 1
                } catch {
                    if variant == .full { missing += 1 }
                }
            }
        }
        return Result(folder: folder, photos: copied, missing: missing)
    }
}

