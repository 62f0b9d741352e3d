import ForkcastApp
import ForkcastCore
import Foundation
import ZIPFoundation

/// Reads an Apple Health export (export.zip or export.xml) as a stream — exports reach gigabytes —
/// keeping only what Forkcast uses: body mass, height, date of birth and sex, in whatever units the
/// file uses. This stands in for HealthKit on the server.
///
/// Foundation's XMLParser on Linux crashes on the internal DTD every export starts with, and the file
/// needs nothing but start tags and their attributes, so a small scanner reads `<HealthData`, `<Me`
/// and `<Record` tags from 1 MB chunks.
final class AppleHealthImport {
    struct Result: Sendable {
        /// One weight per day (the last measured that day, ForkcastCore's rule), oldest first.
        var weights: [(Date, Decimal)] { daily.weighings.map { ($0.measuredAt, $0.weightKg) } }
        var daily = DailyWeighings()
        var weightRecords = 0
        var height: (date: Date, cm: Decimal)?
        var birthDate: CalendarDate?
        var sex: Sex?
        var recordsRead = 0
        /// Records passed over, by reason: "implausible" (outside ``Plausible``), "unreadable" (a
        /// weight or height whose value or date cannot be read), "unknownUnit", "sameDay" (an
        /// earlier weight of a day that has a later one).
        var skipped: [String: Int] = [:]

        /// What ``ImportHealthData`` takes into the person's records.
        var export: ImportHealthData.Export {
            ImportHealthData.Export(weights: daily.weighings, sex: sex, birthDate: birthDate, heightCm: height?.cm)
        }
    }

    /// What an import may cost: the XML it reads (also inside a zip) and one tag's length.
    struct Limits: Sendable {
        var maxXMLBytes: Int64 = 8 << 30
        /// A zip entry inflating to more than this many times its compressed size is a bomb
        /// (real exports compress 10–30 times; very repetitive ones under 300).
        var maxCompressionRatio: UInt64 = 500
        var maxTagBytes = 1 << 20
    }

    enum Failure: Error, Equatable {
        case notAnExport(String)
        case tooLarge(String)
        /// The file stops before `</HealthData>`: what it holds is only the start of an export.
        case cutShort

        var message: String {
            switch self {
            case .notAnExport(let why): "This is not an Apple Health export (\(why)). Upload export.zip or the export.xml inside it."
            case .cutShort: "This export stops before its end (</HealthData> is missing): it was cut short while being copied or downloaded. Nothing was imported; export again, or copy the whole file."
            case .tooLarge(let why): "This export cannot be imported: \(why). Nothing was imported."
            }
        }
    }

    /// Called with the bytes of XML read so far.
    typealias Progress = @Sendable (Int64) -> Void

