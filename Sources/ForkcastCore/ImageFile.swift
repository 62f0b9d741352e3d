import Foundation

/// The photo formats Forkcast accepts, recognised by their content.
public enum ImageFormat: String, Sendable, Codable {
    case jpeg, png, webp, heic

    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heic: "image/heic"
        }
    }

    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .heic: "heic"
        }
    }
}

/// An uploaded photo, read by its bytes alone: what format it is, how big it is, and the same photo
/// without the metadata (place, camera, names, comments) that a person did not mean to share.
///
/// Everything here reads untrusted bytes: every read is bounds-checked, every length taken from the
/// file is added with overflow checks, and every loop advances, so no input crashes or hangs it.
public struct ImageFile: Sendable {
    public let format: ImageFormat
    public let width: Int
    public let height: Int

    /// The largest side accepted, in pixels.
    public static let maxSide = 20_000
    /// The most pixels accepted (100 megapixels).
    public static let maxPixels = 100_000_000

    public enum Problem: Error, Sendable, Equatable {
        case notAnImage
        case unsupported(String)
        case corrupt(String)
        case tooLarge(String)

        /// One clear sentence for a person.
        public var message: String {
            switch self {
            case .notAnImage: "The file is not a JPEG, PNG, WebP or HEIC image."
            case .unsupported(let detail): "This image can't be used: \(detail)."
            case .corrupt(let detail): "The image file is damaged or incomplete (\(detail))."
            case .tooLarge(let detail): "The image is too large (\(detail))."
            }
        }
    }

    /// Recognises the format by content (magic bytes), never by name or header, and reads the pixel size
    /// from the headers. Throws ImageFile.Problem for anything else, truncated or corrupt files, sizes of 0
    /// or above 20000 px per side, or more than 100 megapixels.
    public static func inspect(_ data: Data) throws(ImageFile.Problem) -> ImageFile {
        let bytes = [UInt8](data)
        switch sniff(bytes) {
        case .jpeg:
            let layout = try JPEGLayout(bytes)
            return try sized(.jpeg, layout.width, layout.height)
        case .png:
            let layout = try PNGLayout(bytes)
            return try sized(.png, layout.width, layout.height)
        case .webp:
            let layout = try WebPLayout(bytes)
            return try sized(.webp, layout.width, layout.height)
        case .heic:
            let layout = try HEIFLayout(bytes)
            return try sized(.heic, layout.width, layout.height)
        case nil:
            throw .notAnImage
        }
    }

    /// The same image with every metadata block removed: EXIF (incl. GPS), XMP, IPTC, comments, text chunks.
    /// Pixels are not re-encoded. The result must still be a valid image of the same format and size.
    ///
    /// What stays, because it changes how the picture looks: JFIF (APP0), ICC colour profiles, the
    /// Adobe APP14 colour-transform flag, PNG/WebP colour chunks. A JPEG, PNG or WebP whose EXIF says
    /// the picture is rotated or mirrored (Orientation 2-8) gets a new EXIF block holding that one
    /// tag and nothing else, so phone photos are not shown sideways. Bytes after the image's end
    /// (JPEG EOI, PNG IEND, the RIFF size) are dropped: they can hold further images and their EXIF.
    public static func strippingMetadata(_ data: Data) throws(ImageFile.Problem) -> Data {
        let original = try inspect(data)
        let bytes = [UInt8](data)
        let stripped: [UInt8]
        switch original.format {
        case .jpeg: stripped = try JPEGLayout(bytes).stripped()
        case .png: stripped = try PNGLayout(bytes).stripped()
        case .webp: stripped = try WebPLayout(bytes).stripped()
        case .heic: stripped = try HEIFLayout(bytes).stripped()
        }
        let result = Data(stripped)
        // Belt and braces: what we hand back must read as the same picture.
        let check: ImageFile
        do { check = try inspect(result) } catch { throw .corrupt("the image did not survive removing its metadata") }
        guard check.format == original.format, check.width == original.width, check.height == original.height else {
            throw .corrupt("the image did not survive removing its metadata")
        }
        return result
    }

    /// For JPEG: the small JPEG thumbnail embedded in EXIF IFD1 (JPEGInterchangeFormat/Length), if any,
    /// itself stripped of metadata and verified with inspect(); nil otherwise / for other formats.
    /// The photo's EXIF Orientation (2-8) applies to its thumbnail too, so the thumbnail is given the
    /// same orientation-only EXIF block as the stripped photo.
    public static func embeddedThumbnail(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        guard sniff(bytes) == .jpeg, let layout = try? JPEGLayout(bytes),
              let tiff = layout.exifTIFF(), let range = tiff.thumbnailRange() else { return nil }
        let thumbnail = Data(tiff.bytes[range])
        guard let stripped = try? strippingMetadata(thumbnail), let info = try? inspect(stripped),
              info.format == .jpeg else { return nil }
        guard let orientation = tiff.orientation, orientation != 1 else { return stripped }
        guard let clean = try? JPEGLayout([UInt8](stripped)) else { return nil }
        let turned = Data(clean.stripped(orientation: orientation))
        guard let check = try? inspect(turned), check.width == info.width, check.height == info.height else { return nil }
        return turned
    }

