import Foundation

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
