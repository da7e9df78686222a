public import Foundation
public import NarrationCore

/// An article on the desk as JSON: the one document `narrate desk … --json` prints and the
/// desk's routes answer (with the state in words, `stateTitle`, for the page), so that scripts
/// and pages read the same fields, spelled the same way.
public struct DeskDocument: Encodable, Sendable {
    public let id: String
    public let title: String
    public let publication: String
    public let section: String
    /// open, assigned, recording, ready-for-review, pickups-requested, approved, published,
    /// expired or withdrawn.
    public let state: String
    /// The state in words ("Ready for review"); nil leaves the key out (the command line's
    /// document has none).
    public let stateTitle: String?
    /// low, normal, high or urgent.
    public let priority: String
    /// `YYYY-MM-DD` (the whole day) or `YYYY-MM-DDTHH:MM`, UTC; null for none.
    public let deadline: String?
    public let listenUntil: String?
    /// Whether the deadline has passed and the article is not yet approved or published.
    public let late: Bool
    /// The account it is assigned to or claimed by; null while open.
    public let volunteer: String?
    /// assigned or claimed; null while open.
    public let taking: String?
    /// ISO 8601, UTC ("2027-01-15T08:00:00Z").
    public let addedAt: String
    public let changedAt: String
    /// Counts the record's changes.
    public let version: Int64

    /// - Parameters:
    ///   - now: what is late is judged at this time.
    ///   - withStateTitle: whether the document carries `stateTitle` (the pages' rows do).
    public init(_ entry: DeskEntry, now: Date, withStateTitle: Bool = false) {
        id = entry.article.rawValue
        title = entry.title
        publication = entry.publication
        section = entry.section
        state = entry.state.rawValue
        stateTitle = withStateTitle ? entry.state.title : nil
        priority = entry.priority.name
        deadline = entry.deadline?.description
        listenUntil = entry.listenUntil?.description
        late = entry.isLate(at: now)
        volunteer = entry.assignee?.rawValue
        taking = entry.taking?.rawValue
        addedAt = entry.addedAt.formatted(.iso8601)
        changedAt = entry.changedAt.formatted(.iso8601)
        version = entry.version
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, publication, section, state, stateTitle, priority, deadline, listenUntil, late, volunteer, taking, addedAt, changedAt, version
    }

    /// Every key always (`stateTitle` when asked for), with null for what an article does not
    /// have, so that pages and scripts see one shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(publication, forKey: .publication)
        try container.encode(section, forKey: .section)
        try container.encode(state, forKey: .state)
        try container.encodeIfPresent(stateTitle, forKey: .stateTitle)
        try container.encode(priority, forKey: .priority)
        try container.encode(deadline, forKey: .deadline)
        try container.encode(listenUntil, forKey: .listenUntil)
        try container.encode(late, forKey: .late)
        try container.encode(volunteer, forKey: .volunteer)
        try container.encode(taking, forKey: .taking)
        try container.encode(addedAt, forKey: .addedAt)
        try container.encode(changedAt, forKey: .changedAt)
        try container.encode(version, forKey: .version)
    }
}
