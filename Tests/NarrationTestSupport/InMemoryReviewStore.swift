public import Foundation
public import Narration
public import NarrationCore
import Synchronization

/// A `ReviewStore` in memory, for fast tests of review's rules and to keep the protocol honest.
/// Each method takes one lock, so its change and its audit line are one step, as in a
/// transaction; the audit lines it was given are in `audit`. Times are kept to the whole
/// second, as the catalog keeps them.
public final class InMemoryReviewStore: ReviewStore {
    private struct State {
        var notes: [ReviewNote] = []
        var sendBacks: [ReviewSendBack] = []
        var audit: [AuditEntry] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// The audit lines written, oldest first.
    public var audit: [AuditEntry] { state.withLock { $0.audit } }

    public func addNote(_ note: ReviewNote, audit: AuditEntry) throws(NarrationError) -> ReviewNote {
        state.withLock { state in
            let stored = ReviewNote(
                id: Int64(state.notes.count + 1), article: note.article, paragraph: note.paragraph, milliseconds: note.milliseconds,
                content: note.content, author: note.author, createdAt: Self.whole(note.createdAt))
            state.notes.append(stored)
            state.audit.append(audit)
            return stored
        }
    }

    public func notes(of article: ArticleID) throws(NarrationError) -> [ReviewNote] {
        state.withLock { $0.notes.filter { $0.article == article } }
    }

    public func recordSendBack(
        _ sendBack: ReviewSendBack, audit: @escaping @Sendable ([ReviewNote]) -> AuditEntry
    ) throws(NarrationError) -> (sendBack: ReviewSendBack, pickups: [ReviewNote]) {
        try state.withLock { (state) throws(NarrationError) in
            let waiting = state.notes.indices.filter { state.notes[$0].article == sendBack.article && state.notes[$0].sendBack == nil }
            guard !waiting.isEmpty else { throw .noNotesToSendBack }
            let stored = ReviewSendBack(
                id: Int64(state.sendBacks.count + 1), article: sendBack.article, by: sendBack.by, at: Self.whole(sendBack.at),
                lastEdit: sendBack.lastEdit, chunks: sendBack.chunks)
            state.sendBacks.append(stored)
            state.audit.append(audit(waiting.map { state.notes[$0] }))
            for index in waiting { state.notes[index].sendBack = stored.id }
            return (stored, waiting.map { state.notes[$0] })
        }
    }

    public func latestSendBack(of article: ArticleID) throws(NarrationError) -> ReviewSendBack? {
        state.withLock { $0.sendBacks.last { $0.article == article } }
    }

    public func markPickupDone(
        _ id: Int64, of article: ArticleID, edit: Int, by account: AccountName, at: Date, audit: AuditEntry
    ) throws(NarrationError) -> Bool {
        state.withLock { state in
            let last = state.sendBacks.last { $0.article == article }?.id
            guard let index = state.notes.firstIndex(where: { $0.id == id && $0.article == article }),
                  state.notes[index].isOpen, last != nil, state.notes[index].sendBack == last
            else { return false }
            state.notes[index].pickup = .done(edit: edit, by: account, at: Self.whole(at))
            state.audit.append(audit)
            return true
        }
    }

    private static func whole(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
}
