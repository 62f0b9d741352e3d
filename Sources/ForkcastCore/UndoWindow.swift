/// How long a deletion made on a page can still be taken back (the Undo toast), and what becomes of
/// one whose page is left before it is sent. Pages state these in `<body>`'s data attributes; the
/// scripts read them there and decide none of them.
public enum UndoWindow {
    /// Seconds a deletion waits on its page, under Undo, before it is sent.
    public static let seconds = 6
    /// Seconds a deletion left with its page is kept in the tab for the next page of its account
    /// (a page of another account leaves it be): a day.
    public static let leftDeletionLifetimeSeconds = 24 * 60 * 60
    /// Seconds signing out waits at most for the account's deletions to be sent: a server that takes
    /// the request and never answers does not keep the person signed in.
    public static let signOutWaitSeconds = 5
}
