public import Foundation
public import NarrationCore

/// A take kept for an account in a reading service, wherever it was recorded: in an article's
/// studio in the browser, or at the booth's microphone with `narrate record --as`. Its seconds
/// count for the account's hours (a pickup's on an article in Pickups requested, a take's
/// otherwise), an Assigned desk article becomes Recording (`DeskService.recordedTake`), and the
/// open pickups it covers are marked done with its edit (`PickupCompletion.markCovered`), the
/// last sending the article back to review.
///
/// The stores are SQLite: call it where blocking is allowed (the studio's own thread, a command).
public struct AccountTake: Sendable {
    public let desk: DeskService
    /// Where hours are recorded; nil records none.
    public let activity: AccountActivity?
    /// The pickups a take may do, and the library its article is read from after the take;
    /// nil marks none.
    public let pickups: (completion: PickupCompletion, library: NarrationLibrary)?

    public init(desk: DeskService, activity: AccountActivity?, pickups: (completion: PickupCompletion, library: NarrationLibrary)? = nil) {
        self.desk = desk
        self.activity = activity
        self.pickups = pickups
    }

    /// Refuses, before a take begins, an actor who may not record `article` on the desk, or an
    /// article whose state takes no take (Open, in review, Published…), with the desk's
    /// sentence. An article not on the desk is left to the caller. Nothing is written.
    /// - Throws: `notPermitted`, `deskRefused`.
    public func checkMayRecord(_ article: ArticleID, by actor: ServiceActor) throws(NarrationError) {
        guard let entry = try desk.store.entry(article) else { return }
        guard actor.may(.record, entry.relation(to: actor.account?.name)) else { throw .notPermitted(actor, .record, article: article) }
        if entry.state == .recording || entry.state == .pickupsRequested { return }
        _ = try entry.state.after(.firstTake, reviewIsOn: desk.reviewIsOn, naming: entry.naming)
    }

    /// `account` (acting as `actor`) kept a take of `seconds` on `article`, which made the
    /// chunks `made`: the hours count it, the desk hears of it, and the pickups it covers are
    /// done. Returns what was done to the pickups (nil when none could be: off the desk, not in
    /// Pickups requested, or no pickups to look at).
    /// - Throws: `usage` for seconds that are no length of audio; the desk's refusal
    ///   (`notPermitted`, `deskRefused`); the review's (`reviewNotAllowed`).
    @discardableResult
    public func kept(
        on article: ArticleID, by account: Account, as actor: ServiceActor, seconds: Double, made: Set<ChunkID> = []
    ) throws(NarrationError) -> PickupCompletion.Outcome? {
        let entry = try desk.store.entry(article)
        if entry?.state == .pickupsRequested {
            try activity?.pickup(by: account.name, article: article, seconds: seconds)
        } else {
            try activity?.take(by: account.name, article: article, seconds: seconds)
        }
        guard let entry else { return nil }
        let now = try desk.recordedTake(article, by: actor)
        guard now.state == .pickupsRequested, let pickups, !made.isEmpty else { return nil }
        let reviewed = try pickups.library.reviewedArticle(try pickups.library.article(article.rawValue))
        return try pickups.completion.markCovered(
            by: made, of: reviewed, by: account, relation: entry.relation(to: account.name), actor: actor)
    }

    /// What a take that did pickups says: "Pickup 2 is done with this take." and, after the
    /// last, "All pickups are done: sent back to review."; nil when it did none.
    public static func sentence(_ outcome: PickupCompletion.Outcome?) -> String? {
        guard let outcome, !outcome.done.isEmpty else { return nil }
        let numbers = outcome.done.map { String($0.id) }
        let done =
            numbers.count == 1
            ? "Pickup \(numbers[0]) is done with this take."
            : "Pickups \(numbers.dropLast().joined(separator: ", ")) and \(numbers[numbers.count - 1]) are done with this take."
        guard outcome.allDone else { return done }
        return done + (outcome.backInReview ? " " + allDoneSentBack : " All pickups are done.")
    }

    /// What the volunteer is told once the last pickup is done on a desk article.
    public static let allDoneSentBack = "All pickups are done: sent back to review."
}