    // MARK: - Shared

    static func sniff(_ b: [UInt8]) -> ImageFormat? {
        if b.count >= 2, b[0] == 0xFF, b[1] == 0xD8 { return .jpeg }
        if b.count >= 8, Array(b[0..<8]) == pngSignature { return .png }
        if b.count >= 12, Array(b[0..<4]) == Array("RIFF".utf8), Array(b[8..<12]) == Array("WEBP".utf8) { return .webp }
        if b.count >= 8, Array(b[4..<8]) == Array("ftyp".utf8) { return .heic }
        return nil
    }

    static func sized(_ format: ImageFormat, _ width: Int, _ height: Int) throws(Problem) -> ImageFile {
        guard width > 0, height > 0 else { throw .corrupt("its width or height is 0") }
        guard width <= maxSide, height <= maxSide else {
            throw .tooLarge("\(width) × \(height) pixels; at most \(maxSide) pixels on a side are accepted")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw .tooLarge("\(width) × \(height) pixels; at most \(maxPixels / 1_000_000) megapixels are accepted")
        }
        return ImageFile(format: format, width: width, height: height)
    }
}

// MARK: - Byte reading

fileprivate let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

fileprivate func fourCC(_ text: String) -> UInt32 {
    text.utf8.reduce(0) { $0 << 8 | UInt32($1) }
}

fileprivate func startsWith(_ b: [UInt8], _ range: Range<Int>, _ prefix: String) -> Bool {
    let p = Array(prefix.utf8)
    guard range.count >= p.count, range.lowerBound >= 0, range.upperBound <= b.count else { return false }
    return Array(b[range.lowerBound..<(range.lowerBound + p.count)]) == p
}

/// `a + b` for lengths and offsets read from a file: overflow or a negative result is corruption.
fileprivate func add(_ a: Int, _ b: Int, _ what: String) throws(ImageFile.Problem) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard !overflow, sum >= 0 else { throw .corrupt(what) }
    return sum
}

