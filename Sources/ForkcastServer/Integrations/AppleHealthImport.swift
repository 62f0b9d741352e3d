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
        var weights: [(Date, Decimal)] = []
        var height: (date: Date, cm: Decimal)?
        var birthDate: CalendarDate?
        var sex: Sex?
        var recordsRead = 0
    }

    enum Failure: Error, Equatable {
        case notAnExport(String)

        var message: String {
            switch self { case .notAnExport(let why): "This is not an Apple Health export (\(why)). Upload export.zip or the export.xml inside it." }
        }
    }

    private(set) var result = Result()
    private(set) var sawHealthData = false
    private let dateFormatter: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return f
    }()

    /// Parses a file: a zip holding `apple_health_export/export.xml`, or the XML itself.
    static func parse(fileAt url: URL) throws -> Result {
        let handle = try FileHandle(forReadingFrom: url)
        let magic = try handle.read(upToCount: 4) ?? Data()
        try handle.close()
        if magic.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            let archive: Archive
            do { archive = try Archive(url: url, accessMode: .read) } catch { throw Failure.notAnExport("the zip cannot be read") }
            guard let entry = archive.first(where: { $0.path.hasSuffix("export.xml") && !$0.path.contains("cda") }) else {
                throw Failure.notAnExport("the zip holds no export.xml")
            }
            let xml = FileManager.default.temporaryDirectory.appendingPathComponent("forkcast-health-\(UUID().uuidString).xml")
            defer { try? FileManager.default.removeItem(at: xml) }
            _ = try archive.extract(entry, to: xml)  // streamed to disk in chunks
            return try parseXML(at: xml)
        }
        return try parseXML(at: url)
    }

    static func parseXML(at url: URL) throws -> Result {
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw Failure.notAnExport("the file cannot be opened") }
        defer { try? handle.close() }
        let importer = AppleHealthImport()
        var buffer: [UInt8] = []
        var checked = false
        while true {
            let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            if !checked, !chunk.isEmpty {
                let head = String(decoding: chunk.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                guard head.hasPrefix("<") else { throw Failure.notAnExport("it is not XML") }
                checked = true
            }
            buffer.append(contentsOf: chunk)
            let used = importer.scan(buffer, final: chunk.isEmpty)
            buffer.removeFirst(used)
            if chunk.isEmpty { break }
        }
        guard importer.sawHealthData else { throw Failure.notAnExport("no HealthData element") }
        return importer.result
    }

    private static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")

    /// Handles every complete tag in `bytes`; returns how many bytes were used (the rest waits for more).
    func scan(_ bytes: [UInt8], final: Bool) -> Int {
        var i = 0
        let n = bytes.count
        while i < n {
            guard let open = bytes[i...].firstIndex(of: Self.lt) else { return n }
            var j = open + 1
            var inQuote: UInt8?
            while j < n {
                let c = bytes[j]
                if let q = inQuote { if c == q { inQuote = nil } }
                else if c == Self.quote || c == Self.apostrophe { inQuote = c }
                else if c == Self.gt { break }
                j += 1
            }
            guard j < n else { return final ? n : open }
            handleTag(bytes[(open + 1)..<j])
            i = j + 1
        }
        return n
    }

    private func handleTag(_ tag: ArraySlice<UInt8>) {
        func starts(with name: String) -> Bool {
            let utf8 = Array(name.utf8)
            guard tag.count > utf8.count, tag.starts(with: utf8) else { return false }
            let next = tag[tag.startIndex + utf8.count]
            return next == 32 || next == 10 || next == 13 || next == 9 || next == UInt8(ascii: "/")
        }
        let name: String
        if starts(with: "Record") { name = "Record" }
        else if starts(with: "Me") { name = "Me" }
        else if starts(with: "HealthData") { name = "HealthData" }
        else { return }
        handle(element: name, attributes: Self.attributes(of: tag))
    }

    static func attributes(of tag: ArraySlice<UInt8>) -> [String: String] {
        var result: [String: String] = [:]
        let text = String(decoding: tag, as: UTF8.self)
        var rest = Substring(text)
        while let eq = rest.firstIndex(of: "=") {
            let key = rest[..<eq].split(whereSeparator: { $0.isWhitespace }).last.map(String.init) ?? ""
            var after = rest[rest.index(after: eq)...].drop { $0.isWhitespace }
            guard let q = after.first, q == "\"" || q == "'" else { break }
            after = after.dropFirst()
            guard let close = after.firstIndex(of: q) else { break }
            result[key] = decodeEntities(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return result
    }

    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        return s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
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
                  type == "HKQuantityTypeIdentifierBodyMass" || type == "HKQuantityTypeIdentifierHeight",
                  let raw = attributes["value"], let value = Decimal(string: raw), value > 0,
                  let dateText = attributes["startDate"] ?? attributes["creationDate"], let date = dateFormatter.date(from: dateText) else { return }
            let unit = attributes["unit"] ?? ""
            if type == "HKQuantityTypeIdentifierBodyMass", let kg = Self.kilograms(value, unit: unit) {
                result.weights.append((date, kg.rounded(3)))
            } else if type == "HKQuantityTypeIdentifierHeight", let cm = Self.centimetres(value, unit: unit) {
                if result.height.map({ date >= $0.date }) ?? true { result.height = (date, cm.rounded(1)) }
            }
        default:
            break
        }
    }

    static func kilograms(_ value: Decimal, unit: String) -> Decimal? {
        switch unit {
        case "kg": value
        case "g": value / 1000
        case "lb": BodyUnits.kilograms(fromPounds: value)
        case "st": BodyUnits.kilograms(fromPounds: value * 14)
        case "oz": BodyUnits.kilograms(fromPounds: value / 16)
        default: nil
        }
    }

    static func centimetres(_ value: Decimal, unit: String) -> Decimal? {
        switch unit {
        case "cm": value
        case "m": value * 100
        case "mm": value / 10
        case "in": BodyUnits.centimetres(fromInches: value)
        case "ft": BodyUnits.centimetres(fromInches: value * 12)
        default: nil
        }
    }
}
