import ForkcastContract
import Foundation

/// Where a photo's metadata and bytes are served: the one place the API's answers (url,
/// thumbnailUrl, Location) and the pages' images take these paths from.
enum PhotoURL {
    static func metadata(_ id: UUID) -> String { Photos.Get.path.filled(["id": id.uuidString]) }
    static func image(_ id: UUID) -> String { Photos.Image.path.filled(["id": id.uuidString]) }
    static func thumbnail(_ id: UUID) -> String { Photos.Thumbnail.path.filled(["id": id.uuidString]) }
}
