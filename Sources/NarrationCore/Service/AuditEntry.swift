public import Foundation

/// One line of the audit log: who changed what, and when. The log is only ever added to.
public struct AuditEntry: Sendable, Equatable {
    /// What changed.
    public enum Action: String, Sendable, CaseIterable, Codable {
        case accountAdded = "account-added"
        case roleChanged = "role-changed"
        case accountDisabled = "account-disabled"
        case accountEnabled = "account-enabled"
        /// A new invitation in place of the old one; the passphrase and sessions were ended.
        case accountReset = "account-reset"
        /// The invitation was accepted and a passphrase set.
        case passphraseSet = "passphrase-set"
        case signedOutEverywhere = "signed-out-everywhere"
        /// An article put on the desk.
        case articleAdded = "article-added"
        /// An article's section, deadline, "listen until" or priority changed.
        case articleChanged = "article-changed"
        /// An article moved from one `DeskState` to another (or to another volunteer): the
        /// detail names the event, the states and the volunteer.
        case articleMoved = "article-moved"
        /// A proof-listener pinned a note to an article.
        case reviewNotePinned = "review-note-pinned"
        /// An article was sent back with its notes as pickups.
        case reviewSentBack = "review-sent-back"
        /// A volunteer did a pickup (the edit that did it is in the detail).
        case reviewPickupDone = "review-pickup-done"
        /// A proof-listener accepted a cut the take check proposed: an edit of the article's takes.
        case reviewCutAccepted = "review-cut-accepted"
        /// A proof-listener left a take as it is where the take check proposed a cut.
        case reviewCutLeft = "review-cut-left"
    }

    /// Its place in the log, counting up from 1 (0 for an entry not yet written).
    public let sequence: Int64
    public let at: Date
    /// Who did it: an account's name, or "command line (user NAME)" for the server's own operator.
    public let actor: String
    public let action: Action
    /// The account it concerns (for an article: its volunteer, when it has one).
    public let account: AccountName?
    /// What changed, in words: "role volunteer → coordinator".
    public let detail: String

    public init(sequence: Int64 = 0, at: Date, actor: String, action: Action, account: AccountName?, detail: String) {
        self.sequence = sequence
        self.at = at
        self.actor = actor
        self.action = action
        self.account = account
        self.detail = detail
    }

    /// The actor for a change made with a command on the server by the Unix user `user`.
    public static func commandLineActor(user: String) -> String {
        "command line (user \(user.isEmpty ? "unknown" : user))"
    }
}
