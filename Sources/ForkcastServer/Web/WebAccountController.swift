import ForkcastCore
import Foundation
import Vapor

/// Settings › Your data: download everything, restore an export, delete the account.
struct WebAccountController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.accountData, use: page)
        routes.get(SiteURL.accountExport, use: export)
        routes.on(.POST, SiteURL.accountImport, body: .stream, use: importArchive)
        routes.post(SiteURL.accountDelete, use: delete)
    }

    @Sendable func page(req: Request) async throws -> Response {
        let user = try req.webUser
        var page = AccountDataPage(user: user)
        if !user.hasPassword {
            let providers = req.application.identityProviders
            page.confirmWith = try await req.externalSignIn.identities(of: user).compactMap { identity in
                IdentityProviders.Kind(rawValue: identity.provider).flatMap { try? providers.provider($0) }
            }.filter { $0.webClientID != nil }
            let confirmed = req.session.data[WebIdentityController.confirmedKey].flatMap(Double.init)
            page.confirmed = confirmed.map { req.now.timeIntervalSince1970 - $0 < ExternalSignIn.confirmationWindow } ?? false
        }
        return page.render(layout: req.layout("Your data", .settings)).response()
    }

    @Sendable func export(req: Request) async throws -> Response {
        try await AccountController.exportResponse(req, data: try req.owner.accountData)
    }

    @Sendable func importArchive(req: Request) async throws -> Response {
        let user = try req.webUser
        let dryRun = (try? req.queryParameters.bool("dryRun")) ?? false
        do {
            let report = try await AccountController.runImport(req, data: try req.owner.accountData, dryRun: dryRun)
            let what = ImportCommand.describe(report.created)
            req.flash(dryRun ? "The export is sound. Importing it would create \(what); nothing was changed." : "Imported \(what).")
            return req.redirect(to: (dryRun ? SiteURL.accountData : SiteURL.diary()).path, redirectType: .normal)
        } catch let error as AppError {
            var page = AccountDataPage(user: user)
            page.importProblem = error.status == .badRequest ? "Choose the export’s .zip file first." : error.problem.detail
                + (error.problem.errors.map { fields in " " + fields.prefix(5).map { "\($0.field): \($0.message)" }.joined(separator: " ") } ?? "")
            return page.render(layout: req.layout("Your data", .settings)).response(status: error.status)
        }
    }

    @Sendable func delete(req: Request) async throws -> Response {
        let user = try req.webUser
        let form = FormData(req)
        var page = AccountDataPage(user: user)
        guard form["confirm"] == "yes" else {
            page.deleteProblem = "Tick the box to confirm that everything is to be deleted."
            return page.render(layout: req.layout("Your data", .settings)).response(status: .unprocessableEntity)
        }
        do {
            if user.hasPassword {
                try await req.accounts.confirmPassword(form["password"] ?? "", of: user, client: req.clientIdentity)
            } else {
                // No password: a sign-in with a linked provider in the last ten minutes confirms it.
                let confirmed = req.session.data[WebIdentityController.confirmedKey].flatMap(Double.init)
                guard let confirmed, req.now.timeIntervalSince1970 - confirmed < ExternalSignIn.confirmationWindow else {
                    throw AppError.forbidden("Confirm with the provider you sign in with first (the button above); nothing was deleted.")
                }
            }
        } catch let error as AppError {
            page.deleteProblem = error.problem.detail
            return page.render(layout: req.layout("Your data", .settings)).response(status: error.status)
        }
        try await req.owner.accountData.deleteAccount(readCache: req.application.readCache)
        req.auth.logout(UserModel.self)
        try await req.rotateSession()
        req.flash("Your account and everything in it were deleted.")
        let anyoneLeft = try await req.accounts.hasAccounts()
        return req.redirect(to: (anyoneLeft ? SiteURL.login : SiteURL.setup).path, redirectType: .normal)
    }
}

/// The three things a person can do with all of their data.
struct AccountDataPage {
    let user: UserModel
    var importProblem: String?
    var deleteProblem: String?
    /// For an account without a password: the providers a fresh sign-in with confirms deleting it.
    var confirmWith: [IdentityProviders.Provider] = []
    var confirmed = false

    /// The password field, or for an account without one the fresh sign-in that stands for it.
    var confirmation: HTML {
        if user.hasPassword {
            return FormField(name: "password", label: "Your password", error: deleteProblem, type: "password",
                             autocomplete: "current-password", required: true).render
        }
        let problem = deleteProblem.map { HTML("<p class=\"field-error\" role=\"alert\" id=\"delete-problem\">\($0)</p>") }
        if confirmed { return HTML("<p class=\"hint\">Confirmed by signing in again.</p>\(problem)") }
        let buttons = confirmWith.map { provider in
            HTML("<a class=\"button\" href=\"\(SiteURL.identityStart(provider.kind, intent: WebIdentityController.Intent.confirm.rawValue).path)\">Confirm with \(provider.name)</a>")
        }.joined()
        return HTML("<p>Your account has no password: confirm by signing in with \(confirmWith.map(\.name).joined(separator: " or ")) again.</p><p class=\"button-row\">\(buttons)</p>\(problem)")
    }

    func render(layout: Layout) -> HTML {
        let csrf = layout.csrf ?? ""
        let importURL = SiteURL.accountImport.path
        return layout.render("""
        <section class="card narrow">
          <p><a href="\(SiteURL.settings.path)">‹ Settings</a></p>
          <h1>Your data</h1>
          <h2>Download everything</h2>
          <p>One .zip with every record of your account (settings, meal types, foods, meals, plan, diary, weights, goals, body profile), your photos, and the diary as a spreadsheet (CSV).</p>
          <p class="button-row"><a class="button primary" href="\(SiteURL.accountExport.path)" download>Download everything (.zip)</a></p>

          <h2>Shared with a coach</h2>
          <p class="button-row"><a class="button" href="\(SiteURL.coachLinks.path)">Links to your diary</a></p>
          <h2 id="import-title">Import an export</h2>
          <p>Restores a download into this account when it is still empty, e.g. after moving to a new server. Check it first: nothing changes until you import.</p>
          \(importProblem.map { HTML("<p class=\"field-error\" role=\"alert\" id=\"import-problem\">\($0)</p>") })
          <form method="post" action="\(importURL)" enctype="multipart/form-data" class="stack" aria-labelledby="import-title">
            \(Layout.csrfField(csrf))
            <div class="field"><label for="field-archive">The export’s .zip</label><input id="field-archive" type="file" name="archive" accept=".zip,application/zip" required></div>
            <p class="button-row">
              <button class="button" type="submit" formaction="\(importURL)?dryRun=true">Check it</button>
              <button class="button primary" type="submit">Import</button>
            </p>
          </form>

          <h2 id="delete-title">Delete your account</h2>
          <p>Deletes your account and everything in it from this server for good: records, photos, devices signed in and their sync history. Download everything first if you may want it back.</p>
          <form method="post" action="\(SiteURL.accountDelete.path)" class="stack" aria-labelledby="delete-title">
            \(Layout.csrfField(csrf))
            \(confirmation)
            <label class="check"><input type="checkbox" name="confirm" value="yes" required> Delete \(user.email) and all of its data</label>
            <button class="button danger" type="submit">Delete my account</button>
          </form>
        </section>
        """)
    }
}
