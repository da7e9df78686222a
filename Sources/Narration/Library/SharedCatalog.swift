public import Foundation
public import NarrationCore
import SQLEngines

/// The catalog of a reading service whose hosts share one PostgreSQL server (config.toml's
/// `[service] catalog`), opened with its password from `NARRATE_CATALOG_PASSWORD`, else from
/// `[service] catalog_password_file` (read only if just its owner can read it, as the object
/// storage's credentials are), else none: a server reached through its Unix socket may trust the
/// system user.
public enum SharedCatalog {
    /// The catalog at `address`, its tables made or brought up to date.
    /// - Throws: `catalogCorrupt` for an address that is not a PostgreSQL one; `credentials` for a
    ///   password file anyone else could read; `dataRootNotWritable` when no server answers there
    ///   or it refuses the login.
    public static func open(
        address text: String, passwordFile: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NarrationError) -> Catalog {
        let address: PostgreSQLAddress
        do {
            address = try PostgreSQLAddress(parsing: text)
        } catch {
            throw NarrationError(.usage, "In config.toml's [service] catalog: \(error.message)")
        }
        let password = try password(passwordFile, environment: environment)
        let engine: PostgreSQLEngine
        do {
            engine = try PostgreSQLEngine(address: address, password: password)
        } catch {
            throw Catalog.translate(error, path: address.description, dialect: .postgreSQL)
        }
        return try Catalog(engine: engine, name: address.description)
    }

    /// The password: the environment's, else the file's first line, else none.
    static func password(_ file: String?, environment: [String: String]) throws(NarrationError) -> String? {
        if let password = environment["NARRATE_CATALOG_PASSWORD"], !password.isEmpty { return password }
        guard let file else { return nil }
        let home = environment["HOME"] ?? NSHomeDirectory()
        let path = file.hasPrefix("~/") ? home + file.dropFirst() : file
        let text = try CredentialSource.readPrivateFile(
            path, named: "catalog password file", holding: "the password", setting: "catalog_password_file",
            missing: "The catalog password file \(path) that config.toml names does not exist: write the password to it (readable by you only: chmod 600), or set NARRATE_CATALOG_PASSWORD.")
        let password = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !password.isEmpty else {
            throw NarrationError(.credentials, "The catalog password file \(path) is empty: write the password on its first line.", subject: .file(path))
        }
        return password
    }
}
