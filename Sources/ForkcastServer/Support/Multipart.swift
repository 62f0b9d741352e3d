import Foundation
import NIOCore

/// A streaming multipart/form-data reader (RFC 7578), used for every upload form instead of
/// multipart-kit's parser: that one traps (index out of range) on a header-name byte of 0x80 or
/// more, so one crafted upload stopped the whole server (found by schemathesis). Same
/// model: `feed` bytes as they come; headers, body bytes and part ends are reported as callbacks.
final class MultipartReader {
    enum Problem: Error { case malformed }

    var onHeader: (_ name: String, _ value: String) -> Void = { _, _ in }
    var onBody: (ByteBuffer) -> Void = { _ in }
    var onPartComplete: () -> Void = {}

    /// `\r\n--boundary`: what ends a part (the first delimiter may come without its CRLF).
    private let delimiter: [UInt8]
    private enum State {
        case preamble(matched: Int)
        case afterDelimiter(matched: Int)
        case headerName
        case headerValue
        case headerLineEnd
        case headersEnd
        case body(matched: Int)
        case epilogue
    }
    private var state: State = .preamble(matched: 2)
    /// The header line being read. Kept here, not in `state`: an array inside an enum case is
    /// copied on every byte appended (a form of header-only parts took seconds).
    private var headerName: [UInt8] = []
    private var headerValue: [UInt8] = []
    /// A header line longer than this is not a form's.
    private let maximumHeaderBytes = 16 * 1024

    init?(boundary: String) {
        guard !boundary.isEmpty, boundary.utf8.count <= 200, !boundary.utf8.contains(where: { $0 == 13 || $0 == 10 }) else { return nil }
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Whether the closing delimiter was seen.
    var isComplete: Bool { if case .epilogue = state { true } else { false } }

    func feed(_ buffer: ByteBuffer) throws {
        var body: [UInt8] = []
        func flushBody() {
            guard !body.isEmpty else { return }
            onBody(ByteBuffer(bytes: body))
            body.removeAll(keepingCapacity: true)
        }
        for byte in buffer.readableBytesView {
            switch state {
            case .preamble(let matched):
                // The preamble is ignored; it ends at the first delimiter (CRLF before it optional).
                state = .preamble(matched: Self.advance(matched, byte, in: delimiter))
                if case .preamble(let m) = state, m == delimiter.count { state = .afterDelimiter(matched: 0) }
            case .afterDelimiter(let matched):
                // "--" closes the form; CRLF starts a part's headers.
                switch (matched, byte) {
                case (0, UInt8(ascii: "-")): state = .afterDelimiter(matched: -1)
                case (-1, UInt8(ascii: "-")): state = .epilogue
                case (0, 13): state = .afterDelimiter(matched: 1)
                case (1, 10):
                    headerName.removeAll(keepingCapacity: true)
                    state = .headerName
                default: throw Problem.malformed
                }
            case .headerName:
                switch byte {
                case UInt8(ascii: ":") where !headerName.isEmpty:
                    headerValue.removeAll(keepingCapacity: true)
                    state = .headerValue
                case 13 where headerName.isEmpty: state = .headersEnd
                case _ where Self.isTokenByte(byte) && headerName.count < 256: headerName.append(byte)
                default: throw Problem.malformed
                }
            case .headerValue:
                switch byte {
                case 13: state = .headerLineEnd
                case 32 where headerValue.isEmpty, 9 where headerValue.isEmpty: break
                default:
                    guard headerValue.count < maximumHeaderBytes else { throw Problem.malformed }
                    headerValue.append(byte)
                }
            case .headerLineEnd:
                guard byte == 10 else { throw Problem.malformed }
                onHeader(String(decoding: headerName, as: UTF8.self), String(decoding: headerValue, as: UTF8.self))
                headerName.removeAll(keepingCapacity: true)
                state = .headerName
            case .headersEnd:
                guard byte == 10 else { throw Problem.malformed }
                state = .body(matched: 0)
            case .body(let matched):
                let next = Self.advance(matched, byte, in: delimiter, allowBareStart: false)
                if next == 0 {
                    // Bytes that looked like a delimiter's start are body after all.
                    body.append(contentsOf: delimiter[0..<matched])
                    body.append(byte)
                } else if next <= matched {
                    // A CR restarting the match: what matched before it is body.
                    body.append(contentsOf: delimiter[0..<(matched - next + 1)])
                }
                if next == delimiter.count {
                    flushBody()
                    onPartComplete()
                    state = .afterDelimiter(matched: 0)
                } else {
                    state = .body(matched: next)
                }
            case .epilogue:
                flushBody()
                return
            }
        }
        flushBody()
    }

    /// How much of `delimiter` is matched after `byte`. The delimiter's only CR is its first byte,
    /// so a mismatch restarts at 1 on a CR and at 0 otherwise. In the preamble a delimiter may
    /// also start without its CRLF.
    private static func advance(_ matched: Int, _ byte: UInt8, in delimiter: [UInt8], allowBareStart: Bool = true) -> Int {
        if byte == delimiter[matched] { return matched + 1 }
        if allowBareStart, byte == UInt8(ascii: "-"), matched <= 2 { return 3 }
        return byte == 13 ? 1 : 0
    }

    /// RFC 7230 token characters: visible ASCII except separators.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        guard byte > 32, byte < 127 else { return false }
        return !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
    }
}

