import Foundation

let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
}

func crc32(_ bytes: [UInt8]) -> UInt32 {
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

func bigEndian32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
}

func littleEndian32(_ value: UInt32) -> [UInt8] {
    [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
}
