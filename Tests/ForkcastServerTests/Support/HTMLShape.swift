import FluentKit
@testable import ForkcastServer
import ForkcastContract
import ForkcastCore
import Foundation
import PropertyBased
import SQLKit
import Testing
import VaporTesting
import ZIPFoundation

struct IDOnly: Decodable { var id: UUID }
struct WeightPage: Decodable {
    var items: [Item]
    var metadata: TestMealPage.Metadata
    struct Item: Decodable { var id: UUID; var weightKg: Decimal }
}

/// The elements and attribute names of an HTML text, in order, read the way a browser's tokenizer
/// reads tags (quoted attribute values may hold `>`); text and attribute values are ignored.
struct HTMLShape: Equatable, CustomStringConvertible {
    var elements: [String] = []
    var attributes: [String] = []

    init(_ html: String) {
        let bytes = Array(html.utf8)
        var i = 0
        func isNameByte(_ b: UInt8) -> Bool { !(b == 32 || b == 9 || b == 10 || b == 12 || b == 13 || b == UInt8(ascii: "/") || b == UInt8(ascii: ">") || b == UInt8(ascii: "=")) }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<"), i + 1 < bytes.count else { i += 1; continue }
            let next = bytes[i + 1]
            let isLetter = (next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z")
            if next == UInt8(ascii: "!") {  // comment or doctype: to the next '>'
                elements.append("!")
                while i < bytes.count, bytes[i] != UInt8(ascii: ">") { i += 1 }
                continue
            }
            guard isLetter || next == UInt8(ascii: "/") else { i += 1; continue }
            i += 1
            if bytes[i] == UInt8(ascii: "/") { i += 1 }
            var name = [UInt8]()
            while i < bytes.count, isNameByte(bytes[i]) { name.append(bytes[i] | (bytes[i] >= 65 && bytes[i] <= 90 ? 0x20 : 0)); i += 1 }
            elements.append(String(decoding: name, as: UTF8.self))
            // Attributes until '>'.
            while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
                if bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 12 || bytes[i] == 13 || bytes[i] == UInt8(ascii: "/") { i += 1; continue }
                var attribute = [UInt8]()
                while i < bytes.count, isNameByte(bytes[i]) || (attribute.isEmpty && bytes[i] == UInt8(ascii: "=")) { attribute.append(bytes[i]); i += 1 }
                attributes.append(String(decoding: attribute, as: UTF8.self).lowercased())
                if i < bytes.count, bytes[i] == UInt8(ascii: "=") {
                    i += 1
                    if i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                        let quote = bytes[i]
                        i += 1
                        while i < bytes.count, bytes[i] != quote { i += 1 }
                        i += 1
                    } else {
                        while i < bytes.count, !(bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 12 || bytes[i] == 13 || bytes[i] == UInt8(ascii: ">")) { i += 1 }
                    }
                }
            }
            i += 1
        }
    }

    var description: String { "elements \(elements) attributes \(attributes)" }
}
