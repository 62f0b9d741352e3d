import ForkcastCore

/// The first-visit page that creates the owner account.
struct SetupPage {
    var email = ""
    var displayName = ""
    var errors = ValidationError([])
    var message: String?

    func render(layout: Layout, passwordLogin: Bool, providers: [IdentityProviders.Provider]) -> HTML {
        layout.render("""
        <section class="card narrow">
          <h1>Welcome to Forkcast</h1>
          <p>Create the owner account for this server. You can add other people later.</p>
          \(message.map { HTML("<p class=\"form-error\" role=\"alert\">\($0)</p>") })
          \(ProviderButtons(providers: providers, verb: "Continue").render)
          \(if: passwordLogin, HTML("""
          <form method="post" action="\(SiteURL.setup.path)" class="stack" data-enhance="form">
            \(Layout.csrfField(layout.csrf ?? ""))
            \(FormField(name: "displayName", label: "Your name", value: displayName, error: errors.message(for: "displayName"), autocomplete: "name").render)
            \(FormField(name: "email", label: "Email", value: email, error: errors.message(for: "email"), type: "email", autocomplete: "email", required: true).render)
            \(FormField(name: "password", label: "Password", error: errors.message(for: "password"), type: "password", autocomplete: "new-password", required: true, hint: "At least 8 characters.").render)
            <input type="hidden" name="timeZone" value="UTC" data-fill="time-zone">
            <button class="button primary" type="submit">Create account</button>
          </form>
          """))
        </section>
        """)
    }
}

/// The sign-in page: the providers' buttons, and email and password unless turned off.
struct LoginPage {
    var email = ""
    var next: String?
    var message: String?

    func render(layout: Layout, passwordLogin: Bool, providers: [IdentityProviders.Provider]) -> HTML {
        layout.render("""
        <section class="card narrow">
          <h1>Sign in</h1>
          \(message.map { HTML("<p class=\"form-error\" role=\"alert\" id=\"login-error\">\($0)</p>") })
          \(ProviderButtons(providers: providers, verb: "Sign in", next: next).render)
          \(if: passwordLogin, HTML("""
          <form method="post" action="\(SiteURL.login.path)" class="stack">
            \(Layout.csrfField(layout.csrf ?? ""))
            <input type="hidden" name="next" value="\(next ?? "")">
            \(FormField(name: "email", label: "Email", value: email, type: "email", autocomplete: "email", required: true).render)
            \(FormField(name: "password", label: "Password", type: "password", autocomplete: "current-password", required: true).render)
            <button class="button primary" type="submit">Sign in</button>
          </form>
          """))
        </section>
        """)
    }
}

/// "Sign in with Apple" and "Sign in with <provider>" buttons (plain links: the flow starts with a GET).
struct ProviderButtons {
    var providers: [IdentityProviders.Provider]
    var verb: String
    var next: String?

    var render: HTML {
        guard !providers.isEmpty else { return HTML("") }
        let buttons = providers.map { provider in
            HTML("<a class=\"button provider provider-\(provider.kind.rawValue)\" href=\"\(SiteURL.identityStart(provider.kind, next: AccountRules.localRedirectPath(next)).path)\">\(verb) with \(provider.name)</a>")
        }.joined()
        return HTML("<div class=\"stack providers\">\(buttons)</div>")
    }
}
