@testable import ForkcastServer
import Foundation
import NIOCore
import PropertyBased
import Testing
import VaporTesting

@Suite("Multipart forms")
struct MultipartTests {
    static func encode(_ parts: [(name: String, filename: String?, data: [UInt8])], boundary: String) -> [UInt8] {
        var body: [UInt8] = Array("preamble to ignore\r\n".utf8)
        for part in parts {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"".utf8)
            if let filename = part.filename { body += Array("; filename=\"\(filename)\"\r\nContent-Type: application/octet-stream".utf8) }
            body += Array("\r\n\r\n".utf8) + part.data + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\nepilogue".utf8)
    }

    /// Bytes that look like pieces of the delimiter, so the reader's matching is really exercised.
    static let tricky = Gen<UInt8?>.element(of: [13, 10, 45, 66, 0, 255, 128, 65, 32] as [UInt8]).map { $0! }

    @Test func partsComeBackWhateverTheirBytesAndHoweverTheBodyIsCut() async {
        let part = zip(Gen<String?>.element(of: ["photo", "thumbnail", "capturedAt", "archive"]).map { $0! }, Gen.bool, Self.tricky.array(of: 0...60))
        await propertyCheck(count: 400, input: part.array(of: 1...4), Gen.int(in: 1...40)) { parts, cut in
            let boundary = "B--bound"
            let encoded = Self.encode(parts.map { ($0.0, $0.1 ? "f.bin" : nil, $0.2) }, boundary: boundary)
            let reader = try #require(MultipartReader(boundary: boundary))
            var read: [(name: String, data: [UInt8])] = []
            var current: (name: String, data: [UInt8]) = ("", [])
            reader.onHeader = { name, value in if name == "Content-Disposition" { current.name = MultipartForm.parameter("name", in: value) ?? "" } }
            reader.onBody = { current.data += Array($0.readableBytesView) }
            reader.onPartComplete = { read.append(current); current = ("", []) }
            for start in stride(from: 0, to: encoded.count, by: cut) {
                try reader.feed(ByteBuffer(bytes: encoded[start..<min(start + cut, encoded.count)]))
            }
            #expect(reader.isComplete)
            #expect(read.map(\.name) == parts.map(\.0))
            #expect(read.map(\.data) == parts.map(\.2))
        }
    }

    @Test func quotedParametersKeepTheirSemicolonsAndEscapes() {
        let header = #"form-data; name="photo"; filename="a;b \"c\".jpg""#
        #expect(MultipartForm.parameter("name", in: header) == "photo")
        #expect(MultipartForm.parameter("filename", in: header) == #"a;b "c".jpg"#)
        #expect(MultipartForm.parameter("filename", in: "form-data; name=x; filename=plain.txt") == "plain.txt")
        #expect(MultipartForm.parameter("name", in: #"form-data; filename="name=evil"; name="real""#) == "real")
        #expect(MultipartForm.parameter("filename", in: "form-data; name=\"x\"") == nil)
        #expect(MultipartForm.parameter("filename", in: #"form-data; filename="unterminated"#) == "unterminated")
    }

    @Test func longHeadersAreReadInOnePass() throws {
        // 300 parts, each with a header line near the 16 KB limit, fed a byte at a time in places:
        // the reader keeps header bytes outside its state, so each byte costs the same.
        let boundary = "Bnd"
        let long = String(repeating: "x", count: 16 * 1024 - 64)
        var body = Array("--\(boundary)".utf8)
        for index in 0..<300 {
            body += Array("\r\nContent-Disposition: form-data; name=\"p\(index)\"\r\nX-Padding: \(long)\r\n\r\nv\(index)\r\n--\(boundary)".utf8)
        }
        body += Array("--\r\n".utf8)
        let form = try MultipartForm(body: ByteBuffer(bytes: body), boundary: boundary)
        #expect(form.parts.count == 300)
        #expect(form.parts.last?.name == "p299")
        #expect(form.parts.last.map { String(decoding: $0.data, as: UTF8.self) } == "v299")
    }

    @Test func malformedFormsAreRefusedNotATrap() throws {
        // The body that stopped the server under multipart-kit: a header name byte of 0x80 or more.
        let boundary = "ca0bc1825cc8ef06b05c363c17a927d5"
        for body: [UInt8] in [
            Array("--\(boundary)\r\n".utf8) + [0xC3, 0x8A, 0xC2, 0x92, 0xF1] + Array("--\(boundary)--\r\n".utf8),
            Array("--\(boundary)\r\nNa\u{00E9}me: x\r\n\r\nbody\r\n--\(boundary)--".utf8),
            Array("--\(boundary)\r\n: value\r\n\r\n".utf8),
            Array("--\(boundary)x".utf8),
            Array("--\(boundary)\r\nName: x\rZ".utf8),
        ] {
            let reader = try #require(MultipartReader(boundary: boundary))
            #expect(throws: MultipartReader.Problem.self) { try reader.feed(ByteBuffer(bytes: body)) }
        }
        #expect(MultipartReader(boundary: "") == nil)
        #expect(MultipartReader(boundary: "a\r\nb") == nil)
    }

    @Test func everyUploadFormAnswersAProblemToTheBodyThatStoppedTheServer() async throws {
        try await withForkcast(allowSignup: true) { app in
            let client = try await app.signUp()
            let boundary = "ca0bc1825cc8ef06b05c363c17a927d5"
            var body = Data("--\(boundary)\r\n".utf8)
            body += Data([0xC3, 0x8A, 0xC2, 0x92, 0xF1, 0xB8, 0xA1, 0xBB, 0x4F]) + Data("--\(boundary)--\r\n".utf8)
            for path in ["/api/v1/import", "/api/v1/photos", "/api/v1/health/import"] {
                let r = try await client.upload(path, data: body, contentType: "multipart/form-data; boundary=\(boundary)")
                #expect((400..<500).contains(r.status.code), "\(path): \(r.status) \(r.body.string)")
            }
            #expect(try await client.get("/api/v1/me").status == .ok, "still answering")
            // Signed out, with only the session a visit to the sign-in page gives: the CSRF check
            // reads the form before anything else, and must not trap either.
            var browser = Browser(app: app)
            _ = try await browser.csrf(from: "/login")
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .cookie, value: browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
            headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
            for path in ["/login", "/setup", "/diary/photo", "/settings/data/import"] {
                let r = try await app.testing().sendRequest(.POST, path, headers: headers, body: ByteBuffer(data: body))
                #expect((400..<500).contains(r.status.code) || r.status == .seeOther, "\(path): \(r.status)")
            }
            #expect(try await client.get("/api/v1/me").status == .ok, "still answering")
        }
    }
}
