import Foundation
import NarrationCore
import Testing

/// `Permissions.may` for every role × action × relation to the article, against a table
/// written out here by hand from the service's design (SERVICE.md), and every answer no for a
/// disabled account.
@Suite("Who may do what: every role, action and article")
struct PermissionsTests {
    /// The columns of each row: no particular article, then the five relations.
    static let columns: [ArticleRelation?] = [nil, .assignedToThem, .claimedByThem, .someoneElses, .open, .readyForReview]

    /// For each role and action, Y where it may and - where it may not, in `columns`' order.
    static let table: [Role: [ServiceAction: String]] = [
        .volunteer: [
            .view: "-YY-Y-", .record: "-YY---", .send: "-YY---", .claim: "----Y-", .assign: "------", .review: "------", .approve: "------",
            .manageArticles: "------", .manageAccounts: "------", .manageSettings: "------", .viewAllHours: "------",
        ],
        .proofListener: [
            .view: "-----Y", .record: "------", .send: "------", .claim: "------", .assign: "------", .review: "-----Y", .approve: "-----Y",
            .manageArticles: "------", .manageAccounts: "------", .manageSettings: "------", .viewAllHours: "------",
        ],
        .coordinator: [
            .view: "-YYYYY", .record: "-YY---", .send: "-YY---", .claim: "----Y-", .assign: "-YYYY-", .review: "------", .approve: "------",
            .manageArticles: "YYYYY-", .manageAccounts: "------", .manageSettings: "------", .viewAllHours: "Y-----",
        ],
        .admin: [
            .view: "-YYYYY", .record: "-YY---", .send: "-YY---", .claim: "----Y-", .assign: "-YYYY-", .review: "------", .approve: "------",
            .manageArticles: "YYYYY-", .manageAccounts: "Y-----", .manageSettings: "Y-----", .viewAllHours: "Y-----",
        ],
    ]

    static func account(_ role: Role, enabled: Bool = true) throws -> Account {
        Account(name: try AccountName("someone"), role: role, isEnabled: enabled, hasPassphrase: true, createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test("the table covers every role and action", arguments: Role.allCases)
    func tableIsComplete(role: Role) throws {
        let row = try #require(Self.table[role])
        #expect(Set(row.keys) == Set(ServiceAction.allCases))
        #expect(row.values.allSatisfy { $0.count == Self.columns.count })
    }

    @Test("an enabled account may exactly what the table says", arguments: Role.allCases, ServiceAction.allCases)
    func enabled(role: Role, action: ServiceAction) throws {
        let row = try #require(Self.table[role]?[action])
        let expected = row.map { $0 == "Y" }
        let answered = Self.columns.map { Permissions.may(try! Self.account(role), action, $0) }
        #expect(answered == expected, "\(role) \(action): \(Self.columns.map { $0?.rawValue ?? "none" })")
    }

    @Test("a disabled account may nothing at all, whatever its role", arguments: Role.allCases, ServiceAction.allCases)
    func disabled(role: Role, action: ServiceAction) throws {
        let account = try Self.account(role, enabled: false)
        #expect(Self.columns.allSatisfy { !Permissions.may(account, action, $0) })
    }

    @Test("roles are spelt as the command line takes them; anything else is refused with the four names")
    func roleNames() throws {
        #expect(Role.allCases.map(\.rawValue) == ["volunteer", "proof-listener", "coordinator", "admin"])
        #expect(try Role(naming: "proof-listener") == .proofListener)
        #expect(throws: NarrationError.usage("\"Admin\" is not a role: give volunteer, proof-listener, coordinator or admin.")) { try Role(naming: "Admin") }
        #expect(throws: NarrationError.usage("\"\" is not a role: give volunteer, proof-listener, coordinator or admin.")) { try Role(naming: "") }
    }
}
