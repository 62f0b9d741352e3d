import Foundation

let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

func fourCC(_ text: String) -> UInt32 {
    text.utf8.reduce(0) { $0 << 8 | UInt32($1) }
}

func startsWith(_ b: [UInt8], _ range: Range<Int>, _ prefix: String) -> Bool {
    let p = Array(prefix.utf8)
    guard range.count >= p.count, range.lowerBound >= 0, range.upperBound <= b.count else { return false }
    return Array(b[range.lowerBound..<(range.lowerBound + p.count)]) == p
}

/// `a + b` for lengths and offsets read from a file: overflow or a negative result is corruption.
func add(_ a: Int, _ b: Int, _ what: String) throws(ImageFile.Problem) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard !overflow, sum >= 0 else { throw .corrupt(what) }
    return sum
}

/// A bounds-checked reader over `bytes[pos..<end]`.
struct Reader {
    let bytes: [UInt8]
    var pos: Int
    let end: Int
    let what: String
    var littleEndian = false

    init(_ bytes: [UInt8], _ range: Range<Int>, what: String, littleEndian: Bool = false) {
        self.bytes = bytes
        self.end = min(max(range.upperBound, 0), bytes.count)
        self.pos = min(max(range.lowerBound, 0), self.end)
        self.what = what
        self.littleEndian = littleEndian
    }

    var remaining: Int { end - pos }

    /// An unsigned number of `size` bytes (0...8; 0 reads nothing and gives 0).
    mutating func read(_ size: Int) throws(ImageFile.Problem) -> Int {
        guard size >= 0, size <= 8, size <= end - pos else { throw .corrupt("\(what) is cut short") }
        var value: UInt64 = 0
        for i in 0..<size {
            let byte = UInt64(bytes[pos + (littleEndian ? size - 1 - i : i)])
            value = value << 8 | byte
        }
        pos += size
        guard let int = Int(exactly: value) else { throw .corrupt("\(what) holds a number too large to be real") }
        return int
    }

    mutating func skip(_ count: Int) throws(ImageFile.Problem) {
        guard count >= 0, count <= end - pos else { throw .corrupt("\(what) is cut short") }
        pos += count
    }

    /// A NUL-terminated string's bytes are skipped (a missing NUL at the end is tolerated).
    mutating func skipCString() {
        while pos < end {
            let byte = bytes[pos]
            pos += 1
            if byte == 0 { return }
        }
    }
}
