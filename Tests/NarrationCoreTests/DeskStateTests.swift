import Foundation
import NarrationCore
import Testing

/// The article's life on the desk as one pure function: every state × event against a table
/// written out here by hand from the service's design, the refusals' sentences, how an article
/// stands to each account, and the deadlines and priorities the desk takes.
@Suite("The desk: states, events and relations")
struct DeskStateTests {
    /// Each state's row: the state each event leads to ("-" refused), events in `DeskEvent.allCases`'
    /// order: assign, leave-open, claim, first-take, send, send-back, pickups-done, approve,
    /// publish, expire, withdraw. Sending is shown with review on; `reviewOff` gives its other answer.
    static let table: [DeskState: [String]] = [
        .open: ["assigned", "-", "assigned", "-", "-", "-", "-", "-", "-", "expired", "withdrawn"],
        .assigned: ["assigned", "open", "-", "recording", "-", "-", "-", "-", "-", "expired", "withdrawn"],
        .recording: ["recording", "-", "-", "-", "ready-for-review", "-", "-", "-", "-", "expired", "withdrawn"],
        .readyForReview: ["-", "-", "-", "-", "-", "pickups-requested", "-", "approved", "-", "expired", "withdrawn"],
        .pickupsRequested: ["pickups-requested", "-", "-", "-", "-", "-", "ready-for-review", "-", "-", "expired", "withdrawn"],
        .approved: ["-", "-", "-", "-", "-", "-", "-", "-", "published", "expired", "withdrawn"],
        .published: ["-", "-", "-", "-", "-", "-", "-", "-", "-", "expired", "withdrawn"],
        .expired: ["-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"],
        .withdrawn: ["-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"],
    ]

    static func answer(_ state: DeskState, _ event: DeskEvent, reviewIsOn: Bool) -> String {
        (try? state.after(event, reviewIsOn: reviewIsOn).rawValue) ?? "-"
    }

    @Test("every state × event leads where the table says, with review on", arguments: DeskState.allCases)
    func reviewOn(state: DeskState) throws {
        let row = try #require(Self.table[state])
        #expect(row.count == DeskEvent.allCases.count)
        #expect(DeskEvent.allCases.map { Self.answer(state, $0, reviewIsOn: true) } == row, "\(state)")
    }

    @Test("with review off, sending publishes and nothing else differs", arguments: DeskState.allCases)
    func reviewOff(state: DeskState) throws {
        var row = try #require(Self.table[state])
        if state == .recording { row[DeskEvent.allCases.firstIndex(of: .send)!] = "published" }
        #expect(DeskEvent.allCases.map { Self.answer(state, $0, reviewIsOn: false) } == row, "\(state)")
    }

