import ForkcastCore
import Foundation

/// One nutrient on one day: the amount against the target, what it came from, the entries that
/// do not say, and, when it is low, the foods richest in it (the person's first, then the catalogue's).
struct NutrientPage {
    let nutrient: Nutrient
    let date: CalendarDate
    let today: CalendarDate
    let standing: NutrientStanding
    let entries: [DiaryEntry]
    var yours: [NutrientSource] = []
    var catalogue: [NutrientSource] = []

    /// The shipped catalogue's richest plain foods for each nutrient, worked out once (blocking:
    /// read on a thread pool).
    static let shippedRichest: [Nutrient: [NutrientSource]] = {
        guard let foods = try? ShippedCatalog.foods() else { return [:] }
        return Dictionary(uniqueKeysWithValues: Nutrient.targeted.map { ($0, NutrientSources.richest($0, catalog: foods)) })
    }()

    func render(layout: Layout) -> HTML {
        let n = nutrient
        let counted = entries.filter(\.isCounted)
        let from = counted.compactMap { e in e.nutrients[n].map { (e, $0) } }.filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }
        let silent = NutrientSources.silent(on: n, in: entries)
        let verdict: String = switch standing.verdict {
        case .under: "Low"
        case .over: "Over the limit"
        case .met: n.direction == .atMost ? "Within the limit" : "Target met"
        case .unknown: standing.amount == nil ? "Not known" : "At least this much (some entries do not say)"
        }
        func sources(_ list: [NutrientSource]) -> HTML {
            HTML("<ul class=\"plain-list\">\(list.map { s in HTML("<li>\(s.name) <span class=\"muted\">— \(n.text(s.amount)) in \(s.portion)</span></li>") }.joined())</ul>")
        }
        let day = date == today ? "today" : date.longText
        return layout.render("""
        <section class="card narrow stack" aria-labelledby="nutrient-title">
          <h1 id="nutrient-title">\(n.name), \(day)</h1>
          <p id="nutrient-standing"><strong>\(standing.amount.map { n.text($0) } ?? "—")</strong>\(standing.target.map { HTML(" of \(n.text($0))") } ?? .empty)\(standing.percent.map { " (\($0) %)" } ?? "") · \(verdict)</p>
          \(if: !from.isEmpty, HTML("<h2>Where it came from</h2><ul class=\"plain-list\" id=\"nutrient-from\">\(from.map { e, v in HTML("<li>\(e.name) <span class=\"muted\">— \(n.text(v))</span></li>") }.joined())</ul>"))
          \(if: !silent.isEmpty, HTML("<h2>Entries that do not say</h2><p class=\"muted\" id=\"nutrient-silent\">\(silent.map(\.name).joined(separator: ", ")): their foods give no value for \(n.name.lowercased()), so the day had at least the amount above.</p>"))
          \(if: !yours.isEmpty || !catalogue.isEmpty, HTML("<h2>Rich in \(n.name.lowercased())</h2>"))
          \(if: !yours.isEmpty, HTML("<h3>Your foods</h3><div id=\"nutrient-yours\">\(sources(yours))</div>"))
          \(if: !catalogue.isEmpty, HTML("<h3>From the food catalogue</h3><div id=\"nutrient-catalogue\">\(sources(catalogue))</div>"))
          <p class="button-row"><a class="button" href="\(SiteURL.diary(date: date == today ? nil : date).path(fragment: "nutrients"))">Back to the day</a>
            <a class="button subtle" href="\(SiteURL.diaryAdd(date: date == today ? nil : date).path)">Add to the diary</a></p>
        </section>
        """)
    }
}
