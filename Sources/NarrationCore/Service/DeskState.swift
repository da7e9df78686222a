/// Where an article stands in a reading service, from the day it is put on the desk to the day
/// it leaves the feeds.
///
/// ```
/// Open → Assigned → Recording → Ready for review → Approved → Published → Expired
///                                   ↑        ↓
///                               Pickups requested          (Withdrawn from any but the last two)
/// ```
/// Claiming is not a state of its own: an article claimed is Assigned to whoever claimed it, and
/// the service record keeps how it was taken (`DeskTaking`), since every rule that follows is
/// the same for both. With review off, sending goes straight to Published through delivery.
/// The raw values are how the catalog, the command line and JSON spell the states.
public enum DeskState: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// On the desk for anyone who narrates to claim.
    case open
    /// Given to a volunteer, or claimed by one; nothing recorded yet.
    case assigned
    /// Its first take is recorded.
    case recording
    /// Sent; the proof-listeners' until they approve it or send it back.
    case readyForReview = "ready-for-review"
    /// Sent back with notes: the volunteer's again, to record the pickups.
    case pickupsRequested = "pickups-requested"
    /// Approved by a proof-listener; delivery is under way.
    case approved
    /// Delivered: listeners can hear it.
    case published
    /// Its "listen until" has passed: it is to leave the feeds (or never reach them).
    case expired
    /// Taken off the desk by a coordinator: nobody records, reviews or claims it any more.
    case withdrawn

    public var description: String { rawValue }

    /// The state as a sentence or a listing names it: "Ready for review".
    public var title: String {
        switch self {
        case .open: "Open"
        case .assigned: "Assigned"
        case .recording: "Recording"
        case .readyForReview: "Ready for review"
        case .pickupsRequested: "Pickups requested"
        case .approved: "Approved"
        case .published: "Published"
        case .expired: "Expired"
        case .withdrawn: "Withdrawn"
        }
    }

    /// Whether the article's work is over: approved or later, expired or withdrawn.
    public var isFinished: Bool { [.approved, .published, .expired, .withdrawn].contains(self) }

    /// The states as a sentence lists them, spelt as the command line takes them.
    public static var spelledOut: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The state called `text` exactly as the command line spells it.
    /// - Throws: `usage` naming the text and every state.
    public init(naming text: String) throws(NarrationError) {
        guard let state = DeskState(rawValue: text) else {
            throw .usage("\"\(Role.quoted(text))\" is not an article's state: give \(Self.spelledOut).")
        }
        self = state
    }

    /// The state `event` leads to from this one: the article's life as one pure function.
    ///
    /// | from | events allowed (→ to) |
    /// |---|---|
    /// | Open | assign, claim (→ Assigned); expire; withdraw |
    /// | Assigned | assign (another volunteer); leave open (→ Open); first take (→ Recording); expire; withdraw |
    /// | Recording | assign (another volunteer, who carries on); send (→ Ready for review, or Published with review off); expire; withdraw |
    /// | Ready for review | send back (→ Pickups requested); approve (→ Approved); expire; withdraw |
    /// | Pickups requested | assign (another volunteer); pickups done (→ Ready for review); expire; withdraw |
    /// | Approved | publish (→ Published); expire; withdraw |
    /// | Published | expire; withdraw |
    /// | Expired, Withdrawn | nothing |
    ///
    /// - Parameters:
    ///   - reviewIsOn: the service's setting: on, sending leads to Ready for review; off, to Published.
    ///   - naming: how the refusal names the article ("The article k3f9x2ab").
    /// - Throws: `deskRefused` naming the state, the event refused and the events it allows.
    public func after(_ event: DeskEvent, reviewIsOn: Bool, naming article: String = "The article") throws(NarrationError) -> DeskState {
        if let next = next(after: event, reviewIsOn: reviewIsOn) { return next }
        let allowed = DeskEvent.allCases.filter { next(after: $0, reviewIsOn: reviewIsOn) != nil }
        let possible = allowed.isEmpty
            ? "nothing more can happen to it"
            : "it can now be " + Self.list(allowed.map(\.pastParticiple))
        throw NarrationError(.deskRefused, "\(article) is \(title), so it cannot be \(event.pastParticiple): \(possible).")
    }

    /// The state after `event`, or nil when this state does not allow it.
    func next(after event: DeskEvent, reviewIsOn: Bool) -> DeskState? {
        switch (self, event) {
        case (.expired, _), (.withdrawn, _): nil
        case (_, .expire): .expired
        case (_, .withdraw): .withdrawn
        case (.open, .assign), (.open, .claim): .assigned
        case (.assigned, .assign): .assigned
        case (.recording, .assign): .recording
        case (.pickupsRequested, .assign): .pickupsRequested
        case (.assigned, .leaveOpen): .open
        case (.assigned, .firstTake): .recording
        case (.recording, .send): reviewIsOn ? .readyForReview : .published
        case (.readyForReview, .sendBack): .pickupsRequested
        case (.readyForReview, .approve): .approved
        case (.pickupsRequested, .pickupsDone): .readyForReview
        case (.approved, .publish): .published
        default: nil
        }
    }

    /// "a, b or c".
    static func list(_ words: [String]) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}

/// What happens to an article on the desk: what moves it from one `DeskState` to the next.
public enum DeskEvent: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A coordinator gives it to a volunteer (or to another one).
    case assign
    /// A coordinator takes it back and leaves it for anyone to claim.
    case leaveOpen = "leave-open"
    /// A volunteer takes an open article as their own.
    case claim
    /// The first take is recorded.
    case firstTake = "first-take"
    /// The volunteer sends it: to review, or with review off straight to delivery.
    case send
    /// A proof-listener sends it back with notes for pickups.
    case sendBack = "send-back"
    /// The volunteer has recorded every pickup: it goes back to review.
    case pickupsDone = "pickups-done"
    /// A proof-listener approves it; delivery begins.
    case approve
    /// Delivery finished: listeners can hear it.
    case publish
    /// Its "listen until" passed.
    case expire
    /// A coordinator takes it off the desk.
    case withdraw

    public var description: String { rawValue }

    /// The event as "it cannot be …" says it.
    public var pastParticiple: String {
        switch self {
        case .assign: "assigned"
        case .leaveOpen: "left open"
        case .claim: "claimed"
        case .firstTake: "recorded"
        case .send: "sent"
        case .sendBack: "sent back"
        case .pickupsDone: "returned with its pickups done"
        case .approve: "approved"
        case .publish: "published"
        case .expire: "expired"
        case .withdraw: "withdrawn"
        }
    }

    /// What a person must be allowed (`Permissions.may`) to cause the event.
    public var action: ServiceAction {
        switch self {
        case .assign, .leaveOpen: .assign
        case .claim: .claim
        case .firstTake: .record
        case .send, .pickupsDone: .send
        case .sendBack, .approve: .approve
        case .publish, .expire, .withdraw: .manageArticles
        }
    }
}
