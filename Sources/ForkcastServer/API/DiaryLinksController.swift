import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/diary-links` and what a link opens, as ForkcastContract's ``DiaryLinks`` operations:
/// the same use case as Settings › Shared with a coach (``ShareDiary``).
enum DiaryLinksController {
    static func register(_ routes: OperationRoutes) {
        routes.on(DiaryLinks.Create.self) { req, _, input in
            let made = try await req.makeDiaryLink(input)
            return DiaryLinkAnswer(made.link, url: made.url, token: made.token)
        }
        routes.on(DiaryLinks.List.self) { req, _, _ in
            try await req.shareDiary.links(of: try req.requireUserID()).map { DiaryLinkAnswer($0) }
        }
        routes.on(DiaryLinks.Revoke.self) { req, parameters, _ in
            guard try await req.shareDiary.revoke(parameters.id, by: try req.requireUserID()) else {
                throw AppError.notFound("No diary link with id \(parameters.id) is yours.")
            }
            return Nothing()
        }
        routes.on(DiaryLinks.Shared.self) { req, query, _ in
            let shared = try await SharedDiary.open(query.token, req)
            return .value(try await shared.day(query.date), headers: ShoppingController.sharedHeaders)
        }
        routes.raw(DiaryLinks.SharedExport.self) { req, parameters in
            let shared = try await SharedDiary.open(parameters.token, req)
            let response = Response(status: .ok, headers: ShoppingController.sharedHeaders, body: .init(string: try await shared.csv()))
            response.headers.replaceOrAdd(name: .contentType, value: "text/csv; charset=utf-8")
            response.headers.replaceOrAdd(name: .contentDisposition,
                                          value: "attachment; filename=\"forkcast-diary-\(shared.link.from.iso)-to-\(shared.link.to.iso).csv\"")
            return response
        }
    }
}

extension Request {
    var shareDiary: ShareDiary { ShareDiary(accounts: FluentAccounts(db: db), now: now) }

    /// Makes a diary link for the signed-in person: its token (shown once) and its page's address.
    func makeDiaryLink(_ input: DiaryLinkInput) async throws -> (link: DiaryLink, token: String, url: String) {
        let token = Tokens.generate()
        let link = try await shareDiary.make(by: try requireUserID(), tokenHash: Tokens.hash(token), from: input.from, to: input.to,
                                             expiresAt: input.expiresAt, shows: input.shows)
        return (link, token, publicBaseURL + SiteURL.coach(token).path)
    }
}