/// A bounds-checked reader over `bytes[pos..<end]`.
fileprivate struct Reader {
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

// MARK: - EXIF (TIFF) for the orientation and the IFD1 thumbnail

/// The TIFF structure inside an EXIF block. Best effort: anything odd gives nil.
struct ExifTIFF {
    let bytes: [UInt8]
    let littleEndian: Bool

    /// From an EXIF payload with or without the "Exif\0\0" prefix.
    init?(_ payload: ArraySlice<UInt8>) {
        var body = Array(payload)
        if body.count >= 6, Array(body[0..<4]) == Array("Exif".utf8) { body.removeFirst(6) }
        guard body.count >= 8 else { return nil }
        if body[0] == 0x49, body[1] == 0x49, body[2] == 0x2A, body[3] == 0x00 {
            littleEndian = true
        } else if body[0] == 0x4D, body[1] == 0x4D, body[2] == 0x00, body[3] == 0x2A {
            littleEndian = false
        } else {
            return nil
        }
        bytes = body
    }

    func number(at offset: Int, size: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count else { return nil }
        var reader = Reader(bytes, offset..<bytes.count, what: "EXIF", littleEndian: littleEndian)
        return try? reader.read(size)
    }

    struct Entry { let tag: Int, type: Int, count: Int, valueOffset: Int }

    /// The entries of the IFD at `offset` and the offset of the next IFD (0 for none).
    func ifd(at offset: Int) -> (entries: [Entry], next: Int)? {
        guard offset >= 8, let count = number(at: offset, size: 2) else { return nil }
        let first = offset + 2
        let nextAt = first + count * 12
        guard nextAt <= bytes.count else { return nil }
        var entries: [Entry] = []
        for i in 0..<count {
            let at = first + i * 12
            guard let tag = number(at: at, size: 2), let type = number(at: at + 2, size: 2),
                  let n = number(at: at + 4, size: 4) else { return nil }
            entries.append(Entry(tag: tag, type: type, count: n, valueOffset: at + 8))
        }
        return (entries, number(at: nextAt, size: 4) ?? 0)
    }

    /// A SHORT or LONG value held in the entry itself.
    func value(_ entry: Entry) -> Int? {
        guard entry.count == 1 else { return nil }
        switch entry.type {
        case 3: return number(at: entry.valueOffset, size: 2)
        case 4: return number(at: entry.valueOffset, size: 4)
        default: return nil
        }
    }

    /// Orientation (tag 0x0112) from IFD0, 1...8.
    var orientation: Int? {
        guard let ifd0 = number(at: 4, size: 4), let (entries, _) = ifd(at: ifd0),
              let entry = entries.first(where: { $0.tag == 0x0112 }), let value = value(entry),
              (1...8).contains(value) else { return nil }
        return value
    }

    /// The bytes of the JPEG thumbnail named by IFD1's JPEGInterchangeFormat (0x0201) and
    /// JPEGInterchangeFormatLength (0x0202).
    func thumbnailRange() -> Range<Int>? {
        guard let ifd0 = number(at: 4, size: 4), let (_, ifd1) = ifd(at: ifd0), ifd1 != 0, ifd1 != ifd0,
              let (entries, _) = ifd(at: ifd1),
              let offsetEntry = entries.first(where: { $0.tag == 0x0201 }), let offset = value(offsetEntry),
              let lengthEntry = entries.first(where: { $0.tag == 0x0202 }), let length = value(lengthEntry),
              length > 0 else { return nil }
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, offset >= 8, end <= bytes.count else { return nil }
        return offset..<end
    }

    /// A big-endian TIFF holding IFD0 with one entry, Orientation, and nothing else.
    static func onlyOrientation(_ orientation: Int) -> [UInt8] {
        [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,
         0x00, 0x01,
         0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(orientation & 0xFF), 0x00, 0x00,
         0x00, 0x00, 0x00, 0x00]
    }
}

/// The orientation worth keeping after stripping: 2...8 (1 is the default and needs no block).
fileprivate func orientationToKeep(_ payload: ArraySlice<UInt8>) -> Int? {
    guard let orientation = ExifTIFF(payload)?.orientation, orientation != 1 else { return nil }
    return orientation
}

// MARK: - JPEG

struct JPEGLayout {
    enum Piece {
        /// A marker without a length: TEM (01) or RSTn (D0-D7) outside the scan data.
        case marker(UInt8)
        /// A marker segment; the range is its payload (after the two length bytes).
        case segment(UInt8, Range<Int>)
        /// Entropy-coded scan data (RST markers included), copied verbatim.
        case entropy(Range<Int>)
        /// A segment written by us (the orientation-only EXIF block).
        case added(UInt8, [UInt8])
    }

    let bytes: [UInt8]
    var pieces: [Piece] = []
    var width = 0
    var height = 0

    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    init(_ b: [UInt8]) throws(ImageFile.Problem) {
        bytes = b
        guard b.count >= 2, b[0] == 0xFF, b[1] == 0xD8 else { throw .notAnImage }
        var pos = 2
        var frame: (width: Int, height: Int)?
        var inScan = false
        while true {
            if inScan {
                // Scan data runs to the next marker that is not a stuffed 00 or an RSTn.
                let start = pos
                var i = pos
                var markerAt: Int?
                while i < b.count {
                    if b[i] != 0xFF { i += 1; continue }
                    var j = i + 1
                    while j < b.count, b[j] == 0xFF { j += 1 }
                    guard j < b.count else { break }
                    let m = b[j]
                    if m == 0x00 || (0xD0...0xD7).contains(m) { i = j + 1; continue }
                    markerAt = i
                    break
                }
                guard let markerAt else { throw .corrupt("the JPEG image data ends before the end-of-image marker") }
                if markerAt > start { pieces.append(.entropy(start..<markerAt)) }
                pos = markerAt
            }
            guard pos < b.count else { throw .corrupt("the JPEG file ends before its image data") }
            guard b[pos] == 0xFF else { throw .corrupt("a JPEG marker is missing where one should be") }
            var j = pos + 1
            while j < b.count, b[j] == 0xFF { j += 1 } // fill bytes
            guard j < b.count else { throw .corrupt("the JPEG file ends before its image data") }
            let marker = b[j]
            pos = j + 1
            switch marker {
            case 0xD9:
                guard inScan, let frame else { throw .corrupt("the JPEG file has no image data") }
                width = frame.width
                height = frame.height
                return
            case 0x01, 0xD0...0xD7:
                pieces.append(.marker(marker))
            case 0x00, 0xD8:
                throw .corrupt("the JPEG file has a marker that cannot be there")
            default:
                guard pos + 2 <= b.count else { throw .corrupt("the JPEG file ends inside a segment") }
                let length = Int(b[pos]) << 8 | Int(b[pos + 1])
                guard length >= 2 else { throw .corrupt("a JPEG segment has an impossible length") }
                let end = try add(pos, length, "a JPEG segment has an impossible length")
                guard end <= b.count else { throw .corrupt("a JPEG segment runs past the end of the file") }
                let payload = (pos + 2)..<end
                if Self.isStartOfFrame(marker), frame == nil {
                    var reader = Reader(b, payload, what: "the JPEG frame header")
                    try reader.skip(1) // sample precision
                    let h = try reader.read(2)
                    let w = try reader.read(2)
                    frame = (w, h)
                }
                if marker == 0xDA {
                    guard frame != nil else { throw .corrupt("the JPEG image data comes before its frame header") }
                    inScan = true
                }
                pieces.append(.segment(marker, payload))
                pos = end
            }
        }
    }

    /// The first APP1 EXIF block's TIFF structure.
    func exifTIFF() -> ExifTIFF? {
        for piece in pieces {
            if case .segment(0xE1, let range) = piece, startsWith(bytes, range, "Exif\0") {
                return ExifTIFF(bytes[range])
            }
        }
        return nil
    }

    /// Whether a segment stays when metadata is removed.
    func keeps(_ marker: UInt8, _ payload: Range<Int>) -> Bool {
        switch marker {
        case 0xE0: startsWith(bytes, payload, "JFIF\0") // JFXX (a thumbnail) goes
        case 0xE2: startsWith(bytes, payload, "ICC_PROFILE\0") // colour profile; MPF and FlashPix go
        case 0xEE: startsWith(bytes, payload, "Adobe") // colour transform (RGB/YCC/CMYK/YCCK)
        case 0xE1, 0xE3...0xED, 0xEF, 0xFE: false // EXIF, XMP, IPTC, JUMBF, comments, makers' blocks
        default: true
        }
    }

    /// Without metadata; `orientation` (default: this file's own EXIF Orientation) 2-8 is kept in an
    /// EXIF block of its own.
    func stripped(orientation: Int? = nil) -> [UInt8] {
        var kept: [Piece] = pieces.filter { piece in
            if case .segment(let marker, let payload) = piece { return keeps(marker, payload) }
            return true
        }
        if let orientation = orientation ?? exifTIFF()?.orientation, (2...8).contains(orientation) {
            // After the leading JFIF block, where EXIF readers expect it.
            var at = 0
            while at < kept.count, case .segment(0xE0, _) = kept[at] { at += 1 }
            kept.insert(.added(0xE1, Array("Exif\0\0".utf8) + ExifTIFF.onlyOrientation(orientation)), at: at)
        }
        var out: [UInt8] = [0xFF, 0xD8]
        func segment(_ marker: UInt8, _ body: ArraySlice<UInt8>) {
            let length = body.count + 2
            out += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)]
            out += body
        }
        for piece in kept {
            switch piece {
            case .marker(let marker): out += [0xFF, marker]
            case .segment(let marker, let payload): segment(marker, bytes[payload])
            case .added(let marker, let body): segment(marker, body[...])
            case .entropy(let range): out += bytes[range]
            }
        }
        out += [0xFF, 0xD9]
        return out
    }
}

