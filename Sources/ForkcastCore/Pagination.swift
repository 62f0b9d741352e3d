/// A page of a list: 1-based page number and page size, checked so that the offset can never
/// overflow (`page=9223372036854775807` is a 400, not a trap).
public struct Paging: Hashable, Sendable {
    public static let defaultPer = 100
    public static let maximumPer = 1000
    /// Far beyond any list a person keeps (a billion rows at the largest page size).
    public static let maximumPage = 1_000_000

    public let page: Int
    public let per: Int

    public init(page: Int? = nil, per: Int? = nil) throws(ValidationError) {
        let page = page ?? 1
        let per = per ?? Self.defaultPer
        var problems: [ValidationError.Field] = []
        if page < 1 || page > Self.maximumPage {
            problems.append(.init(field: "page", message: "page must be between 1 and \(Self.maximumPage); got \(page)."))
        }
        if per < 1 || per > Self.maximumPer {
            problems.append(.init(field: "per", message: "per must be between 1 and \(Self.maximumPer); got \(per)."))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        self.page = page
        self.per = per
    }

    /// Rows to skip; at most (maximumPage − 1) × maximumPer, far inside Int.
    public var offset: Int { (page - 1) * per }
}
