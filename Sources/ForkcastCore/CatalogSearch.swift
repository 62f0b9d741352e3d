import Foundation

/// Finding catalogue foods as a person types: every word of the query must match a word of the
/// name (in any order), as the whole word, its beginning, or with one letter wrong, missing, extra
/// or swapped ("brocoli" finds broccoli). Plurals match singulars ("carrot" ~ "Carrots").
///
/// Ranking, best first: fewer words matched only through a typo, then only as a beginning ("egg"
/// is the egg before the eggplant); the name's first word matched
/// (a carrot before carrot cake's "Cake, carrot"); fewer words in the name beyond the query's,
/// not counting the words that mean the plain food ("raw", "whole", "fresh", "plain"); generic
/// before survey dishes before branded products; the shorter name; then alphabetical.
///
/// The index is compact (word ids in flat arrays) so that a catalogue with the branded foods,
/// about 390,000 names, fits in a few tens of megabytes and a search reads no disk.
public struct CatalogSearch: Sendable {
    public struct Entry: Sendable, Hashable {
        public var catalogId: String
        public var name: String
        public var source: CatalogSource

        public init(catalogId: String, name: String, source: CatalogSource) {
            self.catalogId = catalogId
            self.name = name
            self.source = source
        }
    }

    /// Words that describe the plain food and so do not push it down.
    public static let plainWords: Set<String> = ["raw", "whole", "fresh", "plain"]

    private var ids: [String] = []
    private var nameLengths: [UInt16] = []
    private var ranks: [UInt8] = []
    private var extraWords: [UInt8] = []
    /// Each food's word ids: `words[starts[i]..<starts[i + 1]]`.
    private var words: [Int32] = []
    private var starts: [Int32] = [0]
    /// The vocabulary, sorted, and for each word the foods holding it.
    private var vocabulary: [String] = []
    /// The same words as Unicode scalars, for the typo scan.
    private var spelled: [[Unicode.Scalar]] = []
    private var postings: [[Int32]] = []

    public var count: Int { ids.count }

    public init<S: Sequence>(_ entries: S) where S.Element == Entry {
        var wordIds: [String: Int32] = [:]
        var foodWords: [[Int32]] = []
        var lists: [[Int32]] = []
        var names: [String] = []
        for entry in entries {
            let index = Int32(ids.count)
            ids.append(entry.catalogId)
            names.append(entry.name)
            nameLengths.append(UInt16(min(entry.name.count, Int(UInt16.max))))
            ranks.append(entry.source.searchRank)
            let terms = Self.terms(entry.name)
            extraWords.append(UInt8(min(terms.filter { !Self.plainWords.contains($0) }.count, 255)))
            var mine: [Int32] = []
            for term in terms {
                let id: Int32
                if let known = wordIds[term] { id = known } else {
                    id = Int32(lists.count)
                    wordIds[term] = id
                    lists.append([])
                }
                if !mine.contains(id) {
                    mine.append(id)
                    lists[Int(id)].append(index)
                }
            }
            foodWords.append(mine)
        }
        // Sort the vocabulary so that a prefix is one range; renumber the words to match.
        let order = wordIds.sorted { $0.key < $1.key }
        var renumber = [Int32](repeating: 0, count: lists.count)
        vocabulary.reserveCapacity(order.count)
        postings.reserveCapacity(order.count)
        for (newId, (word, oldId)) in order.enumerated() {
            renumber[Int(oldId)] = Int32(newId)
            vocabulary.append(word)
            spelled.append(Array(word.unicodeScalars))
            postings.append(lists[Int(oldId)])
        }
        words.reserveCapacity(foodWords.reduce(0) { $0 + $1.count })
        for list in foodWords {
            words.append(contentsOf: list.map { renumber[Int($0)] })
            starts.append(Int32(words.count))
        }
    }

    /// The lower-cased words of a text with diacritics folded and a plural "s" dropped.
    public static func terms(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split { !$0.isLetter && !$0.isNumber }
            .map { stem(String($0)) }
    }

    static func stem(_ word: String) -> String {
        guard word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss"), !word.hasSuffix("us") else { return word }
        return String(word.dropLast())
    }

