import Fluent
import ForkcastCore
import Foundation

/// A read-only link to part of a person's diary (``DiaryLink``): only a hash of its token is kept.
final class DiaryLinkModel: Model, @unchecked Sendable {
    static let schema = "diary_links"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "from_date") var from: String
    @Field(key: "to_date") var to: String
    @Field(key: "expires_at") var expiresAt: Date
    /// The parts shown, comma-separated (`diary,weights`).
    @Field(key: "shows") var shows: String
    @Field(key: "created_at") var createdAt: Date
    var properties: [any AnyProperty] { [$id, $ownerID, $tokenHash, $from, $to, $expiresAt, $shows, $createdAt] }

    init() {}

    init(_ link: DiaryLink, ownerID: UUID) {
        id = link.id
        self.ownerID = ownerID
        tokenHash = link.tokenHash
        from = link.from.iso
        to = link.to.iso
        expiresAt = link.expiresAt
        shows = link.shows.sorted().map(\.rawValue).joined(separator: ",")
        createdAt = link.createdAt
    }

    var domain: DiaryLink {
        DiaryLink(id: id!, tokenHash: tokenHash, from: CalendarDate(stored: from), to: CalendarDate(stored: to), expiresAt: expiresAt,
                  shows: Set(shows.split(separator: ",").compactMap { DiaryLink.Part(rawValue: String($0)) }), createdAt: createdAt)
    }
}
