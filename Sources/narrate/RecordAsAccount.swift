import Foundation
import Narration
import NarrationCore

/// `narrate record --as NAME`: a take at the booth's microphone for an account of a reading
/// service, counted as its page in the browser counts one (`AccountTake`): checked before the
/// take (the account may record the article), then its hours, the desk's Assigned → Recording,
/// and the pickups it covers.
struct RecordAsAccount {
    let take: AccountTake
    let account: Account
    let actor: ServiceActor
    let article: ArticleID

    /// Finds the account and checks that it may record `article`, before anything is captured.
    /// - Throws: `unknownAccount`; `notPermitted` or `deskRefused` with the desk's sentence.
    init(library: NarrationLibrary, account name: String, article: Article, reviewIsOn: Bool) throws(NarrationError) {
        let name = try AccountName(name)
        guard let account = try library.accountStore.account(named: name) else {
            throw NarrationError(.unknownAccount, NarrationError.unknownAccount(name.rawValue).message + " List the accounts with: narrate accounts list")
        }
        let user = NSUserName()
        let desk = DeskService(store: library.deskStore, reviewIsOn: reviewIsOn)
        let review = ReviewService(store: library.reviewStore, channel: AuditEntry.commandLineActor(user: user))
        self.account = account
        self.actor = .commandLine(user: user, as: account)
        self.article = article.id
        self.take = AccountTake(
            desk: desk, activity: AccountActivity(store: library.activityStore, accounts: library.accountStore),
            pickups: (PickupCompletion(review: review, desk: desk), library))
        if try library.deskStore.entry(article.id) != nil {
            try take.checkMayRecord(article.id, by: actor)
        } else if !Permissions.may(account, .record, ReviewDesk.relation(of: account, on: nil)) {
            throw .notPermitted(actor, .record, article: article.id)
        }
    }

    /// After the take: counts it for the account; returns what to tell the operator (the
    /// pickups it did, or why the desk did not take it: the take itself is kept either way).
    func kept(_ outcome: Recording.Outcome) -> String? {
        guard let chunk = outcome.chunk else { return nil }
        let frames = outcome.punch?.takeFrames ?? chunk.frames
        do throws(NarrationError) {
            let done = try take.kept(on: article, by: account, as: actor, seconds: chunk.format.seconds(frames), made: [chunk.id])
            return AccountTake.sentence(done)
        } catch {
            return "The take is kept, but not counted for \(account.name): \(error.message)"
        }
    }
}
