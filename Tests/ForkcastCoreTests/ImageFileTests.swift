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

}