// MARK: - PNG

fileprivate let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
}

fileprivate func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
}

struct PNGLayout {
    struct Chunk {
        let type: UInt32
        /// From the length field to the end of the CRC.
        let whole: Range<Int>
        let payload: Range<Int>
    }

    let bytes: [UInt8]
    var chunks: [Chunk] = []
    var width = 0
    var height = 0

    /// Chunks that carry metadata: EXIF, text (comments, XMP in iTXt), the modification time, and
    /// C2PA content credentials.
    static let metadataChunks: Set<UInt32> = Set(["eXIf", "tEXt", "zTXt", "iTXt", "tIME", "caBX"].map(fourCC))

    init(_ b: [UInt8]) throws(ImageFile.Problem) {
        bytes = b
        guard b.count >= 8, Array(b[0..<8]) == pngSignature else { throw .notAnImage }
        var pos = 8
        var sawData = false
        while true {
            var reader = Reader(b, pos..<b.count, what: "the PNG file")
            guard reader.remaining >= 8 else { throw .corrupt("the PNG file ends before its end chunk") }
            let length = try reader.read(4)
            guard length <= 0x7FFF_FFFF else { throw .corrupt("a PNG chunk has an impossible length") }
            let typeStart = reader.pos
            let type = UInt32(try reader.read(4))
            for byte in b[typeStart..<(typeStart + 4)] where !(0x41...0x5A).contains(byte) && !(0x61...0x7A).contains(byte) {
                throw .corrupt("a PNG chunk has an invalid name")
            }
            let payloadEnd = try add(typeStart + 4, length, "a PNG chunk has an impossible length")
            let end = try add(payloadEnd, 4, "a PNG chunk has an impossible length")
            guard end <= b.count else { throw .corrupt("a PNG chunk runs past the end of the file") }
            let chunk = Chunk(type: type, whole: pos..<end, payload: (typeStart + 4)..<payloadEnd)
            if chunks.isEmpty {
                guard type == fourCC("IHDR"), length == 13 else { throw .corrupt("the PNG file does not start with its header") }
                var header = Reader(b, chunk.payload, what: "the PNG header")
                width = try header.read(4)
                height = try header.read(4)
                let depth = try header.read(1)
                let colour = try header.read(1)
                guard [1, 2, 4, 8, 16].contains(depth), [0, 2, 3, 4, 6].contains(colour) else {
                    throw .corrupt("the PNG header names an impossible pixel format")
                }
            }
            if type == fourCC("IDAT") { sawData = true }
            chunks.append(chunk)
            pos = end
            if type == fourCC("IEND") { break }
        }
        guard sawData else { throw .corrupt("the PNG file has no image data") }
    }

