import ForkcastCore
import Foundation
import Testing

/// Real recipe pages (Tests/Fixtures/recipes, from recipe-scrapers' test data) read as recipe-scrapers
/// reads them: the pages whose own schema.org data agrees with its expected extraction.
@Suite("Real recipe pages")
struct RecipePageSampleTests {
    struct Page {
        var file: String
        var expected: [String: Any]
        var found: ImportedRecipe?
    }

    static func pages() throws -> [Page] {
        let folder = Fixtures.directory.appendingPathComponent("recipes")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".testhtml") }.sorted()
        return try files.map { file in
            let html = String(decoding: try Data(contentsOf: folder.appendingPathComponent(file)), as: UTF8.self)
            let json = try Data(contentsOf: folder.appendingPathComponent(String(file.dropLast(9)) + ".json"))
            let expected = try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
            return Page(file: file, expected: expected, found: RecipePage.recipes(inHTML: html).first)
        }
    }

    /// recipe-scrapers' own tidying, for comparing its text with ours.
    static func tidy(_ s: String) -> String { RecipePage.text(s).replacingOccurrences(of: " ,", with: ",") }

    static func minutes(_ value: Any?) -> Int? { (value as? NSNumber).map { $0.intValue }.flatMap { $0 > 0 ? $0 : nil } }

    @Test func theSampleReadsAsRecipeScrapersReadsIt() throws {
        let pages = try Self.pages()
        #expect(pages.count >= 100)
        var misses: [String: [String]] = [:]
        func check(_ what: String, _ page: Page, _ ok: Bool) { if !ok { misses[what, default: []].append(page.file) } }
        for page in pages {
            let found = page.found
            check("found", page, found != nil)
            check("title", page, found.map { Self.tidy($0.name) } == (page.expected["title"] as? String).map(Self.tidy))
            let ingredients = (page.expected["ingredients"] as? [String] ?? []).map(Self.tidy)
            check("ingredients", page, found.map { $0.ingredients.map(Self.tidy) } == ingredients)
            check("steps", page, found?.steps.count == (page.expected["instructions_list"] as? [String])?.count)
            let yields = (page.expected["yields"] as? String).flatMap { ImportedRecipe(name: "", yield: $0).servings }
            check("yield", page, found?.servings == yields)
            for key in ["prep_time", "cook_time", "total_time"] {
                let ours = switch key { case "prep_time": found?.prepMinutes; case "cook_time": found?.cookMinutes; default: found?.totalMinutes }
                check(key, page, ours == Self.minutes(page.expected[key]))
            }
        }
        let n = Double(pages.count)
        for (what, share) in [("found", 0.95), ("title", 0.95), ("ingredients", 0.95), ("steps", 0.95), ("yield", 0.9),
                              ("prep_time", 0.9), ("cook_time", 0.9), ("total_time", 0.9)] {
            let missed = misses[what] ?? []
            #expect(1 - Double(missed.count) / n >= share, "\(what): \(missed.count) of \(pages.count) differ: \(missed.prefix(12))")
        }
    }
}
