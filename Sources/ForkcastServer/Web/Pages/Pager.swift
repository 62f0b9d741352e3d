import ForkcastCore

/// "Showing 51–100 of 210 meals" and the links to the pages before and after: long lists come a
/// page at a time, with an honest count.
struct Pager {
    static let perPage = 50

    let page: Int
    let per: Int
    let total: Int
    /// "meal"/"meals", or a sentence end such as "meals match".
    let noun: (singular: String, plural: String)
    let link: (Int) -> String

    var pages: Int { max(1, (total + per - 1) / per) }

    var summary: String {
        guard total > per else { return total == 1 ? "1 \(noun.singular)" : "\(total) \(noun.plural)" }
        let first = min(total, (page - 1) * per + 1), last = min(total, page * per)
        return "Showing \(first)–\(last) of \(total) \(noun.plural)"
    }

    /// The Previous/Next navigation (nothing when everything fits on one page).
    var nav: HTML {
        guard pages > 1 else { return .empty }
        return """
        <nav class="pager" aria-label="Pages">
          \(page > 1 ? HTML("<a class=\"button\" rel=\"prev\" href=\"\(link(page - 1))\" data-pressable>← Previous</a>") : HTML("<span></span>"))
          <span class="muted">Page \(min(page, pages)) of \(pages)</span>
          \(page < pages ? HTML("<a class=\"button\" rel=\"next\" href=\"\(link(page + 1))\" data-pressable>Next →</a>") : HTML("<span></span>"))
        </nav>
        """
    }
}

extension QueryParameters {
    /// `page=` of a web list: 1 when absent; a bad value is a 400 like the API's.
    func webPage() throws -> Paging {
        try Paging(page: int("page") ?? 1, per: Pager.perPage)
    }
}