    func stripped() -> [UInt8] {
        var out = pngSignature
        var orientation: Int?
        if let exif = chunks.first(where: { $0.type == fourCC("eXIf") }) {
            orientation = orientationToKeep(bytes[exif.payload])
        }
        for chunk in chunks {
            if Self.metadataChunks.contains(chunk.type) {
                if chunk.type == fourCC("eXIf"), let keep = orientation {
                    // Where the old eXIf was (before IDAT), holding only the orientation.
                    let tiff = ExifTIFF.onlyOrientation(keep)
                    let typeAndData = Array("eXIf".utf8) + tiff
                    out += bigEndian32(UInt32(tiff.count)) + typeAndData + bigEndian32(crc32(typeAndData))
                    orientation = nil
                }
                continue
            }
            out += bytes[chunk.whole]
        }
        return out
    }
}

fileprivate func bigEndian32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
}

fileprivate func littleEndian32(_ value: UInt32) -> [UInt8] {
    [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
}

// MARK: - WebP

struct WebPLayout {
    struct Chunk {
        let type: UInt32
        let payload: Range<Int>
    }

    let bytes: [UInt8]
    var chunks: [Chunk] = []
    var width = 0
    var height = 0

    static let vp8 = fourCC("VP8 "), vp8l = fourCC("VP8L"), vp8x = fourCC("VP8X")
    static let exif = fourCC("EXIF"), xmp = fourCC("XMP "), anmf = fourCC("ANMF")

    init(_ b: [UInt8]) throws(ImageFile.Problem) {
        bytes = b
        guard b.count >= 12, Array(b[0..<4]) == Array("RIFF".utf8), Array(b[8..<12]) == Array("WEBP".utf8) else {
            throw .notAnImage
        }
        var header = Reader(b, 4..<8, what: "the WebP header", littleEndian: true)
        let riffSize = try header.read(4)
        let riffEnd = try add(8, riffSize, "the WebP header has an impossible size")
        guard riffSize >= 4 + 8 else { throw .corrupt("the WebP file holds no image") }
        guard riffEnd <= b.count else { throw .corrupt("the WebP file is shorter than its header says") }
        var pos = 12
        while pos < riffEnd {
            var reader = Reader(b, pos..<riffEnd, what: "a WebP chunk", littleEndian: true)
            let type = try reader.readFourCC()
            let size = try reader.read(4)
            let payloadEnd = try add(reader.pos, size, "a WebP chunk has an impossible size")
            guard payloadEnd <= riffEnd else { throw .corrupt("a WebP chunk runs past the end of the file") }
            chunks.append(Chunk(type: type, payload: reader.pos..<payloadEnd))
            // Chunks are padded to an even size; a last chunk missing its pad byte is tolerated.
            pos = min(payloadEnd + (size & 1), riffEnd)
        }
        guard let first = chunks.first else { throw .corrupt("the WebP file holds no image") }
        var p = Reader(b, first.payload, what: "the WebP image header", littleEndian: true)
        switch first.type {
        case Self.vp8:
            let tag = try p.read(3)
            guard tag & 1 == 0 else { throw .corrupt("the WebP image does not start with a key frame") }
            guard try p.read(1) == 0x9D, try p.read(1) == 0x01, try p.read(1) == 0x2A else {
                throw .corrupt("the WebP image's start code is missing")
            }
            width = try p.read(2) & 0x3FFF
            height = try p.read(2) & 0x3FFF
        case Self.vp8l:
            guard try p.read(1) == 0x2F else { throw .corrupt("the WebP lossless signature is missing") }
            let bits = try p.read(4)
            guard bits >> 29 == 0 else { throw .unsupported("this WebP lossless version is unknown") }
            width = (bits & 0x3FFF) + 1
            height = ((bits >> 14) & 0x3FFF) + 1
        case Self.vp8x:
            try p.skip(4) // flags and reserved bits
            width = try p.read(3) + 1
            height = try p.read(3) + 1
            guard chunks.contains(where: { [Self.vp8, Self.vp8l, Self.anmf].contains($0.type) }) else {
                throw .corrupt("the WebP file holds no image data")
            }
        default:
            throw .corrupt("the WebP file does not start with an image chunk")
        }
    }

    func stripped() -> [UInt8] {
        let extended = chunks.first?.type == Self.vp8x
        var orientation: Int?
        if extended, let exif = chunks.first(where: { $0.type == Self.exif }) {
            orientation = orientationToKeep(bytes[exif.payload])
        }
        var out = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8)
        func append(_ type: UInt32, _ payload: [UInt8]) {
            out += bigEndian32(type) + littleEndian32(UInt32(payload.count)) + payload
            if payload.count & 1 == 1 { out.append(0) }
        }
        for chunk in chunks where chunk.type != Self.exif && chunk.type != Self.xmp {
            var payload = Array(bytes[chunk.payload])
            if chunk.type == Self.vp8x, !payload.isEmpty {
                payload[0] &= ~UInt8(0x04) // XMP
                if orientation == nil { payload[0] &= ~UInt8(0x08) } // EXIF
            }
            append(chunk.type, payload)
        }
        if let orientation {
            append(Self.exif, ExifTIFF.onlyOrientation(orientation)) // metadata goes last
        }
        let riffSize = littleEndian32(UInt32(truncatingIfNeeded: out.count - 8))
        out.replaceSubrange(4..<8, with: riffSize)
        return out
    }
}

