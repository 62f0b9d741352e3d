/// A page of a list: 1-based page number and page size, checked.
public struct Paging: Hashable, Sendable {
    public static let defaultPer = 100
    public static let maximumPer = 1000

    public let page: Int
    public let per: Int

    public init(page: Int? = nil, per: Int? = nil) throws(ValidationError) {
        let page = page ?? 1
        let per = per ?? Self.defaultPer
        var problems: [ValidationError.Field] = []
        if page < 1 { problems.append(.init(field: "page", message: "page starts at 1; \(page) is not a page.")) }
        if per < 1 || per > Self.maximumPer {
            problems.append(.init(field: "per", message: "per must be between 1 and \(Self.maximumPer); got \(per)."))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        self.page = page
        self.per = per
    }

    public var offset: Int { (page - 1) * per }
}
