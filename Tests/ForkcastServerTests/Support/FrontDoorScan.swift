import Foundation

/// Reads ForkcastServer's sources for writes a front door (an API or page handler, the sync push, a
/// command) makes by itself instead of through a use case.
enum FrontDoorScan {
    /// Where writing is the job: the use cases, the repositories they use, the person's context that
    /// hands them out, the migrations and the benchmark's seeder.
    static let writers = ["UseCases/", "Repositories/", "Auth/Owner.swift", "Migrations/", "Commands/BenchmarkCommand.swift"]

    /// "file: text" for each of `writes` found in a source file outside ``writers``.
    static func find(_ writes: [String]) throws -> [String] {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ForkcastServer")
        var found: [String] = [], read = 0
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        for case let file as URL in files where file.pathExtension == "swift" {
            let relative = String(file.path.dropFirst(sources.path.count + 1))
            guard !writers.contains(where: relative.hasPrefix) else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            read += 1
            for write in writes where text.contains(write) { found.append("\(relative): \(write)") }
        }
        guard read > 50 else { return ["only \(read) source files found under \(sources.path)"] }
        return found
    }
}
