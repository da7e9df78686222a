import Foundation
import NarrationCore

/// An article on the desk as `narrate desk … --json` prints it.
struct DeskEntryJSON: Encodable {
    let id: String
    let title: String
    let publication: String
    let section: String
    /// open, assigned, recording, ready-for-review, pickups-requested, approved, published,
    /// expired or withdrawn.
    let state: String
    /// low, normal, high or urgent.
    let priority: String
    /// `YYYY-MM-DD` (the whole day) or `YYYY-MM-DDTHH:MM`, UTC; null for none.
    let deadline: String?
    let listenUntil: String?
    /// Whether the deadline has passed and the article is not yet approved or published.
    let late: Bool
    /// The account it is assigned to or claimed by; null while open.
    let volunteer: String?
    /// assigned or claimed; null while open.
    let taking: String?
    let addedAt: Date
    let changedAt: Date
    /// Counts the record's changes.
    let version: Int64

    init(_ entry: DeskEntry, now: Date) {
        id = entry.article.rawValue
        title = entry.title
        publication = entry.publication
        section = entry.section
        state = entry.state.rawValue
        priority = entry.priority.name
        deadline = entry.deadline?.description
        listenUntil = entry.listenUntil?.description
        late = entry.isLate(at: now)
        volunteer = entry.assignee?.rawValue
        taking = entry.taking?.rawValue
        addedAt = entry.addedAt
        changedAt = entry.changedAt
        version = entry.version
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, publication, section, state, priority, deadline, listenUntil, late, volunteer, taking, addedAt, changedAt, version
    }

    /// Every key always, with null for what an article does not have, so that scripts see one shape.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(publication, forKey: .publication)
        try container.encode(section, forKey: .section)
        try container.encode(state, forKey: .state)
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
