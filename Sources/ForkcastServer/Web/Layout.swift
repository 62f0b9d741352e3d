import ForkcastContract
import ForkcastCore
import Vapor

/// The frame around every page: head, header with navigation, a live region, main content.
struct Layout {
    enum Section: String { case today, meals, foods, plan, shopping, settings, none }

    var title: String
    var section: Section = .none
    var csrf: String?
    var signedIn: Bool = true
    /// The signed-in account, so the page's offline outbox and saved copies are kept per account.
    var account: UUID?
    var flash: String?
    var scripts: [String] = []
    /// Where the person's changes stood when a page that follows them read its contents: its event
    /// stream starts from here, so a change made before the stream is open is not missed.
    var cursor: String?
    /// The days a page shows (Today's day, the planner's week) and how a person names them: a copy
    /// kept for offline use is opened for today only when it shows today, else says which day it is.
    var days: (from: CalendarDate, to: CalendarDate, name: String)?

    /// Where a notice about the whole page goes, first in `<main>`: the service worker puts its
    /// "saved copy" notice here when it answers offline (service-worker.js, `savedCopy`).
    static let noticesMarker = "<!--forkcast:notices-->"
    /// The stylesheets, linked in this order (later ones build on earlier ones); the service
    /// worker caches the same list (written into /sw.js by SystemController).
    static let stylesheets = ["app", "views", "features"]

    func render(_ content: HTML) -> HTML {
        let nav: HTML = signedIn ? """
            <nav class="tabs" aria-label="Main">
              <a href="\(SiteURL.diary().path)" \(current(.today))>\(Icons.ring) <span>Today</span></a>
              <a href="\(SiteURL.meals().path)" \(current(.meals))>\(Icons.list) <span>Meals</span></a>
              <a href="\(SiteURL.foods().path)" \(current(.foods))>\(Icons.apple) <span>Foods</span></a>
              <a href="\(SiteURL.plan(start: nil).path)" \(current(.plan))>\(Icons.calendar) <span>Planner</span></a>
              <a href="\(SiteURL.shopping.path)" \(current(.shopping))>\(Icons.cart) <span>Shop</span></a>
              <a href="\(SiteURL.settings.path)" \(current(.settings))>\(Icons.gear) <span>Settings</span></a>
            </nav>
            """ : .empty
        let flashBanner: HTML = flash.map { HTML("""
            <p class="flash" role="status">\($0)</p>
            """) } ?? .empty
        let scriptTags = scripts.map { HTML("<script type=\"module\" src=\"\($0)\"></script>") }.joined()
        return """
        <!doctype html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
          <title>\(title) · Forkcast</title>
          <meta name="color-scheme" content="light dark">
          <meta name="theme-color" content="#f2f2f7" media="(prefers-color-scheme: light)">
          <meta name="theme-color" content="#1c1c1e" media="(prefers-color-scheme: dark)">
          \(if: csrf != nil, HTML("<meta name=\"csrf-token\" content=\"\(csrf ?? "")\">"))
          \(account.map { HTML("<meta name=\"forkcast-account\" content=\"\($0.uuidString.lowercased())\">") })
          \(cursor.map { HTML("<meta name=\"forkcast-cursor\" content=\"\($0)\">") })
          \(days.map { HTML("<meta name=\"forkcast-days\" content=\"\($0.from.iso)/\($0.to.iso)\" data-name=\"\($0.name)\">") })
          <link rel="manifest" href="\(SiteURL.manifest.path)">
          <link rel="icon" href="\(SiteURL.icon.path)" type="image/svg+xml">
          <link rel="apple-touch-icon" href="\(SiteURL.touchIcon.path)">
          \(Self.stylesheets.map { HTML("<link rel=\"stylesheet\" href=\"\(SiteURL.stylesheet($0).path)\">") }.joined())
          <script type="module" src="\(SiteURL.script("app").path)"></script>
          \(if: signedIn, HTML("<script type=\"module\" src=\"\(SiteURL.script("offline").path)\"></script>"))
          \(scriptTags)
        </head>
        <body data-plate-limit="\(DiaryValidation.maximumPlateItems)" data-push-limit="\(SyncPushInput.maximumMutations)" data-undo-seconds="\(UndoWindow.seconds)" data-left-delete-seconds="\(UndoWindow.leftDeletionLifetimeSeconds)" data-sign-out-wait-seconds="\(UndoWindow.signOutWaitSeconds)">
          <a class="skip" href="#main">Skip to content</a>
          <div id="loading" class="loading" role="progressbar" aria-label="Loading" hidden></div>
          <header class="top">
            <a class="brand" href="\(SiteURL.home.path)">\(Icons.logo) Forkcast</a>
            \(if: signedIn, HTML("<p id=\"sync-status\" class=\"sync-status\" role=\"status\" hidden></p>"))
            \(nav)
          </header>
          <div id="announcer" class="visually-hidden" role="status" aria-live="polite"></div>
          <div id="error-banner" class="error-banner" role="alert" hidden></div>
          <main id="main" tabindex="-1">
            \(HTML(raw: Self.noticesMarker))
            \(flashBanner)
            \(content)
          </main>
        </body>
        </html>
        """
    }

    private func current(_ s: Section) -> HTML {
        s == section ? "aria-current=\"page\" class=\"active\"" : .empty
    }

    /// The hidden CSRF input every form carries.
    static func csrfField(_ token: String) -> HTML {
        "<input type=\"hidden\" name=\"\(CSRF.field)\" value=\"\(token)\">"
    }
}

/// Small inline SVG icons (decorative: hidden from screen readers).
enum Icons {
    static let logo: HTML = #"<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2"/><path d="M9 7v5m0 0v5m0-5h0M12 7v4a3 3 0 0 1-6 0V7M16 7c1.5 0 2 2 2 4s-1 2-2 2v4" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>"#
    static let list: HTML = #"<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><path d="M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>"#
    static let calendar: HTML = #"<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><rect x="3" y="5" width="18" height="16" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M3 10h18M8 3v4M16 3v4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>"#
    static let gear: HTML = #"<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>"#
    static let apple: HTML = #"<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><path d="M12 7c-2-2-7-1.5-7 4.5C5 16 8 20 10 20c1 0 1.5-.5 2-.5s1 .5 2 .5c2 0 5-4 5-8.5C19 5.5 14 5 12 7z" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 7c0-2 1-3.5 2.5-4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>"#
    static let ring: HTML = #"<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><circle cx="12" cy="12" r="8" fill="none" stroke="currentColor" stroke-width="2.5" stroke-dasharray="36 50" transform="rotate(-90 12 12)"/></svg>"#
    static let camera: HTML = #"<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><path d="M4 8h3l2-3h6l2 3h3v11H4z" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/><circle cx="12" cy="13" r="3.5" fill="none" stroke="currentColor" stroke-width="2"/></svg>"#
    static let cart: HTML = #"<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><path d="M3 4h2l2.4 10.2a1 1 0 0 0 1 .8h8.9a1 1 0 0 0 1-.8L20 8H6.2" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/><circle cx="9" cy="19" r="1.6" fill="currentColor"/><circle cx="17" cy="19" r="1.6" fill="currentColor"/></svg>"#
    static let pencil: HTML = #"<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><path d="M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>"#
    static let plus: HTML = #"<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><path d="M12 5v14M5 12h14" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></svg>"#
    static let close: HTML = #"<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><path d="M6 6l12 12M18 6 6 18" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></svg>"#
}
