@testable import ForkcastCore
import Foundation
import Testing

extension ImageFileTests {
    // MARK: Stripping

    /// What the JPEG's EXIF held, in the big-endian form piexif writes.
    static let gpsIFDPointer: [UInt8] = [0x88, 0x25, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01] // tag, LONG, count 1
    static let latitude: [UInt8] = be32(52) + be32(1) + be32(22) + be32(1) + be32(4567) + be32(100)
    static let longitude: [UInt8] = be32(4) + be32(1) + be32(53) + be32(1) + be32(1234) + be32(100)

    @Test("A JPEG loses EXIF, GPS, XMP, IPTC and comments, keeps colour and orientation, and its pixels")
    func strippedJPEG() throws {
        let original = try Self.photo("photo.jpg")
        for secret in ["ForkcastTestCam", "ForkcastTestXMP", "ForkcastIPTC", "ForkcastTestComment", "Photoshop 3.0", "http://ns.adobe.com/xap"] {
            #expect(Self.contains(original, secret), "the fixture holds \(secret)")
        }
        #expect(Self.contains(original, Self.gpsIFDPointer) && Self.contains(original, Self.latitude) && Self.contains(original, Self.longitude))

        let stripped = [UInt8](try ImageFile.strippingMetadata(Data(original)))
        for secret in ["ForkcastTestCam", "Model F1", "2024:05:06", "ForkcastTestXMP", "ForkcastIPTC", "ForkcastTestComment",
                       "Photoshop 3.0", "http://ns.adobe.com/xap", "make_fixtures"] {
            #expect(!Self.contains(stripped, secret), "\(secret) is gone")
        }
        #expect(!Self.contains(stripped, Self.gpsIFDPointer), "the GPS IFD tag is gone")
        #expect(!Self.contains(stripped, Self.latitude), "the latitude is gone")
        #expect(!Self.contains(stripped, Self.longitude), "the longitude is gone")
        #expect(ImageFile.embeddedThumbnail(Data(stripped)) == nil, "the thumbnail went with EXIF")

        #expect(Self.contains(stripped, "ICC_PROFILE\0") && Self.contains(stripped, "ForkcastKeptICC"), "the colour profile stays")
        #expect(Self.contains(stripped, "JFIF\0"))
        let layout = try JPEGLayout(stripped)
        #expect(layout.exifTIFF()?.orientation == 6, "a phone photo is not shown sideways")
        #expect(layout.exifTIFF()?.bytes.count == 26, "EXIF keeps Orientation and nothing else")

        let info = try ImageFile.inspect(Data(stripped))
        #expect(info.format == .jpeg && info.width == 64 && info.height == 48)
        // The compressed pixels are copied, not re-encoded: from the scan on, the original ends the same.
        // (The original's first scan marker is its thumbnail's, inside EXIF; the stripped file has none.)
        let scanStart = try #require((0..<(stripped.count - 1)).first { stripped[$0] == 0xFF && stripped[$0 + 1] == 0xDA })
        let scan = Array(stripped[scanStart...])
        #expect(scan.count > 100 && Array(original.suffix(scan.count)) == scan)
        #expect(stripped.count < original.count)
    }

    @Test("A JPEG with nothing to remove comes back byte for byte")
    func cleanJPEGUnchanged() throws {
        let clean = try Self.photo("thumbnail-source.jpg")
        #expect(try [UInt8](ImageFile.strippingMetadata(Data(clean))) == clean)
    }

    @Test("JPEG fill bytes and standalone markers are read and written")
    func jpegFillBytes() throws {
        var bytes = try Self.photo("thumbnail-source.jpg")
        let dqt = (2..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDB }!
        bytes.insert(contentsOf: [0xFF, 0x01, 0xFF, 0xFF], at: dqt) // TEM, then fill bytes before DQT
        let info = try ImageFile.inspect(Data(bytes))
        #expect(info.width == 16 && info.height == 12)
        let stripped = try ImageFile.strippingMetadata(Data(bytes))
        #expect(try ImageFile.inspect(stripped).width == 16)
    }

    @Test("Bytes after a JPEG's end (another image, its EXIF) are dropped")
    func jpegTrailer() throws {
        let bytes = try Self.photo("thumbnail-source.jpg") + Array("Exif ForkcastTestCam trailer".utf8)
        #expect(try ImageFile.inspect(Data(bytes)).width == 16)
        let stripped = [UInt8](try ImageFile.strippingMetadata(Data(bytes)))
        #expect(!Self.contains(stripped, "ForkcastTestCam"))
        #expect(Array(stripped.suffix(2)) == [0xFF, 0xD9])
    }

