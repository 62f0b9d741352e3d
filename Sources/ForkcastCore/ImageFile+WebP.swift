import Foundation

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

extension Reader {
    /// Four bytes as written (a chunk name), whatever the reader's byte order.
    mutating func readFourCC() throws(ImageFile.Problem) -> UInt32 {
        guard remaining >= 4 else { throw .corrupt("\(what) is cut short") }
        let value = UInt32(bytes[pos]) << 24 | UInt32(bytes[pos + 1]) << 16 | UInt32(bytes[pos + 2]) << 8 | UInt32(bytes[pos + 3])
        pos += 4
        return value
    }
}