    /// One page of matches, best first, and how many there are in all.
    public func search(_ query: String, offset: Int, limit: Int) -> (ids: [String], total: Int) {
        let queryTerms = Array(Self.terms(query).prefix(8))
        guard !queryTerms.isEmpty else { return ([], 0) }
        // For each query word: the vocabulary words it matches, each with how (0 the whole word,
        // 1 its beginning, 2 with a typo).
        var matches: [[Int32: UInt8]] = []
        for term in queryTerms {
            var found: [Int32: UInt8] = [:]
            for w in prefixRange(term) { found[Int32(w)] = vocabulary[w] == term ? 0 : 1 }
            // A word no name starts with is looked for with one letter wrong.
            if found.isEmpty, term.count >= 4 {
                for w in typoMatches(term) where found[w] == nil { found[w] = 2 }
            }
            if found.isEmpty { return ([], 0) }
            matches.append(found)
        }
        // Foods that hold a match for every query word, smallest candidate set first.
        let orderedQueries = matches.indices.sorted { postingCount(matches[$0]) < postingCount(matches[$1]) }
        var candidates = Set<Int32>()
        for w in matches[orderedQueries[0]].keys { candidates.formUnion(postings[Int(w)]) }
        var scored: [Scored] = []
        scored.reserveCapacity(candidates.count)
        for food in candidates {
            let start = Int(starts[Int(food)]), end = Int(starts[Int(food) + 1])
            var typos: UInt8 = 0, prefixes: UInt8 = 0
            var firstWordMatched = false
            var all = true
            for found in matches {
                var best: UInt8 = 3
                for i in start..<end {
                    if let how = found[words[i]] {
                        if i == start { firstWordMatched = true }
                        best = min(best, how)
                    }
                }
                switch best {
                case 0: break
                case 1: prefixes += 1
                case 2: typos += 1
                default: all = false
                }
                if !all { break }
            }
            guard all else { continue }
            let extra = extraWords[Int(food)] > UInt8(queryTerms.count) ? extraWords[Int(food)] - UInt8(queryTerms.count) : 0
            scored.append(Scored(key: (typos, prefixes, firstWordMatched ? 0 : 1, extra, ranks[Int(food)], nameLengths[Int(food)]), food: food))
        }
        let total = scored.count
        guard offset < total, limit > 0 else { return ([], total) }
        let wanted = min(total, offset + limit)
        func before(_ a: Scored, _ b: Scored) -> Bool {
            a.key != b.key ? a.key < b.key : ids[Int(a.food)] < ids[Int(b.food)]
        }
        // Only the first `wanted` need ordering: a full sort of thousands of matches is the slow part.
        let top: [Scored]
        if wanted * 4 < total {
            var heap = scored.prefix(0)
            var threshold = scored[0]
            for item in scored {
                if heap.count < wanted {
                    heap.append(item)
                    if heap.count == wanted { heap.sort(by: before); threshold = heap[heap.count - 1] }
                } else if before(item, threshold) {
                    let at = heap.firstIndex { before(item, $0) } ?? heap.count
                    heap.insert(item, at: at)
                    heap.removeLast()
                    threshold = heap[heap.count - 1]
                }
            }
            top = Array(heap.sorted(by: before))
        } else {
            top = scored.sorted(by: before)
        }
        return (top[offset..<wanted].map { ids[Int($0.food)] }, total)
    }

    private struct Scored {
        var key: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt16)
        var food: Int32
    }

    private func postingCount(_ found: [Int32: UInt8]) -> Int {
        found.keys.reduce(0) { $0 + postings[Int($1)].count }
    }

    /// Vocabulary positions of the words that start with `prefix`.
    private func prefixRange(_ prefix: String) -> Range<Int> {
        var low = 0, high = vocabulary.count
        while low < high {
            let mid = (low + high) / 2
            if vocabulary[mid] < prefix { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < vocabulary.count, vocabulary[end].hasPrefix(prefix) { end += 1 }
        return low..<end
    }

    /// Words one edit away from `term`, or whose beginning is (a word still being typed).
    private func typoMatches(_ term: String) -> [Int32] {
        let q = Array(term.unicodeScalars)
        var result: [Int32] = []
        for (i, word) in spelled.enumerated() where word.count + 1 >= q.count {
            let w = word.count > q.count + 1 ? Array(word.prefix(q.count + 1)) : word
            if Self.withinOneEdit(q, w) || (w.count > q.count && Self.withinOneEdit(q, Array(w.prefix(q.count)))) {
                result.append(Int32(i))
            }
        }
        return result
    }

    /// Whether two words differ by at most one substitution, insertion, deletion or swap of neighbours.
    static func withinOneEdit(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        if abs(a.count - b.count) > 1 { return false }
        var i = 0
        while i < a.count, i < b.count, a[i] == b[i] { i += 1 }
        if i == a.count || i == b.count { return abs(a.count - b.count) <= 1 }
        if a.count == b.count {
            if a[(i + 1)...] == b[(i + 1)...] { return true }
            return i + 1 < a.count && a[i] == b[i + 1] && a[i + 1] == b[i] && a[(i + 2)...] == b[(i + 2)...]
        }
        return a.count > b.count ? a[(i + 1)...] == b[i...] : a[i...] == b[(i + 1)...]
    }
}