fileprivate extension Reader {
    /// Four bytes as written (a chunk name), whatever the reader's byte order.
    mutating func readFourCC() throws(ImageFile.Problem) -> UInt32 {
        guard remaining >= 4 else { throw .corrupt("\(what) is cut short") }
        let value = UInt32(bytes[pos]) << 24 | UInt32(bytes[pos + 1]) << 16 | UInt32(bytes[pos + 2]) << 8 | UInt32(bytes[pos + 3])
        pos += 4
        return value
    }
}

// MARK: - HEIC (ISO base media file format)

struct HEIFLayout {
    struct Box {
        let type: UInt32
        let whole: Range<Int>
        let payload: Range<Int>
    }

    struct Location {
        let method: Int
        let dataReference: Int
        /// Absolute file ranges for construction method 0; a length of 0 means "to the end".
        let extents: [(offset: Int, length: Int)]
    }

    let bytes: [UInt8]
    var topLevel: [Box] = []
    var itemTypes: [Int: UInt32] = [:]
    var locations: [Int: Location] = [:]
    var width = 0
    var height = 0

    static let heicBrands = Set(["heic", "heix", "hevc", "hevx", "heim", "heis"].map(fourCC))
    static let genericBrands = Set(["mif1", "msf1"].map(fourCC))
    static let avifBrands = Set(["avif", "avis"].map(fourCC))
    /// Item types that hold metadata rather than pictures: EXIF, XMP (a mime item), URI-typed metadata.
    static let metadataItems = Set(["Exif", "mime", "uri "].map(fourCC))
    static let pictureItems = Set(["hvc1", "grid", "iden", "iovl"].map(fourCC))

    /// The boxes in `range`. A length of 0 ("to the end") or one that leaves its container is corrupt.
    static func boxes(_ b: [UInt8], _ range: Range<Int>) throws(ImageFile.Problem) -> [Box] {
        var result: [Box] = []
        var pos = range.lowerBound
        while pos < range.upperBound {
            var reader = Reader(b, pos..<range.upperBound, what: "an HEIF box")
            let size32 = try reader.read(4)
            let type = try reader.readFourCC()
            var size = size32
            if size32 == 1 {
                size = try reader.read(8)
            } else if size32 == 0 {
                throw .corrupt("an HEIF box has a length of 0")
            }
            if type == fourCC("uuid") { try reader.skip(16) }
            let headerSize = reader.pos - pos
            guard size >= headerSize else { throw .corrupt("an HEIF box is shorter than its own header") }
            let end = try add(pos, size, "an HEIF box has an impossible length")
            guard end <= range.upperBound else { throw .corrupt("an HEIF box runs past the end of its container") }
            result.append(Box(type: type, whole: pos..<end, payload: reader.pos..<end))
            pos = end
        }
        return result
    }

