import Foundation

/// Where a PostgreSQL catalog is: `postgresql://USER@HOST:PORT/DATABASE`, or through the server's
/// Unix socket, `postgresql://USER@/DATABASE?host=/run/postgresql` (libpq's spelling: `host` is
/// the socket's folder). The password is never in the address, but given apart, so that the
/// address can be shown and logged.
///
/// Over TCP the connection is encrypted as libpq's `sslmode` says (`?sslmode=verify-full`, and
/// `&sslrootcert=FILE` for an authority of the service's own); a socket never leaves the machine
/// and is not encrypted.
public struct PostgreSQLAddress: Sendable, Equatable, CustomStringConvertible {
    public enum Place: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The socket file itself: the folder's `.s.PGSQL.PORT`.
        case socket(path: String)
    }

    /// How a TCP connection is encrypted: libpq's `sslmode`, whose meanings it keeps.
    public enum Encryption: String, Sendable, Equatable, CaseIterable {
        /// Never.
        case disable
        /// When the server offers it, its certificate not checked; else not (libpq's default).
        case prefer
        /// Always, its certificate not checked: safe from listeners, not from a server in the way.
        case require
        /// Always, with a certificate signed by a trusted authority, for any name.
        case verifyCA = "verify-ca"
        /// Always, with a certificate signed by a trusted authority for the server's name.
        case verifyFull = "verify-full"
    }

    public var place: Place
    public var user: String
    public var database: String
    /// How a TCP connection is encrypted.
    public var encryption: Encryption
    /// The authorities' certificates (PEM) that `verify-ca` and `verify-full` trust; nil: the
    /// system's (`/etc/ssl/certs`).
    public var rootCertificates: String?

    public init(place: Place, user: String, database: String, encryption: Encryption = .prefer, rootCertificates: String? = nil) {
        self.place = place
        self.user = user
        self.database = database
        self.encryption = encryption
        self.rootCertificates = rootCertificates
    }

    /// Reads an address.
    /// - Throws: `configuration` naming what is wrong with it and how it is written.
    public init(parsing text: String) throws(SQLEngineError) {
        let form = "write it as postgresql://USER@HOST:PORT/DATABASE, or postgresql://USER@/DATABASE?host=SOCKET-FOLDER"
        guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://"), let url = URLComponents(string: text) else {
            throw .configuration("The catalog address \(text) is not a PostgreSQL address: \(form).")
        }
        guard url.password == nil else {
            throw .configuration("The catalog address has a password in it: give the password apart from the address, and \(form).")
        }
        guard let user = url.user, !user.isEmpty else { throw .configuration("The catalog address \(text) names no user: \(form).") }
        let database = String(url.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw .configuration("The catalog address \(text) names no database: \(form).") }
        let portItem = url.queryItems?.first { $0.name == "port" }?.value
        guard portItem.map({ Int($0) != nil }) ?? true else { throw .configuration("The catalog address \(text) has port \(portItem ?? ""): a port is 1 to 65535.") }
        let port = url.port ?? portItem.flatMap { Int($0) } ?? 5432
        guard (1...65_535).contains(port) else { throw .configuration("The catalog address \(text) has port \(port): a port is 1 to 65535.") }
        let socketFolder = url.queryItems?.first { $0.name == "host" }?.value
        if let socketFolder, socketFolder.hasPrefix("/") {
            place = .socket(path: socketFolder + "/.s.PGSQL.\(port)")
        } else if let host = url.host, !host.isEmpty {
            place = .tcp(host: host, port: port)
        } else {
            throw .configuration("The catalog address \(text) names no server: \(form).")
        }
        self.user = user
        self.database = database
        let mode = url.queryItems?.first { $0.name == "sslmode" }?.value
        guard let encryption = Encryption(rawValue: mode ?? Encryption.prefer.rawValue) else {
            let modes = Encryption.allCases.map(\.rawValue).joined(separator: ", ")
            throw .configuration("The catalog address \(text) has sslmode=\(mode ?? ""): give one of \(modes).")
        }
        self.encryption = encryption
        rootCertificates = url.queryItems?.first { $0.name == "sslrootcert" }?.value
        if let rootCertificates, rootCertificates.isEmpty || ![.verifyCA, .verifyFull].contains(encryption) {
            throw .configuration(
                "The catalog address \(text) gives sslrootcert=\(rootCertificates), which only sslmode=verify-ca or verify-full reads: add one, or drop sslrootcert.")
        }
    }

    /// `?a&b` of `items`, or nothing when there are none.
    private static func query(_ items: [String]) -> String {
        items.isEmpty ? "" : "?" + items.joined(separator: "&")
    }

    public var description: String {
        switch place {
        case .tcp(let host, let port):
            "postgresql://\(user)@\(host):\(port)/\(database)" + Self.query(
                (encryption == .prefer ? [] : ["sslmode=\(encryption.rawValue)"]) + (rootCertificates.map { ["sslrootcert=\($0)"] } ?? []))
        case .socket(let path):
            "postgresql://\(user)@/\(database)?host=\((path as NSString).deletingLastPathComponent)&port=\((path as NSString).pathExtension)"
        }
    }
}
