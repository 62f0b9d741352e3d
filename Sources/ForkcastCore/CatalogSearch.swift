import Foundation

/// Finding catalogue foods as a person types: every word of the query must match a word of the
/// name (in any order), as the whole word, its beginning, or with one letter wrong, missing, extra
/// or swapped ("brocoli" finds broccoli). Plurals match singulars ("carrot" ~ "Carrots").
///
/// Ranking, best first: fewer words matched only through a typo, then only as a beginning ("egg"
/// is the egg before the eggplant); the name's first word matched (a carrot before carrot cake's
/// "Cake, carrot"); fewer words in the name beyond the query's, not counting the words that mean
/// the plain food ("raw", "whole", "fresh", "plain"); generic before survey dishes before branded
/// products; the shorter name; then by id.
///
/// The index is compact (flat arrays of numbers, no object per food or word) so that a catalogue
/// with the branded foods, about 390,000 names, takes a few tens of megabytes and a search reads no disk.
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

    /// A search by name (the catalogue's, Open Food Facts') needs this many characters: one letter
    /// matches too much to be worth asking for. A barcode is not a name and is looked up whole.
    public static let minimumQueryLength = 2
    /// The longest name searched for.
    public static let maximumQueryLength = 200

    /// Per food: its id's hash and part, its name's length, its words beyond the plain ones.
    private var keys: [UInt64] = []
    private var ranks: [UInt8] = []
    private var nameLengths: [UInt16] = []
    private var extraWords: [UInt8] = []
    /// Per food: the words of its name before the first comma, and its ``otherFormWords``.
    private var headWords: [UInt8] = []
    private var otherForms: [UInt8] = []
    /// Per food: whether its name starts with one of the ``groupWords``.
    private var groupWord: [Bool] = []
    /// Each food's word numbers: `words[starts[i]..<starts[i + 1]]`.
    private var words: [Int32] = []
    private var starts: [Int32] = [0]
    /// The vocabulary, sorted (a prefix is one range); each word's foods are
    /// `postings[postingStarts[w]..<postingStarts[w + 1]]`, and its letters `letters[letterStarts[w]..<letterStarts[w + 1]]`.
    private var vocabulary: [String] = []
    private var postingStarts: [Int32] = []
    private var postings: [Int32] = []
    private var letterStarts: [Int32] = []
    private var letters: [Unicode.Scalar] = []

    public var count: Int { keys.count }

    /// Adds foods one at a time (a database's rows as they arrive), then makes the index.
    public struct Builder {
        var index = CatalogSearch()
        var wordIds: [String: Int32] = [:]
        var vocabulary: [String] = []
        var counts: [Int32] = []

        public init() {}

        public mutating func add(_ entry: Entry) {
            guard let (source, key) = FoodDataCentral.parseCatalogId(entry.catalogId) else { return }
            let terms = CatalogSearch.terms(entry.name)
            index.keys.append(key)
            index.ranks.append(source.searchRank)
            index.nameLengths.append(UInt16(min(entry.name.count, Int(UInt16.max))))
            index.extraWords.append(UInt8(min(terms.filter { !CatalogSearch.plainWords.contains($0) }.count, 255)))
            let head = entry.name.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first.map { CatalogSearch.terms(String($0)) } ?? []
            index.headWords.append(UInt8(min(head.count, 255)))
            index.groupWord.append(terms.count > 1 && CatalogSearch.groupWords.contains(terms[0]))
            index.otherForms.append(UInt8(min(terms.filter(CatalogSearch.otherFormWords.contains).count, 255)))
            let first = index.words.count
            for term in terms {
                let id: Int32
                if let known = wordIds[term] { id = known } else {
                    id = Int32(vocabulary.count)
                    wordIds[term] = id
                    vocabulary.append(term)
                    counts.append(0)
                }
                if !index.words[first...].contains(id) {
                    index.words.append(id)
                    counts[Int(id)] += 1
                }
            }
            index.starts.append(Int32(index.words.count))
        }

        public consuming func finish() -> CatalogSearch {
            var index = self.index
            // Sort the vocabulary and renumber the words to match.
            let order = vocabulary.indices.sorted { vocabulary[$0] < vocabulary[$1] }
            var renumber = [Int32](repeating: 0, count: order.count)
            index.vocabulary.reserveCapacity(order.count)
            index.postingStarts.reserveCapacity(order.count + 1)
            index.letterStarts.reserveCapacity(order.count + 1)
            var total: Int32 = 0
            for (newId, oldId) in order.enumerated() {
                renumber[oldId] = Int32(newId)
                index.vocabulary.append(vocabulary[oldId])
                index.postingStarts.append(total)
                total += counts[oldId]
                index.letterStarts.append(Int32(index.letters.count))
                index.letters.append(contentsOf: vocabulary[oldId].unicodeScalars)
            }
            index.postingStarts.append(total)
            index.letterStarts.append(Int32(index.letters.count))
            for i in index.words.indices { index.words[i] = renumber[Int(index.words[i])] }
            // Each word's foods, in food order.
            var fill = index.postingStarts
            index.postings = [Int32](repeating: 0, count: Int(total))
            for food in 0..<index.keys.count {
                for i in Int(index.starts[food])..<Int(index.starts[food + 1]) {
                    let w = Int(index.words[i])
                    index.postings[Int(fill[w])] = Int32(food)
                    fill[w] += 1
                }
            }
            return index
        }
    }

    private init() {}

    public init<S: Sequence>(_ entries: S) where S.Element == Entry {
        var builder = Builder()
        for entry in entries { builder.add(entry) }
        self = builder.finish()
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

    private static let sources: [CatalogSource] = CatalogSource.allCases.sorted { $0.searchRank < $1.searchRank }

    private func catalogId(_ food: Int) -> String {
        FoodDataCentral.catalogId(Self.sources[Int(ranks[food])], hash: keys[food])
    }

    /// One page of matches, best first, and how many there are in all.
    public func search(_ query: String, offset: Int, limit: Int) -> (ids: [String], total: Int) {
        let queryTerms = Array(Self.terms(query).prefix(8))
        guard !queryTerms.isEmpty, !keys.isEmpty else { return ([], 0) }
        // For each query word, how each vocabulary word matches it: 0 the whole word, 1 its
        // beginning, 2 with a typo, 3 not at all.
        var matches: [[UInt8]] = []
        var matched: [[Int]] = []
        for term in queryTerms {
            var how = [UInt8](repeating: 3, count: vocabulary.count)
            var list: [Int] = []
            for w in prefixRange(term) {
                how[w] = vocabulary[w] == term ? 0 : 1
                list.append(w)
            }
            // A word no name starts with is looked for with one letter wrong.
            if list.isEmpty, term.count >= 4 {
                for w in typoMatches(term) {
                    how[w] = 2
                    list.append(w)
                }
            }
            if list.isEmpty { return ([], 0) }
            matches.append(how)
            matched.append(list)
        }
        let askedForms = UInt8(queryTerms.filter(Self.otherFormWords.contains).count)
        // Candidates: the foods of the query word with the fewest, each once.
        let fewest = matched.indices.min { postingCount(matched[$0]) < postingCount(matched[$1]) }!
        var seen = [Bool](repeating: false, count: keys.count)
        var scored: [Scored] = []
        for w in matched[fewest] {
            for p in Int(postingStarts[w])..<Int(postingStarts[w + 1]) {
                let food = Int(postings[p])
                if seen[food] { continue }
                seen[food] = true
                let start = Int(starts[food]), end = Int(starts[food + 1])
                var typos: UInt8 = 0, prefixes: UInt8 = 0
                var firstWordMatched = false
                var all = true
                for how in matches {
                    var best: UInt8 = 3
                    for i in start..<end {
                        let h = how[Int(words[i])]
                        if h < 3, i == start || (i == start + 1 && groupWord[food]) { firstWordMatched = true }
                        if h < best { best = h }
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
                let extra = extraWords[food] > UInt8(queryTerms.count) ? extraWords[food] - UInt8(queryTerms.count) : 0
                // "Rice crackers" for "rice": the words before the comma name another food.
                let compound: UInt8 = firstWordMatched && headWords[food] > UInt8(queryTerms.count) ? 1 : 0
                let otherForm = otherForms[food] > askedForms ? otherForms[food] - askedForms : 0
                scored.append(Scored(key: (typos, prefixes, firstWordMatched ? 0 : 1, compound &+ otherForm, extra,
                                           UInt32(ranks[food]) << 16 | UInt32(nameLengths[food])),
                                     food: Int32(food)))
            }
        }
        let total = scored.count
        guard offset < total, limit > 0 else { return ([], total) }
        let wanted = min(total, offset + limit)
        func before(_ a: Scored, _ b: Scored) -> Bool {
            a.key != b.key ? a.key < b.key : (ranks[Int(a.food)], keys[Int(a.food)]) < (ranks[Int(b.food)], keys[Int(b.food)])
        }
        // Only the first `wanted` need ordering: a full sort of thousands of matches is the slow part.
        let top: [Scored]
        if wanted * 4 < total {
            var heap: [Scored] = []
            heap.reserveCapacity(wanted + 1)
            for item in scored {
                if heap.count < wanted {
                    heap.append(item)
                    if heap.count == wanted { heap.sort(by: before) }
                } else if before(item, heap[heap.count - 1]) {
                    let at = heap.firstIndex { before(item, $0) } ?? heap.count
                    heap.insert(item, at: at)
                    heap.removeLast()
                }
            }
            top = heap.count < wanted ? heap.sorted(by: before) : heap
        } else {
            top = scored.sorted(by: before)
        }
        return (top[offset..<wanted].map { catalogId(Int($0.food)) }, total)
    }

    private struct Scored {
        /// Typos, prefixes, first word missed, other forms, extra words, then part and name length in one.
        var key: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt32)
        var food: Int32
    }

    private func postingCount(_ list: [Int]) -> Int {
        list.reduce(0) { $0 + Int(postingStarts[$1 + 1] - postingStarts[$1]) }
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
    private func typoMatches(_ term: String) -> [Int] {
        let q = Array(term.unicodeScalars)
        var result: [Int] = []
        for w in 0..<vocabulary.count {
            let start = Int(letterStarts[w]), length = Int(letterStarts[w + 1]) - start
            guard length + 1 >= q.count else { continue }
            let word = Array(letters[start..<(start + min(length, q.count + 1))])
            if Self.withinOneEdit(q, word) || (word.count > q.count && Self.withinOneEdit(q, Array(word.prefix(q.count)))) {
                result.append(w)
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
