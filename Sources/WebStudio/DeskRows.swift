import Foundation
import Narration
import NarrationCore

extension DeskDocument {
    /// An article on the desk as the desk's routes answer it: the document of `narrate desk show
    /// --json` with the state in words (`stateTitle`, "Ready for review") for the page.
    static func row(_ entry: DeskEntry, now: Date) -> DeskDocument { DeskDocument(entry, now: now, withStateTitle: true) }
}

/// One page of a desk listing: its rows, most urgent first, and how many match in all.
struct DeskListing: Encodable, Sendable {
    let articles: [DeskDocument]
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
        articles = entries.map { DeskDocument.row($0, now: now) }
    }
}
