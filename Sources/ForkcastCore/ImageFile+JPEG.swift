import Foundation

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
