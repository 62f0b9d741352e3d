import Foundation

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
func orientationToKeep(_ payload: ArraySlice<UInt8>) -> Int? {
    guard let orientation = ExifTIFF(payload)?.orientation, orientation != 1 else { return nil }
    return orientation
}
