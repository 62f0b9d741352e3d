import Foundation
import Testing
import VaporTesting

/// An answer's JSON object (the test fails, showing the answer, when it is not one).
func object(_ r: TestingHTTPResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(buffer: r.body)) as? [String: Any], "\(r.status) \(r.body.string)")
}

/// An answer's JSON array of objects.
func array(_ r: TestingHTTPResponse) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(buffer: r.body)) as? [[String: Any]], "\(r.status) \(r.body.string)")
}

/// A photo of Tests/Fixtures/photos.
func fixturePhoto(_ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/photos/\(name)"))
}
