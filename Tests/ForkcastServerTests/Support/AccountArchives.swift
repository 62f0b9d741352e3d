import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting
import ZIPFoundation

/// The files of a zip, by path.
func unzip(_ data: Data) throws -> [String: Data] {
    let archive = try Archive(data: data, accessMode: .read)
    var files: [String: Data] = [:]
    for entry in archive {
        var bytes = Data()
        _ = try archive.extract(entry) { bytes.append($0) }
        files[entry.path] = bytes
    }
    return files
}

func zip(_ files: [String: Data]) throws -> Data {
    let archive = try Archive(data: Data(), accessMode: .create)
    for (path, data) in files.sorted(by: { $0.key < $1.key }) {
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
    return try #require(archive.data)
}

extension Client {
    func importArchive(_ data: Data, dryRun: Bool = false) async throws -> TestingHTTPResponse {
        try await upload("/api/v1/import\(dryRun ? "?dryRun=true" : "")", data: data, contentType: "application/zip")
    }

    func deleteAccount(password: String) async throws -> TestingHTTPResponse {
        try await sendJSON(.DELETE, "/api/v1/me", ["password": password])
    }
}

extension AccountArchive {
    /// Every id the archive's own records carry (the person's own meal types only: built-in ones
    /// are matched by their key).
    var recordIDs: Set<UUID> {
        Set(mealTypes.filter { $0.key == nil }.map(\.id) + foods.map(\.id) + meals.map(\.id) + plan.map(\.id)
            + diary.map(\.id) + photos.map(\.id) + weights.map(\.id) + shoppingLists.map(\.list.id) + shoppingLists.flatMap { $0.items.map(\.id) })
    }
}