    private(set) var result = Result()
    private(set) var sawHealthData = false
    /// `</HealthData>` was read: the file is whole.
    private(set) var sawEnd = false
    private let dateFormatter: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return f
    }()

    /// Parses a file: a zip holding `apple_health_export/export.xml`, or the XML itself. A zip
    /// entry is inflated straight into the scanner (nothing is written to disk); symbolic links,
    /// compression bombs and XML beyond the limit are refused.
    /// `now` is the request's time: a weighing later than ForkcastCore allows (``BodyRules/measuredAt(_:now:)``) is passed over.
    static func parse(fileAt url: URL, limits: Limits = Limits(), now: Date = Date(), progress: Progress? = nil) throws -> Result {
        let handle = try FileHandle(forReadingFrom: url)
        let magic = try handle.read(upToCount: 4) ?? Data()
        try handle.close()
        let importer = AppleHealthImport(limits: limits, now: now, progress: progress)
        if magic.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            let archive: Archive
            do { archive = try Archive(url: url, accessMode: .read) } catch { throw Failure.notAnExport("the zip cannot be read") }
            guard let entry = archive.first(where: { $0.path.hasSuffix("export.xml") && !$0.path.contains("cda") }) else {
                throw Failure.notAnExport("the zip holds no export.xml")
            }
            guard entry.type == .file else { throw Failure.notAnExport("export.xml in the zip is a link, not a file") }
            if entry.uncompressedSize > UInt64(limits.maxXMLBytes) {
                throw Failure.tooLarge("export.xml would inflate to \(entry.uncompressedSize / 1_048_576) MB, more than the \(limits.maxXMLBytes / 1_048_576) MB allowed")
            }
            if entry.uncompressedSize > 1 << 20, entry.uncompressedSize / max(entry.compressedSize, 1) > limits.maxCompressionRatio {
                throw Failure.tooLarge("export.xml inflates \(entry.uncompressedSize / max(entry.compressedSize, 1)) times its size in the zip, which only a zip bomb does")
            }
            // The sizes in the zip's header may lie: the inflated bytes are counted against the
            // size of the whole upload as they come.
            let uploadSize = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.uint64Value ?? 0
            let inflateLimit = max(UInt64(1 << 20), uploadSize * limits.maxCompressionRatio)
            var inflated: UInt64 = 0
            do {
                let checksum = try archive.extract(entry, skipCRC32: false) { data in
                    inflated += UInt64(data.count)
                    if inflated > inflateLimit {
                        throw Failure.tooLarge("export.xml inflates more than \(limits.maxCompressionRatio) times the upload's size, which only a zip bomb does")
                    }
                    try importer.feed(data)
                }
                // Nothing is stored before the whole file is read: a damaged one imports nothing.
                guard checksum == entry.checksum else { throw Failure.notAnExport("the zip is damaged (its checksum does not match)") }
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure.notAnExport("the zip is damaged")
            }
        } else {
            guard let handle = try? FileHandle(forReadingFrom: url) else { throw Failure.notAnExport("the file cannot be opened") }
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try importer.feed(chunk)
            }
        }
        try importer.finish()
        guard importer.sawHealthData else { throw Failure.notAnExport("no HealthData element") }
        // All or nothing: the weights of a cut file would look like the whole history.
        guard importer.sawEnd else { throw Failure.cutShort }
        return importer.result
    }

    private let limits: Limits
    private let progress: Progress?
    private let now: Date
    private var buffer: [UInt8] = []
    private var bytesRead: Int64 = 0
    private var checked = false

    init(limits: Limits = Limits(), now: Date = Date(), progress: Progress? = nil) {
        self.limits = limits
        self.now = now
        self.progress = progress
    }

    /// Scans the next piece of XML; linear in the input (a tag is scanned once, and one longer
    /// than ``Limits/maxTagBytes`` stops the import).
    func feed(_ chunk: Data) throws {
        bytesRead += Int64(chunk.count)
        if bytesRead > limits.maxXMLBytes {
            throw Failure.tooLarge("the XML is larger than the \(limits.maxXMLBytes / 1_048_576) MB allowed")
        }
        if !checked, !chunk.isEmpty {
            let head = String(decoding: chunk.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard head.hasPrefix("<") else { throw Failure.notAnExport("it is not XML") }
            checked = true
        }
        buffer.append(contentsOf: chunk)
        let used = try scan(buffer, final: false)
        buffer.removeFirst(used)
        progress?(bytesRead)
    }

    func finish() throws {
        _ = try scan(buffer, final: true)
        buffer = []
    }

    private static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")

    /// The position after the last tag-scan, so an incomplete tag is not scanned again from its start.
    private var resumeAt = 0
    private var resumeQuote: UInt8?

    /// Handles every complete tag in `bytes`; returns how many bytes were used (the rest waits for more).
    func scan(_ bytes: [UInt8], final: Bool) throws -> Int {
        var i = 0
        let n = bytes.count
        while i < n {
            guard let open = bytes[i...].firstIndex(of: Self.lt) else { resumeAt = 0; return n }
            // Continue an incomplete tag where the previous chunk stopped, not from its start.
            var j = resumeAt > open ? resumeAt : open + 1
            var inQuote: UInt8? = resumeAt > open ? resumeQuote : nil
            resumeAt = 0
            while j < n {
                let c = bytes[j]
                if let q = inQuote { if c == q { inQuote = nil } }
                else if c == Self.quote || c == Self.apostrophe { inQuote = c }
                else if c == Self.gt { break }
                j += 1
            }
            guard j < n else {
                if final { return n }
                if n - open > limits.maxTagBytes {
                    throw Failure.notAnExport("a tag runs on for more than \(limits.maxTagBytes / 1024) KB without closing")
                }
                // Keep the tag's bytes; the caller drops everything before `open`.
                resumeAt = j - open
                resumeQuote = inQuote
                return open
            }
            handleTag(bytes[(open + 1)..<j])
            i = j + 1
        }
        return n
    }

    private func handleTag(_ tag: ArraySlice<UInt8>) {
        func starts(with name: String) -> Bool {
            let utf8 = Array(name.utf8)
            guard tag.count >= utf8.count, tag.starts(with: utf8) else { return false }
            // `<HealthData>` and `<Me>` without attributes are the element too.
            guard tag.count > utf8.count else { return true }
            let next = tag[tag.startIndex + utf8.count]
            return next == 32 || next == 10 || next == 13 || next == 9 || next == UInt8(ascii: "/")
        }
        let name: String
        if starts(with: "Record") { name = "Record" }
        else if starts(with: "Me") { name = "Me" }
        else if starts(with: "HealthData") { name = "HealthData" }
        else if starts(with: "/HealthData") { sawEnd = true; return }
        else { return }
        handle(element: name, attributes: Self.attributes(of: tag))
    }

    func handle(element name: String, attributes: [String: String]) {
        switch name {
        case "HealthData":
            sawHealthData = true
        case "Me":
            if let dob = attributes["HKCharacteristicTypeIdentifierDateOfBirth"], let date = CalendarDate(iso: dob) { result.birthDate = date }
            switch attributes["HKCharacteristicTypeIdentifierBiologicalSex"] {
            case "HKBiologicalSexMale": result.sex = .male
            case "HKBiologicalSexFemale": result.sex = .female
            default: break
            }
        case "Record":
            result.recordsRead += 1
            guard let type = attributes["type"],
                  type == "HKQuantityTypeIdentifierBodyMass" || type == "HKQuantityTypeIdentifierHeight" else { return }
            if type == "HKQuantityTypeIdentifierBodyMass" { result.weightRecords += 1 }
            guard let raw = attributes["value"], raw.utf8.count <= 40, let value = Decimal(typed: raw),
                  let dateText = attributes["startDate"] ?? attributes["creationDate"], let date = dateFormatter.date(from: dateText) else {
                return skip("unreadable")
            }
            let unit = attributes["unit"] ?? ""
            // A weighing from the future (or before 1900) would drive computed goals forever: the
            // rules of every weighing (ForkcastCore's), against the request's time.
            guard Instant.plausibleYears.contains(Calendar(identifier: .gregorian).component(.year, from: date)),
                  (try? BodyRules.measuredAt(date, now: now)) != nil else {
                return skip("implausible")
            }
            if type == "HKQuantityTypeIdentifierBodyMass" {
                guard let stated = Self.kilograms(value, unit: unit) else { return skip("unknownUnit") }
                // Checked and rounded as a weight typed or sent to the API is (ForkcastCore's BodyRules).
                guard let kg = try? BodyRules.kilograms(kg: stated, lb: nil) else { return skip("implausible") }
                // One weight a day: the day as the export wrote it (the person's local date).
                guard let day = CalendarDate(iso: String(dateText.prefix(10))) else { return skip("implausible") }
                if !result.daily.add(day: day, measuredAt: date, weightKg: kg) { skip("sameDay") }
            } else if type == "HKQuantityTypeIdentifierHeight" {
                guard let cm = Self.centimetres(value, unit: unit) else { return skip("unknownUnit") }
                guard Plausible.heightCm.contains(cm) else { return skip("implausible") }
                if result.height.map({ date >= $0.date }) ?? true { result.height = (date, cm.rounded(1)) }
            }
        default:
            break
        }
    }

    private func skip(_ reason: String) { result.skipped[reason, default: 0] += 1 }
}