    @Test("a refused event names the state, the event and what the state allows")
    func refusals() {
        #expect(throws: NarrationError(.deskRefused, "The article k3f9x2ab is Ready for review, so it cannot be assigned: it can now be sent back, approved, expired or withdrawn.")) {
            try DeskState.readyForReview.after(.assign, reviewIsOn: true, naming: "The article k3f9x2ab")
        }
        #expect(throws: NarrationError(.deskRefused, "The article is Open, so it cannot be sent: it can now be assigned, claimed, expired or withdrawn.")) {
            try DeskState.open.after(.send, reviewIsOn: true)
        }
        #expect(throws: NarrationError(.deskRefused, "The article is Withdrawn, so it cannot be claimed: nothing more can happen to it.")) {
            try DeskState.withdrawn.after(.claim, reviewIsOn: true)
        }
    }

    @Test("states and priorities are spelt as the command line takes them; anything else is refused with the names")
    func names() throws {
        #expect(DeskState.allCases.map(\.rawValue) == [
            "open", "assigned", "recording", "ready-for-review", "pickups-requested", "approved", "published", "expired", "withdrawn",
        ])
        #expect(try DeskState(naming: "ready-for-review") == .readyForReview)
        #expect(throws: NarrationError.usage(
            "\"Open\" is not an article's state: give open, assigned, recording, ready-for-review, pickups-requested, approved, published, expired or withdrawn.")) {
            try DeskState(naming: "Open")
        }
        #expect(try DeskPriority(naming: "urgent") == .urgent)
        #expect(throws: NarrationError.usage("\"5\" is not a priority: give low, normal, high or urgent.")) { try DeskPriority(naming: "5") }
    }

    // MARK: Relations

    static let ann = try! AccountName("ann")
    static let bob = try! AccountName("bob")

    static func entry(_ state: DeskState, taking: DeskTaking? = .assigned) -> DeskEntry {
        DeskEntry(
            article: ArticleID("k3f9x2ab"), title: "Budget", publication: "Daily Post", state: state, assignee: state == .open ? nil : ann,
            taking: state == .open ? nil : taking, addedAt: Date(timeIntervalSince1970: 0))
    }

    @Test("how an article stands to its volunteer, to another account and to the operator, in each state", arguments: DeskState.allCases)
    func relations(state: DeskState) {
        let expected: (ArticleRelation, ArticleRelation) = switch state {
        case .open: (.open, .open)
        case .assigned, .recording, .pickupsRequested: (.assignedToThem, .someoneElses)
        case .readyForReview: (.readyForReview, .readyForReview)
        case .approved, .published, .expired, .withdrawn: (.someoneElses, .someoneElses)
        }
        let entry = Self.entry(state)
        #expect(entry.relation(to: Self.ann) == expected.0)
        #expect(entry.relation(to: Self.bob) == expected.1)
        #expect(entry.relation(to: nil) == expected.1)
    }

    @Test("a claimed article is claimed by them, to its volunteer alone")
    func claimed() {
        let entry = Self.entry(.recording, taking: .claimed)
        #expect(entry.relation(to: Self.ann) == .claimedByThem)
        #expect(entry.relation(to: Self.bob) == .someoneElses)
    }

    @Test("the operator may what an admin may, never as the article's volunteer; a person exactly what Permissions says")
    func actors() throws {
        let volunteer = Account(name: Self.ann, role: .volunteer, createdAt: Date(timeIntervalSince1970: 0))
        let operatorActor = ServiceActor.commandLine(user: "root")
        #expect(operatorActor.auditName == "command line (user root)")
        #expect(operatorActor.may(.assign, .someoneElses) && operatorActor.may(.manageArticles, nil) && !operatorActor.may(.record, .someoneElses))
        #expect(!operatorActor.may(.approve, .readyForReview))
        #expect(NarrationError.notPermitted(operatorActor, .assign, article: ArticleID("k3f9x2ab")).message
            == "The server's operator (an admin) may not assign or leave open the article k3f9x2ab.")
        let asAnn = ServiceActor.commandLine(user: "root", as: volunteer)
        #expect(asAnn.auditName == "command line (user root) as ann")
        #expect(asAnn.may(.claim, .open) && !asAnn.may(.assign, .open))
        #expect(NarrationError.notPermitted(.account(volunteer), .assign, article: ArticleID("k3f9x2ab")).message
            == "The account ann (volunteer) may not assign or leave open the article k3f9x2ab.")
    }

    // MARK: Deadlines

    @Test("a day is due at its end, a time at that minute, both in UTC; both spellings come back as given")
    func deskTimes() throws {
        let day = try DeskTime("2026-12-03")
        #expect(day.instant == Date(timeIntervalSince1970: 1_796_342_400))  // 2026-12-04T00:00Z
        #expect(!day.hasTime && day.description == "2026-12-03")
        let minute = try DeskTime("2026-12-03T17:30")
        #expect(minute.instant == Date(timeIntervalSince1970: 1_796_342_400 - 6 * 3600 - 30 * 60))
        #expect(minute.hasTime && minute.description == "2026-12-03T17:30")
        #expect(DeskTime(instant: minute.instant, hasTime: true) == minute)
        #expect(!day.hasPassed(at: day.instant.addingTimeInterval(-1)) && day.hasPassed(at: day.instant))
    }

    @Test("what is not a day or a time is refused with both spellings", arguments: [
        "", "2026-13-01", "2026-02-30", "26-12-03", "2026-12-03T24:00", "2026-12-03T9:30", "2026-12-03T09:60", "2026-12-03T09:30:00",
        "20026-12-03", "1999-12-31", "2026-12-03 09:30", "２０２６-12-03", "2026-12-03T",
    ])
    func badTimes(text: String) {
        #expect(throws: NarrationError.usage(
            "\"\(text)\" is not a day or a time: give YYYY-MM-DD (the whole day) or YYYY-MM-DDTHH:MM (UTC), e.g. 2026-12-03 or 2026-12-03T17:30.")) {
            try DeskTime(text)
        }
    }

    @Test("late: the deadline passed and the article not yet approved or published, nor gone", arguments: DeskState.allCases)
    func late(state: DeskState) throws {
        var entry = Self.entry(state)
        entry.deadline = try DeskTime("2026-12-03")
        let after = try DeskTime("2026-12-04T00:00").instant
        #expect(entry.isLate(at: after) == [.open, .assigned, .recording, .readyForReview, .pickupsRequested].contains(state))
        #expect(!entry.isLate(at: after.addingTimeInterval(-1)))
    }
}