    init(_ b: [UInt8]) throws(ImageFile.Problem) {
        bytes = b
        // The brands first, so that a video or an AVIF is named as such even if it is damaged.
        guard b.count >= 16, Array(b[4..<8]) == Array("ftyp".utf8) else { throw .notAnImage }
        var ftypReader = Reader(b, 0..<b.count, what: "the HEIF file type")
        let ftypSize = try ftypReader.read(4)
        guard ftypSize >= 16, ftypSize <= b.count, ftypSize % 4 == 0 else {
            throw ftypSize > b.count ? .corrupt("the HEIF file type box is cut short") : .notAnImage
        }
        var brands: [UInt32] = []
        var brandReader = Reader(b, 8..<ftypSize, what: "the HEIF file type")
        brands.append(try brandReader.readFourCC())
        try brandReader.skip(4) // minor version
        while brandReader.remaining >= 4 { brands.append(try brandReader.readFourCC()) }
        if !brands.contains(where: Self.heicBrands.contains) {
            if brands.contains(where: Self.avifBrands.contains) { throw .unsupported("AVIF is not supported") }
            guard brands.contains(where: Self.genericBrands.contains) else { throw .notAnImage }
        }

        topLevel = try Self.boxes(b, 0..<b.count)
        guard let meta = topLevel.first(where: { $0.type == fourCC("meta") }) else {
            if topLevel.contains(where: { $0.type == fourCC("moov") }) {
                throw .unsupported("HEIF image sequences are not supported")
            }
            throw .corrupt("the HEIC file has no image information")
        }
        guard meta.payload.count >= 4 else { throw .corrupt("the HEIC image information is cut short") }
        let children = try Self.boxes(b, (meta.payload.lowerBound + 4)..<meta.payload.upperBound)

        var primary: Int?
        if let pitm = children.first(where: { $0.type == fourCC("pitm") }) {
            var r = Reader(b, pitm.payload, what: "the HEIC primary item")
            let version = try r.read(1)
            try r.skip(3)
            primary = try r.read(version == 0 ? 2 : 4)
        }

        if let iinf = children.first(where: { $0.type == fourCC("iinf") }) {
            var r = Reader(b, iinf.payload, what: "the HEIC item list")
            let version = try r.read(1)
            try r.skip(3)
            _ = try r.read(version == 0 ? 2 : 4) // entry count: the boxes themselves are what counts
            for infe in try Self.boxes(b, r.pos..<iinf.payload.upperBound) where infe.type == fourCC("infe") {
                var e = Reader(b, infe.payload, what: "an HEIC item description")
                let infeVersion = try e.read(1)
                try e.skip(3)
                guard infeVersion >= 2 else { throw .unsupported("this HEIC file describes its items in an old form") }
                let id = try e.read(infeVersion == 2 ? 2 : 4)
                try e.skip(2) // protection index
                itemTypes[id] = try e.readFourCC()
            }
        }

        if let iloc = children.first(where: { $0.type == fourCC("iloc") }) {
            locations = try Self.parseLocations(b, iloc, idat: children.first(where: { $0.type == fourCC("idat") }))
        }

        // Sizes: the primary item's ispe, cropped by its clap and turned by its irot (in the order the
        // item lists them, as readers apply them), else the largest ispe.
        var properties: [Box] = []
        var associations: [Int: [Int]] = [:]
        if let iprp = children.first(where: { $0.type == fourCC("iprp") }) {
            let parts = try Self.boxes(b, iprp.payload)
            if let ipco = parts.first(where: { $0.type == fourCC("ipco") }) {
                properties = try Self.boxes(b, ipco.payload)
            }
            for ipma in parts where ipma.type == fourCC("ipma") {
                var r = Reader(b, ipma.payload, what: "the HEIC property list")
                let version = try r.read(1)
                let flags = try r.read(3)
                let count = try r.read(4)
                for _ in 0..<count {
                    let id = try r.read(version < 1 ? 2 : 4)
                    let n = try r.read(1)
                    for _ in 0..<n {
                        let index: Int
                        if flags & 1 == 1 { index = try r.read(2) & 0x7FFF } else { index = try r.read(1) & 0x7F }
                        if index > 0 { associations[id, default: []].append(index) }
                    }
                }
            }
        }
        func spatialExtent(_ box: Box) throws(ImageFile.Problem) -> (Int, Int) {
            var r = Reader(b, box.payload, what: "an HEIC image size")
            try r.skip(4)
            return (try r.read(4), try r.read(4))
        }
        var size: (Int, Int)?
        if let primary, let indices = associations[primary] {
            for index in indices where index <= properties.count {
                let property = properties[index - 1]
                if property.type == fourCC("ispe"), size == nil { size = try spatialExtent(property) }
                if property.type == fourCC("clap"), let (w, h) = size {
                    // Clean aperture: width and height as fractions (the encoder pads to whole blocks).
                    var r = Reader(b, property.payload, what: "an HEIC crop")
                    let widthN = try r.read(4), widthD = try r.read(4)
                    let heightN = try r.read(4), heightD = try r.read(4)
                    guard widthD > 0, heightD > 0 else { throw .corrupt("an HEIC crop divides by zero") }
                    let cropped = ((widthN + widthD / 2) / widthD, (heightN + heightD / 2) / heightD)
                    if cropped.0 <= w, cropped.1 <= h { size = cropped }
                }
                if property.type == fourCC("irot"), let angle = property.payload.first.map({ Int(b[$0]) & 3 }),
                   angle == 1 || angle == 3, let (w, h) = size {
                    size = (h, w)
                }
            }
        }
        if size == nil {
            for property in properties where property.type == fourCC("ispe") {
                let (w, h) = try spatialExtent(property)
                if let (bw, bh) = size, bw.multipliedReportingOverflow(by: bh).partialValue >= w.multipliedReportingOverflow(by: h).partialValue {
                    continue
                }
                size = (w, h)
            }
        }
        guard let (w, h) = size else { throw .corrupt("the HEIC file does not give the image's size") }
        width = w
        height = h

        guard let primary, let type = itemTypes[primary] else { throw .corrupt("the HEIC file does not name its image") }
        if type == fourCC("av01") { throw .unsupported("AVIF is not supported") }
        guard Self.pictureItems.contains(type) else { throw .unsupported("this HEIF image is not coded in HEVC") }
        // Every item stored in this file must lie within it: a cut-short file fails here.
        for location in locations.values where location.method == 0 && location.dataReference == 0 {
            for extent in location.extents {
                let end = try add(extent.offset, extent.length, "an HEIC item has an impossible position")
                guard end <= b.count else { throw .corrupt("the HEIC file is cut short") }
            }
        }
    }

