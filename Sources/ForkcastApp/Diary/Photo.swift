import ForkcastCore
import Foundation

/// A stored photo's metadata (seed 004): checked by content and stored without metadata.
public struct Photo: Sendable, Equatable {
    public var id: UUID
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    public var byteSize: Int
    public var capturedAt: Date
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, format: ImageFormat, width: Int, height: Int, byteSize: Int, capturedAt: Date, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.format = format
        self.width = width
        self.height = height
        self.byteSize = byteSize
        self.capturedAt = capturedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A photo as it arrives from a camera, before it is checked and stored.
public struct NewPhoto: Sendable {
    public var id: UUID
    public var data: Data
    /// The client's thumbnail, if it sent one.
    public var thumbnail: Data?
    public var capturedAt: Date?

    public init(id: UUID, data: Data, thumbnail: Data?, capturedAt: Date?) {
        self.id = id
        self.data = data
        self.thumbnail = thumbnail
        self.capturedAt = capturedAt
    }
}
