import ConsoleKit
import Fluent
import Vapor

/// `forkcast user create --email … [--password …] [--name …]`: an admin creates an account even
/// when sign-up is closed.
struct UserCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "action", help: "create")
        var action: String
        @Option(name: "email", help: "Email address to sign in with")
        var email: String?
        @Option(name: "password", help: "Password (asked for when left out)")
        var password: String?
        @Option(name: "name", help: "Display name")
        var name: String?
        @Option(name: "time-zone", help: "IANA time zone, e.g. Europe/Paris (default UTC)")
        var timeZone: String?
    }

    var help: String { "Manage accounts: `user create --email you@example.com`" }

    func run(using context: CommandContext, signature: Signature) async throws {
        guard signature.action == "create" else {
            context.console.error("Unknown action \(signature.action); use: user create --email …")
            throw ExitCode(2)
        }
        guard let email = signature.email else {
            context.console.error("--email is required")
            throw ExitCode(2)
        }
        let app = context.application
        try await app.prepareStorage()
        let password = signature.password ?? context.console.ask("Password for \(email):", isSecure: true)
        let service = AccountService(db: app.db, passwords: app.password.async, now: app.dependencies.now())
        do {
            let user = try await service.register(.init(email: email, password: password, displayName: signature.name,
                                                        timeZone: signature.timeZone), allowSignup: true, force: true)
            context.console.success("Created \(user.email) (\(user.id!.uuidString))")
        } catch let error as AppError {
            context.console.error(error.problem.detail)
            throw ExitCode(1)
        }
    }
}

struct ExitCode: Error, CustomStringConvertible {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { "exit \(code)" }
}
