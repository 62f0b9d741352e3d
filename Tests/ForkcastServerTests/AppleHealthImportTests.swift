import Fluent
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting
import ZIPFoundation

@Suite("Apple Health import")
struct AppleHealthImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apple-health")

    @Test func readsTheRealExports() throws {
        let v14 = try AppleHealthImport.parse(fileAt: Self.fixtures.appendingPathComponent("export_grll_apple-health-mcp_v14_me_bodymass_kg_height_cm.xml"))
        #expect(v14.birthDate?.iso == "1995-01-15" && v14.sex == .male)
        #expect(v14.weights.map(\.1) == [Decimal(string: "68.5")!, 72])
        #expect(v14.height?.cm == 180)
        let dogsheep = try AppleHealthImport.parse(fileAt: Self.fixtures.appendingPathComponent("export_dogsheep_healthkit-to-sqlite.xml"))
        #expect(dogsheep.weights.isEmpty, "BodyMassIndex is not body mass")
        #expect(dogsheep.birthDate?.iso == "1990-02-02")
        let tdda = try AppleHealthImport.parse(fileAt: Self.fixtures.appendingPathComponent("export_tdda_applehealthdata_real_v3_sample.xml"))
        #expect(tdda.recordsRead > 0 && tdda.sex == .male)
    }

    @Test func readsTheExportInsideAZip() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("health-zip-\(UUID())")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("apple_health_export"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("export_grll_apple-health-mcp_v14_me_bodymass_kg_height_cm.xml"),
                                         to: directory.appendingPathComponent("apple_health_export/export.xml"))
        let zip = directory.appendingPathComponent("export.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        try archive.addEntry(with: "apple_health_export/export.xml", relativeTo: directory, compressionMethod: .deflate)
        let result = try AppleHealthImport.parse(fileAt: zip)
        #expect(result.weights.count == 2 && result.height?.cm == 180 && result.sex == .male)
    }

    @Test func unitsAreConverted() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [<!ELEMENT HealthData ANY>]>
        <HealthData locale="en_US">
         <Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="lb" startDate="2024-01-01 08:00:00 -0500" value="150"/>
         <Record type="HKQuantityTypeIdentifierHeight" unit="ft" startDate="2023-01-01 08:00:00 -0500" value="5.5"/>
         <Record type="HKQuantityTypeIdentifierHeight" unit="in" startDate="2024-01-01 08:00:00 -0500" value="66"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="g" startDate="2024-01-02 08:00:00 -0500" value="68000"/>
        </HealthData>
        """
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("health-\(UUID()).xml")
        try Data(xml.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try AppleHealthImport.parse(fileAt: url)
        #expect(result.birthDate == nil, "an empty date of birth is unknown")
        #expect(result.sex == .female)
        #expect(result.weights.map(\.1) == [Decimal(string: "68.04")!, 68], "150 lb in kilograms to two places, as any weight is kept")
        #expect(result.height?.cm == Decimal(string: "167.6"), "the latest height wins")
    }

    @Test func aLargeGeneratedExportIsReadInChunks() throws {
        // ~4 MB of records crossing several 1 MB chunk boundaries; only the body masses are kept.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("health-large-\(UUID()).xml")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data("<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [<!ATTLIST Me a CDATA #REQUIRED>]>\n<HealthData locale=\"en\">\n".utf8))
        let steps = String(repeating: " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone &amp; Watch\" unit=\"count\" startDate=\"2024-01-01 08:00:00 +0000\" value=\"12\"/>\n", count: 100)
        for day in 0..<250 {
            try handle.write(contentsOf: Data(steps.utf8))
            // One a day (the import keeps one weight per day).
            let date = String(format: "2024-%02d-%02d", day / 28 + 1, day % 28 + 1)
            try handle.write(contentsOf: Data(" <Record type=\"HKQuantityTypeIdentifierBodyMass\" unit=\"kg\" startDate=\"\(date) 08:00:\(String(format: "%02d", day % 60)) +0\(day % 5)00\" value=\"70.5\"/>\n".utf8))
        }
        try handle.write(contentsOf: Data("</HealthData>\n".utf8))
        try handle.close()
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try AppleHealthImport.parse(fileAt: url)
        #expect(result.recordsRead == 250 * 101)
        #expect(result.weights.count == 250)
        #expect(result.weights.allSatisfy { $0.1 == Decimal(string: "70.5")! })
    }

    @Test func zipsAndJunkThroughTheAPI() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let xml = try String(contentsOf: Self.fixtures.appendingPathComponent("export_grll_apple-health-mcp_v14_me_bodymass_kg_height_cm.xml"), encoding: .utf8)
            let r = try await client.send(.POST, "/api/v1/health/import", raw: xml, contentType: "application/xml", overTheNetwork: true)
            #expect(r.status == .ok, "\(r.body.string)")
            let body = try JSONSerialization.jsonObject(with: Data(buffer: r.body)) as? [String: Any]
            #expect(body?["weightsAdded"] as? Int == 2)
            let again = try await client.send(.POST, "/api/v1/health/import", raw: xml, contentType: "application/xml", overTheNetwork: true)
            #expect((try JSONSerialization.jsonObject(with: Data(buffer: again.body)) as? [String: Any])?["weightsAdded"] as? Int == 0, "importing twice adds nothing")
            let junk = try await client.send(.POST, "/api/v1/health/import", raw: "not an export", contentType: "text/plain", overTheNetwork: true)
            #expect(junk.status == .unprocessableEntity)
            let weights = try await client.get("/api/v1/weights")
            let page = try JSONSerialization.jsonObject(with: Data(buffer: weights.body)) as? [String: Any]
            #expect((page?["items"] as? [Any])?.count == 2)
        }
    }
}
