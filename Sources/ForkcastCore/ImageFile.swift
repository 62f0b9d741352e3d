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
