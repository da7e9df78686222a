/// Something a person asks the service to do, checked by `Permissions.may` before it is done.
public enum ServiceAction: String, Sendable, CaseIterable, CustomStringConvertible {
    /// See an article: its text, state and audio.
    case view
    /// Record, edit or re-read an article's takes.
    case record
    /// Send a finished article on (to review, or straight to delivery when review is off).
    case send
    /// Take an open article as one's own.
    case claim
    /// Give an article to a volunteer, take it back or leave it open.
    case assign
    /// Hear an article ready for review and pin notes to it.
    case review
    /// Approve a reviewed article, or send it back with its notes.
    case approve
    /// Add, reprioritise, withdraw an article, and its publication settings.
    case manageArticles = "manage-articles"
    /// Add accounts, change roles, disable, enable and reset them.
    case manageAccounts = "manage-accounts"
    /// The service's settings: destinations, profiles, review on or off.
    case manageSettings = "manage-settings"
    /// See every account's hours and the funder's report (everyone sees their own).
    case viewAllHours = "view-all-hours"

    public var description: String { rawValue }
}

/// How an article stands to the person asking: the one fact about it that permissions depend on.
public enum ArticleRelation: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A coordinator gave it to them.
    case assignedToThem = "assigned-to-them"
    /// They claimed it when it was open.
    case claimedByThem = "claimed-by-them"
    /// Assigned to or claimed by another volunteer.
    case someoneElses = "someone-elses"
    /// Nobody has it yet: anyone who narrates may claim it.
    case open
    /// Sent for review (by whoever recorded it); the proof-listeners' until approved or sent back.
    case readyForReview = "ready-for-review"

    public var description: String { rawValue }
}
