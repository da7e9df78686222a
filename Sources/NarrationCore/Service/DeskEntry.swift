public import Foundation

/// An article's service record on the desk: what the coordinator gave it (section, deadline,
/// "listen until", priority), where it is in its life, and whose it is.
public struct DeskEntry: Sendable, Equatable {
    public let article: ArticleID
    /// The article's title and publication, as the article keeps them.
    public var title: String
    public var publication: String
    /// The part of the publication it comes from ("Local news"); "" for none.
    public var section: String
    public var deadline: DeskTime?
    /// When it leaves the feeds (`DeskState.expired`); nil keeps it.
    public var listenUntil: DeskTime?
    public var priority: DeskPriority
    public var state: DeskState
    /// The volunteer it is assigned to or claimed by; nil while it is open.
    public var assignee: AccountName?
    /// How the assignee came to have it; nil while it is open.
    public var taking: DeskTaking?
    public let addedAt: Date
    public var changedAt: Date
    /// Counts every change, for compare-and-set: a change is kept only if nothing else changed
    /// the record since it was read.
    public var version: Int64

    public init(
        article: ArticleID, title: String, publication: String, section: String = "", deadline: DeskTime? = nil, listenUntil: DeskTime? = nil,
        priority: DeskPriority = .normal, state: DeskState = .open, assignee: AccountName? = nil, taking: DeskTaking? = nil, addedAt: Date,
        changedAt: Date? = nil, version: Int64 = 1
    ) {
        self.article = article
        self.title = title
        self.publication = publication
        self.section = section
        self.deadline = deadline
        self.listenUntil = listenUntil
        self.priority = priority
        self.state = state
        self.assignee = assignee
        self.taking = taking
        self.addedAt = addedAt
        self.changedAt = changedAt ?? addedAt
        self.version = version
    }

    /// How a refusal names an article its asker may see: `The article k3f9x2ab ("Budget vote")`.
    public var naming: String { "The article \(article) (\"\(Role.quoted(title))\")" }

    /// The longest section name accepted.
    public static let sectionLength = 200

    /// Checks a section's name before it is kept.
    /// - Throws: `usage` for a section too long or holding a control or bidirectional character.
    public static func checkSection(_ section: String) throws(NarrationError) {
        guard section.count <= sectionLength else {
            throw .usage("A section may have at most \(sectionLength) characters; this one has \(section.count).")
        }
        guard !section.unicodeScalars.contains(where: ControlCharacters.isHazard) else {
            throw .usage("The section \"\(Role.quoted(section))\" holds a control character: give it on one line of plain text.")
        }
    }

    /// Whether the deadline has passed at `now` and the article is not yet approved or
    /// published (expired and withdrawn articles are never late: they are gone).
    public func isLate(at now: Date) -> Bool {
        guard let deadline, deadline.hasPassed(at: now) else { return false }
        return !state.isFinished
    }

    /// How the article stands to the account `name` (nil: the server's operator, who has no
    /// account of their own), for `Permissions.may`. The one place this is decided:
    /// - Open: `open` to everyone.
    /// - Ready for review: `readyForReview` to everyone, the volunteer who sent it included;
    ///   proof-listeners see an article only in this state.
    /// - Assigned, Recording and Pickups requested: the assignee's (`assignedToThem` or
    ///   `claimedByThem`), `someoneElses` to every other account. Sent back with pickups, it is
    ///   the volunteer's again, and proof-listeners see it again when the pickups are done.
    /// - Approved, Published, Expired and Withdrawn: nobody's to record any more, so
    ///   `someoneElses` to every account: only coordinators and admins see and manage them.
    public func relation(to name: AccountName?) -> ArticleRelation {
        switch state {
        case .open: return .open
        case .readyForReview: return .readyForReview
        case .approved, .published, .expired, .withdrawn: return .someoneElses
        case .assigned, .recording, .pickupsRequested:
            guard let name, name == assignee else { return .someoneElses }
            return taking == .claimed ? .claimedByThem : .assignedToThem
        }
    }
}

/// How an article came to its volunteer.
public enum DeskTaking: String, Sendable, CaseIterable, Codable {
    /// A coordinator assigned it.
    case assigned
    /// The volunteer claimed it while it was open.
    case claimed
}
