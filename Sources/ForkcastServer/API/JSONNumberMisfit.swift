import ForkcastCore
import Foundation

/// Foundation reports a number its field's type cannot hold (`1.5` or `1e30` where a whole number
/// is read) as "The given data was not valid JSON", with no field named: the same error as for a
/// body that does not parse. When the body does parse, this finds the field, so the answer is the
/// 422 naming it that every other invalid value gets, not a 400 saying the JSON is broken.
///
/// Only on that error: each number that is not a whole number in `Int`'s range is tried as 1 in
/// turn, and the first whose change gets the body past that error is the field. At most
/// ``maximumTries`` numbers are tried, so a hostile body costs a bounded number of decodes.
enum JSONNumberMisfit {
    static let maximumTries = 64

    /// What is said when the JSON parses but the number to blame is not found (a document with
    /// more fractions than are tried, such as an account export).
    static let unnamed = "a number in it does not fit its field (a fraction, or a number past \(Int.max), where a whole number belongs)"

    /// True when `data` parses as JSON: Foundation's "not valid JSON" was then about a number.
    static func parses(_ data: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
    }

    /// The problem naming the field, or nil when the body is not JSON (or no number is to blame).
    static func problem<T: Decodable>(in body: Data, decoding type: T.Type, with decoder: JSONDecoder) -> ValidationError? {
        guard let tree = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return nil }
        var candidates: [[Step]] = []
        collect(tree, at: [], into: &candidates)
        for path in candidates {
            guard let data = try? JSONSerialization.data(withJSONObject: replacing(tree, at: path[...]), options: [.fragmentsAllowed])
            else { continue }
            do {
                _ = try decoder.decode(T.self, from: data)
            } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
                continue  // still the same error: this number was not (the only thing) to blame
            } catch {}
            let field = ProblemMiddleware.fieldName(path)
            // The field's own range is its rule's to say, once the number is whole.
            return ValidationError(field: field, "\(field) must be a whole number, not a fraction or a number that large.")
        }
        return nil
    }

    /// A key of an object or an index of an array, on the way to a number.
    struct Step: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
        init(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }
    }

    /// Numbers Foundation read as a floating-point value, or as an unsigned one past `Int.max`.
    private static func collect(_ value: Any, at path: [Step], into found: inout [[Step]]) {
        guard found.count < maximumTries else { return }
        switch value {
        case let object as [String: Any]:
            for key in object.keys.sorted() { collect(object[key]!, at: path + [Step(stringValue: key)], into: &found) }
        case let array as [Any]:
            for (index, element) in array.enumerated() { collect(element, at: path + [Step(intValue: index)], into: &found) }
        case let number as NSNumber:
            if ["d", "f", "Q"].contains(String(cString: number.objCType)) { found.append(path) }
        default:
            break
        }
    }

    private static func replacing(_ value: Any, at path: ArraySlice<Step>) -> Any {
        guard let step = path.first else { return NSNumber(value: 1) }
        switch (step.intValue, value) {
        case (nil, var object as [String: Any]):
            object[step.stringValue] = object[step.stringValue].map { replacing($0, at: path.dropFirst()) }
            return object
        case (let index?, var array as [Any]) where array.indices.contains(index):
            array[index] = replacing(array[index], at: path.dropFirst())
            return array
        default:
            return value
        }
    }
}

extension JSONDecoder {
    /// Decodes `data`; when Foundation's "not valid JSON" means a number its field cannot hold,
    /// throws the 422 naming that field instead (the request body, a pushed record alike).
    func decodeNamingMisfits<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try decode(T.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            if let misfit = JSONNumberMisfit.problem(in: data, decoding: T.self, with: self) { throw misfit }
            throw DecodingError.dataCorrupted(context)
        }
    }
}
