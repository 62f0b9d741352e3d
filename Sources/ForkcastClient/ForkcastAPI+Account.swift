import ForkcastCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Signing in, the account, invitations and your data.
extension ForkcastAPI {
    /// Creates an account; `invitation` is an invitation link's token (``createInvitation()``), which
    /// creates it while sign-up is closed.
    public func register(email: String, password: String, displayName: String? = nil, timeZone: String? = nil,
                         invitation: String? = nil) async throws -> Session {
        try await send(Auth.Register.self, body: RegisterInput(email: email, password: password, displayName: displayName, timeZone: timeZone,
                                                               invitation: invitation))
    }

    public func login(email: String, password: String) async throws -> Session {
        try await send(Auth.Login.self, body: LoginInput(email: email, password: password))
    }

    /// Revokes this client's token.
    public func logout() async throws { _ = try await send(Auth.Logout.self, Nothing()) }

    /// Sign in with Apple: the identity token `ASAuthorizationAppleIDCredential` gave the app, the
    /// raw nonce whose SHA-256 the app put in the request, and the name Apple told it (first sign-in
    /// only). With a bearer token set, links Apple to that account instead.
    public func signInWithApple(identityToken: String, nonce: String?, displayName: String? = nil) async throws -> Session {
        try await send(Auth.Apple.self, body: AppleSignInInput(identityToken: identityToken, nonce: nonce, displayName: displayName))
    }

    /// How this account signs in.
    public func signInMethods() async throws -> SignInMethods { try await send(Identities.List.self, Nothing()) }

    /// Unlinks Apple (`apple`) or the OpenID Connect provider (`oidc`).
    public func unlinkIdentity(_ provider: SignInProvider) async throws {
        _ = try await send(Identities.Unlink.self, ProviderParameter(provider))
    }

    /// The invitation links waiting (the server's owner only), newest first.
    public func invitations() async throws -> [InvitationAnswer] { try await send(Invitations.List.self, Nothing()) }

    /// Makes a one-time sign-up link (the server's owner only); its `link` and `token` are in this
    /// answer only.
    public func createInvitation() async throws -> InvitationAnswer { try await send(Invitations.Create.self, Nothing()) }

    /// Revokes a link waiting to be used.
    public func revokeInvitation(_ id: UUID) async throws { _ = try await send(Invitations.Revoke.self, IDParameter(id)) }

    /// The household you are in, with its members.
    public func household() async throws -> HouseholdAnswer { try await send(Households.Get.self, Nothing()) }

    /// Makes a read-only link to part of your diary for a coach; its `link` and `token` are in
    /// this answer only.
    public func createDiaryLink(_ input: DiaryLinkInput) async throws -> DiaryLinkAnswer { try await send(DiaryLinks.Create.self, body: input) }

    /// Your diary links still open, newest first.
    public func diaryLinks() async throws -> [DiaryLinkAnswer] { try await send(DiaryLinks.List.self, Nothing()) }

    /// Revokes a diary link: it stops working at once.
    public func revokeDiaryLink(_ id: UUID) async throws { _ = try await send(DiaryLinks.Revoke.self, IDParameter(id)) }

    /// A day of what a diary link shows (no account needed: a client without a token works).
    public func sharedDiary(token: String, date: CalendarDate? = nil) async throws -> SharedDiaryAnswer {
        try await send(DiaryLinks.Shared.self, SharedDiaryQuery(token: token, date: date))
    }

    /// The days a diary link covers, as CSV.
    public func sharedDiaryCSV(token: String) async throws -> Data { try await download(DiaryLinks.SharedExport.self, ShareTokenParameter(token: token)) }

    /// Renames your household (its owner only).
    public func renameHousehold(_ name: String) async throws -> HouseholdAnswer {
        try await send(Households.Rename.self, body: HouseholdInput(name: name))
    }

    /// Makes a one-time link into your household (its owner only); `link` and `token` are in this answer only.
    public func inviteToHousehold() async throws -> InvitationAnswer { try await send(Households.Invite.self, Nothing()) }

    /// Your household's links waiting, newest first.
    public func householdInvitations() async throws -> [InvitationAnswer] { try await send(Households.ListInvitations.self, Nothing()) }

    public func revokeHouseholdInvitation(_ id: UUID) async throws { _ = try await send(Households.RevokeInvitation.self, IDParameter(id)) }

    /// Joins the household of an invitation's token: your meals, foods, meal types, plan and lists become its.
    public func joinHousehold(token: String) async throws -> HouseholdAnswer {
        try await send(Households.Join.self, body: JoinHouseholdInput(token: token))
    }

    /// Leaves your household for one of your own, with a copy of its library.
    public func leaveHousehold() async throws -> HouseholdAnswer { try await send(Households.Leave.self, Nothing()) }

    /// Takes a member out of your household (its owner only).
    public func removeHouseholdMember(_ userId: UUID) async throws -> HouseholdAnswer {
        try await send(Households.RemoveMember.self, MemberParameter(userId))
    }

    /// Hands ownership of your household to a member; you become a member.
    public func handHouseholdOver(to userId: UUID) async throws -> HouseholdAnswer {
        try await send(Households.SetRole.self, MemberParameter(userId), body: MemberRoleInput(role: "owner"))
    }

    public func me() async throws -> User { try await send(Me.Get.self, Nothing()) }

    /// Changes the display name, time zone or currency (nil: unchanged; an empty name clears it).
    public func updateMe(_ input: ProfileInput) async throws -> User { try await send(Me.Update.self, body: input) }


    // MARK: Your data

    /// What an import created (or, in a dry run, would create), by the export's field names.
    public typealias ImportReport = AccountImportReport

    /// The whole account as the export zip (forkcast.json, photos, diary.csv); see docs/export-format.md.
    public func exportAccount() async throws -> Data {
        try await download(Me.Export.self, Nothing(), timeout: 600)
    }

    /// Restores an export zip into this account, which must be empty; `dryRun` checks it and changes nothing.
    public func importAccount(_ archive: Data, dryRun: Bool = false) async throws -> ImportReport {
        try await upload(Me.Import.self, DryRunQuery(dryRun: dryRun ? true : nil), archive, contentType: "application/zip", timeout: 600)
    }

    /// Deletes the account and everything of it; the password is asked for again. The token ends with it.
    public func deleteAccount(password: String) async throws {
        _ = try await send(Me.Delete.self, body: DeleteAccountInput(password: password))
    }

    /// Deletes an account without a password: `identityToken` from a sign-in in the last ten minutes.
    public func deleteAccount(identityToken: String, nonce: String?) async throws {
        _ = try await send(Me.Delete.self, body: DeleteAccountInput(identityToken: identityToken, nonce: nonce))
    }
}
