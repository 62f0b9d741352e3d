import Foundation

/// Reading the recipes a saved web page describes in schema.org terms: its JSON-LD blocks first,
/// then its microdata. The page is only read: nothing in it runs and nothing is fetched.
public enum RecipePage {
    /// Every recipe in the page, in page order; empty when it describes none.
    public static func recipes(inHTML html: String) -> [ImportedRecipe] {
        let bytes = Array(html.utf8)
        var found: [ImportedRecipe] = []
        for block in scriptBlocks(bytes, type: "application/ld+json") {
            found += RecipeSchema.recipes(inJSONLD: block)
        }
        if found.isEmpty { found = RecipeMicrodata.recipes(in: bytes) }
        return found
    }

    /// The text of every `<script>` whose type attribute is `type`.
    static func scriptBlocks(_ bytes: [UInt8], type: String) -> [String] {
        var blocks: [String] = []
        var at = 0
        while let open = find("<script", in: bytes, from: at) {
            guard let tagEnd = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else { break }
            let attributes = String(decoding: bytes[open..<tagEnd], as: UTF8.self).lowercased()
            let close = find("</script", in: bytes, from: tagEnd) ?? bytes.count
            if attributes.replacingOccurrences(of: " ", with: "").contains(type) {
                blocks.append(String(decoding: bytes[(tagEnd + 1)..<close], as: UTF8.self))
            }
            at = close
        }
        return blocks
    }

    /// Where `needle` (lower-case ASCII) starts in `bytes` at or after `from`, ignoring case.
    static func find(_ needle: String, in bytes: [UInt8], from: Int, before end: Int? = nil) -> Int? {
        let n = Array(needle.utf8)
        let last = min(end ?? bytes.count, bytes.count) - n.count
        guard let first = n.first, from <= last else { return nil }
        var i = from
        while i <= last {
            if lower(bytes[i]) == first {
                var j = 1
                while j < n.count, lower(bytes[i + j]) == n[j] { j += 1 }
                if j == n.count { return i }
            }
            i += 1
        }
        return nil
    }

    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    /// Text as a page shows it: entities decoded (twice, as pages double-encode), tags removed,
    /// white space tidied.
    public static func text(_ raw: String) -> String {
        var s = decodingEntities(decodingEntities(raw))
        if s.contains("<") { s = withoutTags(s) }
        return s.tidiedText
    }

    /// Tags removed; a block's edge (a paragraph, a list item, a line break) leaves a space.
    static func withoutTags(_ s: String) -> String {
        var out = "", tag = "", inTag = false
        for c in s {
            if c == "<" { inTag = true; tag = ""; continue }
            if inTag {
                if c == ">" {
                    inTag = false
                    let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                    if blockTags.contains(name) { out.append(" ") }
                } else if tag.count < 12 { tag.append(c) }
                continue
            }
            out.append(c)
        }
        return out
    }

    private static let blockTags: Set<String> = ["br", "p", "li", "div", "tr", "td", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "section"]

    static func decodingEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = "", i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            guard c == "&", let semi = s[i...].prefix(12).firstIndex(of: ";") else { out.append(c); i = s.index(after: i); continue }
            let name = s[s.index(after: i)..<semi]
            if let decoded = entity(name) {
                out.unicodeScalars.append(decoded)
                i = s.index(after: semi)
            } else {
                out.append(c); i = s.index(after: i)
            }
        }
        return out
    }

    private static func entity(_ name: Substring) -> Unicode.Scalar? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        }
        if name.hasPrefix("#") { return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init) }
        return namedEntities[String(name)]
    }

    private static let namedEntities: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "ndash": "–", "mdash": "—",
        "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "deg": "°", "frac12": "½",
        "frac14": "¼", "frac34": "¾", "frac13": "⅓", "frac23": "⅔", "frac18": "⅛", "times": "×", "eacute": "é",
        "egrave": "è", "ecirc": "ê", "aacute": "á", "agrave": "à", "acirc": "â", "iacute": "í", "oacute": "ó",
        "uacute": "ú", "ntilde": "ñ", "ccedil": "ç", "auml": "ä", "ouml": "ö", "uuml": "ü", "szlig": "ß",
        "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "Eacute": "É", "reg": "®", "copy": "©", "trade": "™",
        "frasl": "⁄", "middot": "·", "bull": "•", "iexcl": "¡", "iquest": "¿", "ordm": "º", "ordf": "ª",
        "ocirc": "ô", "icirc": "î", "ucirc": "û", "euml": "ë", "iuml": "ï", "oslash": "ø", "aring": "å", "aelig": "æ",
        "shy": "\u{AD}", "thinsp": "\u{2009}", "ensp": "\u{2002}", "emsp": "\u{2003}", "zwnj": "\u{200C}", "zwj": "\u{200D}",
    ]
}
