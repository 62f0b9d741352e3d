import ForkcastCore
import Foundation

/// Settings › Sign-in methods: the password, and Apple or single sign-on linked or ready to link.
struct SignInMethodsPage {
    let user: UserModel
    let identities: [ExternalIdentityModel]
    let providers: [IdentityProviders.Provider]

    func render(layout: Layout) -> HTML {
        let csrf = layout.csrf ?? ""
        let kinds = Set(providers.map(\.kind)).union(identities.compactMap { IdentityProviders.Kind(rawValue: $0.provider) })
        let rows = IdentityProviders.Kind.allCases.filter(kinds.contains).map { kind -> HTML in
            let name = providers.first { $0.kind == kind }?.name ?? (kind == .apple ? "Apple" : "Single sign-on")
            if let identity = identities.first(where: { $0.provider == kind.rawValue }) {
                return HTML("""
                <li class="method" id="method-\(kind.rawValue)"><strong>\(name)</strong> <span class="muted">linked\(identity.email.map { " as " + $0 } ?? "")</span>
                  <form method="post" action="\(SiteURL.unlinkIdentity(kind).path)">\(Layout.csrfField(csrf))<button class="button" type="submit">Unlink \(name)</button></form></li>
                """)
            }
            guard providers.contains(where: { $0.kind == kind }) else { return HTML.empty }
            return HTML("""
            <li class="method" id="method-\(kind.rawValue)"><strong>\(name)</strong> <span class="muted">not linked</span>
              <a class="button" href="\(SiteURL.identityStart(kind, intent: WebIdentityController.Intent.link.rawValue).path)">Link \(name)</a></li>
            """)
        }
        return layout.render("""
        <section class="card narrow">
          <p><a href="\(SiteURL.settings.path)">‹ Settings</a></p>
          <h1>Sign-in methods</h1>
          <ul class="methods">
            <li class="method" id="method-password"><strong>Email and password</strong> <span class="muted">\(user.hasPassword ? "set for \(user.email)" : "none: this account signs in only with the providers below")</span></li>
            \(rows)
          </ul>
          \(if: providers.isEmpty && identities.isEmpty, HTML("<p class=\"muted\">This server offers no other way to sign in. Its owner can set up Sign in with Apple or single sign-on (docs/accounts.md).</p>"))
        </section>
        """)
    }
}
