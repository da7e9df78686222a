import Foundation
import NarrationCore

/// An article on the desk as the desk's routes answer it: the fields of `narrate desk show
/// --json`, and the state in words (`stateTitle`, "Ready for review") for the page.
struct DeskRow: Encodable, Sendable {
    let id: String
    let title: String
    let publication: String
    let section: String
    /// open, assigned, recording, ready-for-review, pickups-requested, approved, published,
    /// expired or withdrawn.
    let state: String
    let stateTitle: String
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
    /// ISO 8601, UTC.
    let addedAt: String
    let changedAt: String
    let version: Int64

    init(_ entry: DeskEntry, now: Date) {
        id = entry.article.rawValue
        title = entry.title
        publication = entry.publication
        section = entry.section
        state = entry.state.rawValue
        stateTitle = entry.state.title
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

    /// Every key always, with null for what an article does not have, so that the page and
    /// scripts see one shape.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(publication, forKey: .publication)
        try container.encode(section, forKey: .section)
        try container.encode(state, forKey: .state)
        try container.encode(stateTitle, forKey: .stateTitle)
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

/// One page of a desk listing: its rows, most urgent first, and how many match in all.
struct DeskListing: Encodable, Sendable {
    let articles: [DeskRow]
    /// How many articles match the filters, on every page.
    let total: Int
    let page: Int
    let pages: Int
    let pageSize: Int

    /// - Parameters:
    ///   - entries: the page's records; `total`: how many match on every page.
    init(_ entries: [DeskEntry], total: Int, page: Int, now: Date, pageSize: Int = DeskRoutes.pageSize) {
        self.total = total
        self.page = page
        self.pageSize = pageSize
        pages = max(1, (total + pageSize - 1) / pageSize)
        articles = entries.map { DeskRow($0, now: now) }
    }
}
