/// What went wrong in a catalog engine, as a value; the engine's users render it into a
/// sentence for the volunteer or the operator (`NarrationError.catalog(_:)`).
public enum SQLEngineError: Error, Sendable, Equatable {
    /// The server or file could not be reached or opened: what was tried, and why it failed.
    case unreachable(String, reason: String)
    /// The login was refused (a wrong password, an unknown user, a database that is not there).
    case refused(String, reason: String)
    /// A statement failed: the engine's own message and the statement.
    case statement(String, message: String)
    /// A unique or foreign key constraint refused a write.
    case constraint(String, message: String)
    /// Another transaction held what this one needed for too long, or the two deadlocked;
    /// nothing of this transaction was written.
    case busy(String)
    /// A row's value was not what its reader expected.
    case unexpectedValue(column: String, found: String)
    /// The address or settings of an engine are not usable: what is wrong and the fix.
    case configuration(String)
    /// A catalog file or its journal is a symbolic link, which the engine never writes through.
    case plantedLink(String)
    /// The caller gave the transaction up (its own check failed); nothing of it was written.
    case givenUp
    /// The disk that holds the catalog is full; nothing of the transaction was written.
    case storageFull(String)

    /// A sentence naming what failed and what to do.
    public var message: String {
        switch self {
        case .unreachable(let what, let reason): "Could not reach the catalog \(what): \(reason). Check that it runs and that its address is right."
        case .refused(let what, let reason): "The catalog \(what) refused the login: \(reason). Check the user, its password file and the database name."
        case .statement(let sql, let message): "The catalog refused a statement (\(message)): \(sql.prefix(120))"
        case .constraint(let sql, let message): "The catalog refused a write that would break its rules (\(message)): \(sql.prefix(120))"
        case .busy(let what): "The catalog was busy for too long (\(what)); nothing was changed: try again."
        case .unexpectedValue(let column, let found): "The catalog's column \(column) held \(found): was the catalog written by another version of narrate?"
        case .configuration(let problem): problem
        case .plantedLink(let path): "\(path) is a symbolic link, and the catalog is never written through one: remove the link."
        case .givenUp: "The change was given up before it was written; nothing was changed."
        case .storageFull(let what): "The disk holding the catalog \(what) is full; nothing was changed. Free some space and try again."
        }
    }
}
