/// Who asks the desk for a change: a person signed in to the service, the server's operator at
/// the command line (alone, or acting as an account), or the service itself.
///
/// Whoever can read and write the data folder at the command line is the server's operator and
/// may what an admin may (`Permissions.may` for the admin role), as `narrate accounts` already
/// assumes; acting as an account (a volunteer's claim, say), they may exactly what that account
/// may. The audit log names the Unix user either way.
public struct ServiceActor: Sendable, Equatable {
    /// The account whose permissions apply and who counts as the article's volunteer; nil for
    /// the operator alone and for the service.
    public let account: Account?
    /// Who the audit log says made the change.
    public let auditName: String
    /// Whether permissions are not asked: the service's own timed changes (expiry).
    let isService: Bool

    /// A person signed in with `account`.
    public static func account(_ account: Account) -> ServiceActor {
        ServiceActor(account: account, auditName: account.name.rawValue, isService: false)
    }

    /// The operator at the command line, the Unix user `user`: an admin's permissions.
    public static func commandLine(user: String) -> ServiceActor {
        ServiceActor(account: nil, auditName: AuditEntry.commandLineActor(user: user), isService: false)
    }

    /// The operator at the command line acting as `account`: that account's permissions.
    public static func commandLine(user: String, as account: Account) -> ServiceActor {
        ServiceActor(account: account, auditName: "\(AuditEntry.commandLineActor(user: user)) as \(account.name)", isService: false)
    }

    /// The service itself, for changes the clock makes (an article expiring).
    public static let service = ServiceActor(account: nil, auditName: "the service", isService: true)

    /// Whether the actor may do `action` to an article that stands to them as `relation`.
    public func may(_ action: ServiceAction, _ relation: ArticleRelation?) -> Bool {
        if isService { return true }
        return Permissions.may(account ?? Self.operatorAccount, action, relation)
    }

    /// The actor as a refusal names them: "The account ann (volunteer)", "The server's operator (an admin)".
    public var named: String {
        guard let account else { return isService ? "The service" : "The server's operator (an admin)" }
        return "The account \(account.name) (\(account.role)\(account.isEnabled ? "" : ", disabled"))"
    }

    /// The operator's permissions: an admin's. `Permissions.may` reads only the role and whether
    /// the account is enabled; the name is never an assignee's, since the relation is computed
    /// from `account`, which is nil for the operator.
    private static let operatorAccount = Account(
        name: try! AccountName("operator"), role: .admin, isEnabled: true, hasPassphrase: false, createdAt: .distantPast)
}
