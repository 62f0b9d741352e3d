import ConsoleKit
import Fluent
import ForkcastCore
import Foundation
import SQLKit
import Vapor

/// CSV records of a file read a megabyte at a time, each with the byte offset just after it, so an
/// import can note where it is and start there again.
struct RecordReader {
    let handle: FileHandle
    private var buffer = Data()
    private var bufferStart: Int64 = 0
    private var cursor = 0
    private var atEnd = false
    /// The offset after the last record returned.
    private(set) var offset: Int64 = 0
    /// A digest of the file's first megabyte (with its size, tells one file from another).
    private(set) var fingerprint = ""

    init(handle: FileHandle) {
        self.handle = handle
    }

    mutating func seek(to position: Int64) throws {
        try handle.seek(toOffset: UInt64(position))
        buffer = Data()
        bufferStart = position
        cursor = 0
        offset = position
        atEnd = false
    }

    /// The next line's bytes (without its newline), or nil at the end.
    private mutating func line() throws -> Data? {
        while true {
            if let newline = buffer[buffer.startIndex + cursor..<buffer.endIndex].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[(buffer.startIndex + cursor)..<newline]
                cursor = newline - buffer.startIndex + 1
                return Data(line)
            }
            if atEnd {
                guard cursor < buffer.count else { return nil }
                let line = buffer[(buffer.startIndex + cursor)...]
                cursor = buffer.count
                return Data(line)
            }
            let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            if fingerprint.isEmpty { fingerprint = FoodDataCentral.catalogId(.branded, String(decoding: chunk, as: UTF8.self)) }
            bufferStart += Int64(cursor)
            buffer = Data(buffer[(buffer.startIndex + cursor)...]) + chunk
            cursor = 0
            if chunk.isEmpty { atEnd = true }
        }
    }

    /// The next record (lines joined while a quoted field is open).
    mutating func next() throws -> (fields: [String], end: Int64)? {
        guard var data = try line() else { return nil }
        while data.reduce(0, { $0 + ($1 == UInt8(ascii: "\"") ? 1 : 0) }) % 2 == 1, let more = try line() {
            data.append(UInt8(ascii: "\n"))
            data.append(more)
        }
        offset = bufferStart + Int64(cursor)
        var records = CSVRecords(lines: [String(decoding: data, as: UTF8.self)].makeIterator())
        return (records.next() ?? [], offset)
    }
}