/// The parts of a whole (collected) multipart body: name, file name and bytes of each.
struct MultipartForm {
    struct Part { var name: String; var filename: String?; var data: Data }
    var parts: [Part] = []

    init(body: ByteBuffer, boundary: String) throws {
        guard let reader = MultipartReader(boundary: boundary) else { throw MultipartReader.Problem.malformed }
        var current = Part(name: "", filename: nil, data: Data())
        var parts: [Part] = []
        reader.onHeader = { name, value in
            guard name.lowercased() == "content-disposition" else { return }
            current.name = Self.parameter("name", in: value) ?? ""
            current.filename = Self.parameter("filename", in: value)
        }
        reader.onBody = { current.data.append(contentsOf: $0.readableBytesView) }
        reader.onPartComplete = {
            parts.append(current)
            current = Part(name: "", filename: nil, data: Data())
        }
        try reader.feed(body)
        guard reader.isComplete else { throw MultipartReader.Problem.malformed }
        self.parts = parts
    }

    func first(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// `name="value"` (or unquoted) out of a Content-Disposition value. A quoted value may hold
    /// `;` and `\"` (RFC 7578 §4.2, RFC 9110 §5.6.4): `filename="a;b"` is `a;b`.
    static func parameter(_ key: String, in header: String) -> String? {
        var rest = Substring(header)
        // Skip the disposition type ("form-data").
        guard let first = rest.firstIndex(of: ";") else { return nil }
        rest = rest[rest.index(after: first)...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            let nameEnd = rest.firstIndex { $0 == "=" || $0 == ";" } ?? rest.endIndex
            let name = rest[..<nameEnd].trimmingCharacters(in: .whitespaces).lowercased()
            guard nameEnd < rest.endIndex, rest[nameEnd] == "=" else { rest = rest[nameEnd...]; continue }
            rest = rest[rest.index(after: nameEnd)...].drop { $0 == " " || $0 == "\t" }
            var value = ""
            if rest.first == "\"" {
                var index = rest.index(after: rest.startIndex)
                while index < rest.endIndex, rest[index] != "\"" {
                    if rest[index] == "\\", rest.index(after: index) < rest.endIndex { index = rest.index(after: index) }
                    value.append(rest[index])
                    index = rest.index(after: index)
                }
                rest = index < rest.endIndex ? rest[rest.index(after: index)...] : rest[rest.endIndex...]
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            if name == key { return value }
        }
        return nil
    }
}