    @Test("A PNG loses its eXIf, text and time chunks and keeps the rest")
    func strippedPNG() throws {
        let original = try Self.photo("photo.png")
        let before = try PNGLayout(original).chunks.map(\.type)
        let metadata = ["eXIf", "tEXt", "zTXt", "iTXt", "tIME"].map(Self.fourCC)
        for type in metadata { #expect(before.contains(type), "the fixture holds a chunk \(type)") }

        let stripped = [UInt8](try ImageFile.strippingMetadata(Data(original)))
        let after = try PNGLayout(stripped).chunks.map(\.type)
        for type in metadata { #expect(!after.contains(type)) }
        #expect(after == before.filter { !metadata.contains($0) })
        #expect(!Self.contains(stripped, "ForkcastTest"))
        #expect(!Self.contains(stripped, Self.latitude))
        let info = try ImageFile.inspect(Data(stripped))
        #expect(info.format == .png && info.width == 40 && info.height == 30)
    }

    @Test("A WebP loses its EXIF and XMP chunks and their VP8X flags")
    func strippedWebP() throws {
        let original = try Self.photo("photo.webp")
        let before = try WebPLayout(original)
        #expect(before.chunks.first?.type == Self.fourCC("VP8X"))
        #expect(original[20] & 0x0C == 0x0C, "the fixture flags EXIF and XMP")
        #expect(before.chunks.contains { $0.type == Self.fourCC("EXIF") } && before.chunks.contains { $0.type == Self.fourCC("XMP ") })

        let stripped = [UInt8](try ImageFile.strippingMetadata(Data(original)))
        let after = try WebPLayout(stripped)
        #expect(!after.chunks.contains { $0.type == Self.fourCC("EXIF") || $0.type == Self.fourCC("XMP ") })
        #expect(stripped[20] & 0x0C == 0, "VP8X no longer flags EXIF or XMP")
        let riffSize = Int(stripped[4]) | Int(stripped[5]) << 8 | Int(stripped[6]) << 16 | Int(stripped[7]) << 24
        #expect(riffSize == stripped.count - 8)
        #expect(!Self.contains(stripped, "ForkcastTest") && !Self.contains(stripped, Self.latitude))
        let info = try ImageFile.inspect(Data(stripped))
        #expect(info.format == .webp && info.width == 50 && info.height == 30)

        for clean in ["simple.webp", "lossless.webp"] {
            let bytes = try Self.photo(clean)
            #expect(try [UInt8](ImageFile.strippingMetadata(Data(bytes))) == bytes, "\(clean) had nothing to remove")
        }
    }

    @Test("An HEIC's Exif and XMP items are zeroed in place, nothing else moves")
    func strippedHEIC() throws {
        let original = try Self.photo("photo.heic")
        #expect(Self.contains(original, "ForkcastTestCam") && Self.contains(original, "ForkcastTestXMP"))
        #expect(Self.contains(original, Self.latitude))
        let layout = try HEIFLayout(original)
        let metadataIDs = layout.itemTypes.filter { HEIFLayout.metadataItems.contains($0.value) }.map(\.key)
        #expect(Set(metadataIDs.compactMap { layout.itemTypes[$0] }) == [Self.fourCC("Exif"), Self.fourCC("mime")])
        var zeroed = Set<Int>()
        for id in metadataIDs {
            for extent in try #require(layout.locations[id]).extents {
                zeroed.formUnion(extent.offset..<(extent.offset + extent.length))
            }
        }

        let stripped = [UInt8](try ImageFile.strippingMetadata(Data(original)))
        #expect(stripped.count == original.count)
        #expect(!Self.contains(stripped, "ForkcastTestCam") && !Self.contains(stripped, "ForkcastTestXMP"))
        #expect(!Self.contains(stripped, Self.latitude) && !Self.contains(stripped, Self.gpsIFDPointer))
        for i in original.indices {
            if zeroed.contains(i) {
                #expect(stripped[i] == 0)
            } else if stripped[i] != original[i] {
                Issue.record("byte \(i) outside the metadata changed")
                break
            }
        }
        let info = try ImageFile.inspect(Data(stripped))
        #expect(info.format == .heic && info.width == 64 && info.height == 48)
    }

    // MARK: HEIC structures the encoder did not write

    static func fourCC(_ text: String) -> UInt32 {
        text.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(8 + payload.count) + Array(type.utf8) + payload
    }

    static func fullBox(_ type: String, version: UInt8, flags: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, flags] + payload)
    }

    /// A structurally complete HEIC (the "HEVC" bytes are filler): item 1 the picture, item 2 Exif
    /// stored with `exifMethod` (0: in mdat, 1: in idat), plus properties as given.
    static func syntheticHEIC(brands: [String] = ["heic", "mif1"], primaryType: String = "hvc1", exifMethod: Int = 0,
                              properties: [[UInt8]], associations: [UInt8]) -> [UInt8] {
        let exif = [0, 0, 0, 0] + Array("Exif\0\0MM\0*ForkcastTestCam".utf8)
        let picture = [UInt8](repeating: 0xAB, count: 24)
        let ftyp = box("ftyp", Array(brands[0].utf8) + [0, 0, 0, 0] + brands.flatMap { Array($0.utf8) })
        func meta(mdatStart: Int) -> [UInt8] {
            let hdlr = fullBox("hdlr", version: 0, [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
            let pitm = fullBox("pitm", version: 0, be16(1))
            let iinf = fullBox("iinf", version: 0, be16(2)
                + fullBox("infe", version: 2, be16(1) + be16(0) + Array(primaryType.utf8) + [0])
                + fullBox("infe", version: 2, be16(2) + be16(0) + Array("Exif".utf8) + [0]))
            let exifOffset = exifMethod == 0 ? mdatStart + picture.count : 0
            let iloc = fullBox("iloc", version: 1, [0x44, 0x00] + be16(2)
                + be16(1) + be16(0) + be16(0) + be16(1) + be32(mdatStart) + be32(picture.count)
                + be16(2) + be16(exifMethod) + be16(0) + be16(1) + be32(exifOffset) + be32(exif.count))
            let iprp = box("iprp", box("ipco", properties.flatMap { $0 })
                + fullBox("ipma", version: 0, be32(1) + be16(1) + [UInt8(associations.count)] + associations))
            let idat = exifMethod == 1 ? box("idat", exif) : []
            return fullBox("meta", version: 0, hdlr + pitm + iloc + iinf + iprp + idat)
        }
        let metaSize = meta(mdatStart: 0).count
        let mdatStart = ftyp.count + metaSize + 8
        return ftyp + meta(mdatStart: mdatStart) + box("mdat", picture + (exifMethod == 0 ? exif : []))
    }

    static func ispe(_ width: Int, _ height: Int) -> [UInt8] {
        fullBox("ispe", version: 0, be32(width) + be32(height))
    }

    @Test("HEIC: the primary item's size, turned by irot, not the largest size in the file")
    func heicPrimaryAndRotation() throws {
        let bytes = Self.syntheticHEIC(properties: [Self.ispe(4000, 3000), Self.ispe(300, 200), Self.box("irot", [1])],
                                       associations: [0x02, 0x83])
        let info = try ImageFile.inspect(Data(bytes))
        #expect(info.format == .heic && info.width == 200 && info.height == 300)
        let stripped = [UInt8](try ImageFile.strippingMetadata(Data(bytes)))
        #expect(Self.contains(bytes, "ForkcastTestCam") && !Self.contains(stripped, "ForkcastTestCam"))
        #expect(stripped.count == bytes.count)
    }

    @Test("HEIC metadata kept inside the meta box is refused rather than left in")
    func heicMetadataInIdat() throws {
        let bytes = Self.syntheticHEIC(exifMethod: 1, properties: [Self.ispe(300, 200)], associations: [0x81])
        #expect(try ImageFile.inspect(Data(bytes)).width == 300)
        do {
            _ = try ImageFile.strippingMetadata(Data(bytes))
            Issue.record("the Exif item in idat was left in")
        } catch {
            guard case .unsupported = error else { Issue.record("expected .unsupported, got \(error)"); return }
        }
    }

    @Test("An HEIF whose picture is AV1 is AVIF, whatever its brands say")
    func heifWithAV1() {
        let bytes = Self.syntheticHEIC(brands: ["mif1", "miaf"], primaryType: "av01", properties: [Self.ispe(300, 200)],
                                       associations: [0x81])
        #expect(Self.problem(bytes) == .unsupported("AVIF is not supported"))
    }

    // MARK: Thumbnail

    @Test("The JPEG's EXIF thumbnail is found, and is a valid, smaller JPEG without metadata")
    func thumbnail() throws {
        let original = try Self.photo("photo.jpg")
        let thumbnail = try #require(ImageFile.embeddedThumbnail(Data(original)))
        let info = try ImageFile.inspect(thumbnail)
        #expect(info.format == .jpeg && info.width == 16 && info.height == 12)
        #expect(thumbnail.count < original.count)
        let bytes = [UInt8](thumbnail)
        #expect(!Self.contains(bytes, "ForkcastTestCam") && !Self.contains(bytes, Self.latitude))
        // The photo's Orientation 6 applies to its thumbnail: kept, and nothing else.
        let exif = try #require(try JPEGLayout(bytes).exifTIFF())
        #expect(exif.orientation == 6 && exif.bytes.count == 26)
        for other in ["photo.png", "photo.webp", "photo.heic", "thumbnail-source.jpg"] {
            #expect(ImageFile.embeddedThumbnail(Data(try Self.photo(other))) == nil, "\(other) has no EXIF thumbnail")
        }
    }
}