    static func parseLocations(_ b: [UInt8], _ iloc: Box, idat: Box?) throws(ImageFile.Problem) -> [Int: Location] {
        var r = Reader(b, iloc.payload, what: "the HEIC item locations")
        let version = try r.read(1)
        try r.skip(3)
        guard version <= 2 else { throw .unsupported("this HEIC file locates its items in an unknown way") }
        let sizes = try r.read(1)
        let offsetSize = sizes >> 4, lengthSize = sizes & 0x0F
        let more = try r.read(1)
        let baseOffsetSize = more >> 4, indexSize = version == 0 ? 0 : more & 0x0F
        for field in [offsetSize, lengthSize, baseOffsetSize, indexSize] where ![0, 4, 8].contains(field) {
            throw .corrupt("the HEIC item locations use an impossible field size")
        }
        let count = try r.read(version < 2 ? 2 : 4)
        var result: [Int: Location] = [:]
        for _ in 0..<count {
            let id = try r.read(version < 2 ? 2 : 4)
            var method = 0
            if version > 0 { method = try r.read(2) & 0x0F }
            let dataReference = try r.read(2)
            let base = try r.read(baseOffsetSize)
            let extentCount = try r.read(2)
            // Extent fields of size 0 read nothing: do not let a count alone make work.
            let extentSize = indexSize + offsetSize + lengthSize
            guard extentSize > 0 ? extentCount * extentSize <= r.remaining : extentCount <= 1 else {
                throw .corrupt("the HEIC item locations are cut short")
            }
            var extents: [(offset: Int, length: Int)] = []
            for _ in 0..<extentCount {
                _ = try r.read(indexSize)
                let offset = try r.read(offsetSize)
                let length = try r.read(lengthSize)
                var start = try add(base, offset, "an HEIC item has an impossible position")
                if method == 1 {
                    // Inside the idat box: make it a file position.
                    guard let idat else { throw .corrupt("an HEIC item points into a missing data box") }
                    start = try add(idat.payload.lowerBound, start, "an HEIC item has an impossible position")
                }
                extents.append((start, length))
            }
            result[id] = Location(method: method, dataReference: dataReference, extents: extents)
        }
        return result
    }

    func stripped() throws(ImageFile.Problem) -> [UInt8] {
        if topLevel.contains(where: { $0.type == fourCC("moov") }) {
            throw .unsupported("the metadata of HEIF image sequences can't be removed")
        }
        var out = bytes
        func zero(_ range: Range<Int>) { for i in range { out[i] = 0 } }
        for (id, type) in itemTypes where Self.metadataItems.contains(type) {
            guard let location = locations[id] else { continue } // no data anywhere
            guard location.method == 0, location.dataReference == 0 else {
                throw .unsupported("this HEIC file stores its metadata in a way that can't be removed safely")
            }
            for extent in location.extents {
                guard extent.length > 0 else {
                    throw .unsupported("this HEIC file stores its metadata in a way that can't be removed safely")
                }
                let end = try add(extent.offset, extent.length, "an HEIC item has an impossible position")
                guard end <= out.count else { throw .corrupt("the HEIC file is cut short") }
                zero(extent.offset..<end)
            }
        }
        // Top-level uuid boxes are private extensions (XMP among them); readers skip them.
        for box in topLevel where box.type == fourCC("uuid") {
            zero(box.payload)
        }
        return out
    }
}
