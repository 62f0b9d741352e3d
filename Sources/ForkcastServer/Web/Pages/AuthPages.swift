import ForkcastCore

/// The fields of a new account (Set up and Create account): name, email, a new password, and the
/// browser's time zone (filled in by a script; UTC without one).
enum NewAccountFields {
    static func render(displayName: String, email: String, errors: ValidationError) -> HTML {
        HTML("""
        \(FormField(name: "displayName", label: "Your name", value: displayName, error: errors.message(for: "displayName"), autocomplete: "name").render)
        \(FormField(name: "email", label: "Email", value: email, error: errors.message(for: "email"), type: "email", autocomplete: "email", required: true).render)
        \(FormField(name: "password", label: "Password", error: errors.message(for: "password"), type: "password", autocomplete: "new-password", required: true, hint: "At least \(AccountRules.minimumPasswordLength) characters.").render)
        <input type="hidden" name="timeZone" value="\(AccountRules.defaultTimeZone)" data-fill="time-zone">
        """)
    }
}

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
            \(NewAccountFields.render(displayName: displayName, email: email, errors: errors))
            <button class="button primary" type="submit">Create account</button>
          </form>
          """))
        </section>
        """)
    }
}

/// Creating an account on the web: open when the server allows sign-up, or with an
/// invitation's token (the owner's one-time link) while it is closed.
struct SignupPage {
    var email = ""
    var displayName = ""
    var invite: String?
    var errors = ValidationError([])
    var message: String?

    func render(layout: Layout) -> HTML {
        layout.render("""
        <section class="card narrow">
          <h1>Create your account</h1>
          \(if: invite != nil, HTML("<p>You were invited to this Forkcast. Your diary, meals and plans are your own.</p>"))
          \(message.map { HTML("<p class=\"form-error\" role=\"alert\" id=\"signup-error\">\($0)</p>") })
          <form method="post" action="\(SiteURL.signup().path)" class="stack" data-enhance="form">
            \(Layout.csrfField(layout.csrf ?? ""))
            <input type="hidden" name="invite" value="\(invite ?? "")">
            \(NewAccountFields.render(displayName: displayName, email: email, errors: errors))
            <button class="button primary" type="submit">Create account</button>
          </form>
          <p class="muted">Have an account? <a href="\(SiteURL.login.path)">Sign in</a></p>
        </section>
        """)
    }

    /// A link that cannot create an account (sign-up closed and no good invitation).
    static func closed(layout: Layout, message: String) -> HTML {
        layout.render("""
        <section class="card narrow">
          <h1>Create your account</h1>
          <p class="form-error" role="alert" id="signup-error">\(message)</p>
          <p><a class="button" href="\(SiteURL.login.path)">Sign in</a></p>
        </section>
        """)
    }
}

/// The sign-in page: the providers' buttons, and email and password unless turned off.
struct LoginPage {
    var email = ""
    var next: String?
    var message: String?
    /// Whether this server lets anyone create an account ("Create account" is offered).
    var signupOpen = false

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
          \(if: signupOpen && passwordLogin, HTML("<p class=\"muted\">New here? <a href=\"\(SiteURL.signup().path)\" id=\"create-account\">Create an account</a></p>"))
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
