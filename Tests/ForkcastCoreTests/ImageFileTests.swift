@testable import ForkcastCore
import Foundation
import Testing

/// Photos as uploaded: recognised by their bytes, measured, and stripped of what a person did not
/// mean to share. The files in Tests/Fixtures/photos were made by make_fixtures.py there (real
/// encoders: Pillow, piexif, libheif) and carry the camera make "ForkcastTestCam" and GPS
/// 52°22'45.67" N, 4°53'12.34" E.
@Suite("Image files")
struct ImageFileTests {
    static func photo(_ name: String) throws -> [UInt8] {
        [UInt8](try Fixtures.data("photos/" + name))
    }

    static func problem(_ bytes: [UInt8]) -> ImageFile.Problem? {
        do {
            _ = try ImageFile.inspect(Data(bytes))
            return nil
        } catch {
            return error
        }
    }

    static func isCorrupt(_ problem: ImageFile.Problem?) -> Bool {
        if case .corrupt = problem { return true }
        return false
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        Data(haystack).range(of: Data(needle)) != nil
    }

    static func contains(_ haystack: [UInt8], _ text: String) -> Bool {
        contains(haystack, Array(text.utf8))
    }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func be16(_ value: Int) -> [UInt8] {
        [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    // MARK: Recognising

    struct Sample: Sendable, CustomTestStringConvertible {
        let file: String
        let format: ImageFormat
        let width: Int
        let height: Int
        var testDescription: String { file }
    }

    static let samples = [
        Sample(file: "photo.jpg", format: .jpeg, width: 64, height: 48),
        Sample(file: "thumbnail-source.jpg", format: .jpeg, width: 16, height: 12),
        Sample(file: "photo.png", format: .png, width: 40, height: 30),
        Sample(file: "photo.webp", format: .webp, width: 50, height: 30),
        Sample(file: "lossless.webp", format: .webp, width: 33, height: 21),
        Sample(file: "simple.webp", format: .webp, width: 47, height: 35),
        Sample(file: "photo.heic", format: .heic, width: 64, height: 48),
    ]

    @Test("Each format is recognised with its size", arguments: samples)
    func recognised(_ sample: Sample) throws {
        let info = try ImageFile.inspect(Data(try Self.photo(sample.file)))
        #expect(info.format == sample.format)
        #expect(info.width == sample.width)
        #expect(info.height == sample.height)
    }

    @Test("HEIC's size is the picture's, not the encoder's padded 64×64 tiles")
    func heicCleanAperture() throws {
        let bytes = try Self.photo("photo.heic")
        #expect(Self.contains(bytes, "clap"), "libheif pads 48 rows to 64 and crops with clap")
        let info = try ImageFile.inspect(Data(bytes))
        #expect(info.width == 64 && info.height == 48)
    }

    @Test("A file is judged by its content, never its name")
    func judgedByContent() throws {
        let info = try ImageFile.inspect(Data(try Self.photo("png-named-as.jpg")))
        #expect(info.format == .png)
        #expect(info.format.mimeType == "image/png")
        #expect(info.format.fileExtension == "png")
        #expect(ImageFormat.jpeg.mimeType == "image/jpeg" && ImageFormat.webp.mimeType == "image/webp")
        #expect(ImageFormat.heic.mimeType == "image/heic" && ImageFormat.jpeg.fileExtension == "jpg")
    }

    @Test("Text, a PDF, nothing, a video and random bytes are not images")
    func notImages() {
        #expect(Self.problem(Array("just some text, not a photo\n".utf8)) == .notAnImage)
        #expect(Self.problem(Array("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n".utf8)) == .notAnImage)
        #expect(Self.problem([]) == .notAnImage)
        let mp4 = Self.be32(24) + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        #expect(Self.problem(mp4) == .notAnImage)
        var seed: UInt64 = 7
        let random = (0..<512).map { _ -> UInt8 in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(seed >> 56)
        }
        #expect(Self.problem(random) == .notAnImage)
        #expect(ImageFile.Problem.notAnImage.message == "The file is not a JPEG, PNG, WebP or HEIC image.")
    }

    @Test("AVIF is named, and refused")
    func avif() {
        let avif = Self.be32(28) + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8)
        #expect(Self.problem(avif) == .unsupported("AVIF is not supported"))
        #expect(ImageFile.Problem.unsupported("AVIF is not supported").message.contains("AVIF is not supported"))
    }

    @Test("Truncated files are corrupt, not images", arguments: ["photo.jpg", "photo.png", "photo.webp", "photo.heic"])
    func truncated(_ file: String) throws {
        let bytes = try Self.photo(file)
        for cut in [bytes.count / 2, bytes.count - 1, 20] {
            let problem = Self.problem(Array(bytes[0..<cut]))
            #expect(Self.isCorrupt(problem), "\(file) cut to \(cut) bytes: \(String(describing: problem))")
        }
    }

    @Test("A JPEG with a zero-length segment, or with no end, is corrupt")
    func jpegZeroLength() throws {
        var bytes = try Self.photo("thumbnail-source.jpg")
        #expect(Self.isCorrupt(Self.problem(Array(bytes.dropLast(2)))), "no end-of-image marker")
        bytes[4] = 0
        bytes[5] = 0 // APP0's length
        #expect(Self.isCorrupt(Self.problem(bytes)))
    }

    @Test("A PNG chunk of length 0 or one running past the end is corrupt")
    func pngBadLengths() throws {
        let bytes = try Self.photo("photo.png")
        var zero = bytes
        zero.replaceSubrange(8..<12, with: Self.be32(0)) // IHDR's length
        #expect(Self.isCorrupt(Self.problem(zero)))
        var huge = bytes
        huge.replaceSubrange(8..<12, with: [0x7F, 0xFF, 0xFF, 0xF0])
        #expect(Self.isCorrupt(Self.problem(huge)))
    }

    @Test("A WebP chunk of size 0, or a RIFF size past the end, is corrupt")
    func webpBadSizes() throws {
        let bytes = try Self.photo("simple.webp")
        #expect(Array(bytes[12..<16]) == Array("VP8 ".utf8))
        var zero = bytes
        zero.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        #expect(Self.isCorrupt(Self.problem(zero)))
        var riff = bytes
        riff.replaceSubrange(4..<8, with: [0xFE, 0xFF, 0xFF, 0xFF])
        #expect(Self.isCorrupt(Self.problem(riff)))
    }

    @Test("An HEIF box of length 0, or one that overflows, is corrupt")
    func heicBadBoxes() throws {
        let bytes = try Self.photo("photo.heic")
        let ftypSize = Int(bytes[3])
        #expect(Array(bytes[(ftypSize + 4)..<(ftypSize + 8)]) == Array("meta".utf8))
        var zero = bytes
        zero.replaceSubrange(ftypSize..<(ftypSize + 4), with: Self.be32(0))
        #expect(Self.problem(zero) == .corrupt("an HEIF box has a length of 0"))
        var large = bytes // a 64-bit size of 2^63 - 1: must not overflow
        large.replaceSubrange(ftypSize..<(ftypSize + 4), with: Self.be32(1))
        large.insert(contentsOf: [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], at: ftypSize + 8)
        #expect(Self.isCorrupt(Self.problem(large)))
        var huge = bytes
        huge.replaceSubrange(ftypSize..<(ftypSize + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Self.isCorrupt(Self.problem(huge)))
    }

    @Test("Sizes of 0, above 20000 px a side or above 100 megapixels are refused")
    func sizeLimits() throws {
        let bytes = try Self.photo("photo.png")
        func withSize(_ width: Int, _ height: Int) -> [UInt8] {
            var copy = bytes
            copy.replaceSubrange(16..<24, with: Self.be32(width) + Self.be32(height))
            return copy
        }
        #expect(Self.isCorrupt(Self.problem(withSize(0, 30))))
        guard case .tooLarge = Self.problem(withSize(20_001, 10)) else {
            Issue.record("20001 px wide was accepted")
            return
        }
        guard case .tooLarge = Self.problem(withSize(12_000, 12_000)) else {
            Issue.record("144 megapixels were accepted")
            return
        }
        #expect(Self.problem(withSize(20_000, 5_000)) == nil, "exactly 100 megapixels")
    }

    @Test("Problems read as one sentence")
    func messages() {
        for problem in [ImageFile.Problem.notAnImage, .unsupported("AVIF is not supported"),
                        .corrupt("a PNG chunk runs past the end of the file"), .tooLarge("30000 × 10 pixels")] {
            #expect(problem.message.hasSuffix("."))
            #expect(problem.message.first?.isUppercase == true)
        }
    }

    // MARK: Fuzz

    @Test("Cut and flipped bytes give an image or a Problem, never a crash or a hang",
          arguments: ["photo.jpg", "photo.png", "photo.webp", "lossless.webp", "photo.heic"])
    func fuzz(_ file: String) throws {
        let original = try Self.photo(file)
        var seed: UInt64 = 0x5EED ^ UInt64(original.count)
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var cases: [[UInt8]] = []
        for cut in stride(from: 0, to: original.count, by: max(1, original.count / 150)) {
            cases.append(Array(original[0..<cut]))
        }
        for _ in 0..<400 {
            var bytes = original
            for _ in 0..<(1 + next(4)) { bytes[next(bytes.count)] = UInt8(next(256)) }
            cases.append(bytes)
        }
        for _ in 0..<100 { // lengths and sizes are the usual targets: flip words to extremes
            var bytes = original
            let at = next(bytes.count - 4)
            bytes.replaceSubrange(at..<(at + 4), with: next(2) == 0 ? [0, 0, 0, 0] : [0xFF, 0xFF, 0xFF, 0xFF])
            cases.append(bytes)
        }
        for bytes in cases {
            let data = Data(bytes)
            do {
                let info = try ImageFile.inspect(data)
                #expect(info.width > 0 && info.height > 0)
                if let stripped = try? ImageFile.strippingMetadata(data) {
                    let again = try? ImageFile.inspect(stripped)
                    #expect(again?.format == info.format && again?.width == info.width && again?.height == info.height)
                }
            } catch {
                #expect(!error.message.isEmpty)
            }
            _ = ImageFile.embeddedThumbnail(data)
        }
    }

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
