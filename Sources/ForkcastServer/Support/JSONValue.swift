import ForkcastCore
import Foundation

extension JSONValue {
    /// The JSON an Encodable value encodes to (with the API's date format): a synced record's answer.
    init(encoding value: some Encodable) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder.forkcastSorted.encode(value))
    }
}
