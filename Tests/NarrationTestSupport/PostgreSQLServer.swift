import Foundation
import Glibc

/// A real PostgreSQL server for tests (Debian's postgresql-15): `initdb` into a temporary folder
/// and `postgres` on a free loopback port and a Unix socket in that folder, as the `postgres`
/// user when the tests run as root (PostgreSQL refuses to run as root). The socket lets the
/// superuser `narrate` in without a password; TCP asks for one (`password`, SCRAM-SHA-256).
/// It can be killed and started again on the same data.
///
/// An `encrypted` server takes TCP connections only encrypted (`hostssl`; `hostnossl` is
/// rejected), with a certificate for 127.0.0.1 and localhost signed by an authority of the
/// test's own (`authority`, made by openssl), as a service's catalog on another machine would.
public final class PostgreSQLServer: @unchecked Sendable {
    public static let user = "narrate"
    public static let password = "narrate-test-catalog"

    public let folder: TemporaryFolder
    public let port: Int
    private let binaries: URL
    private var process: ChildProcess?
    private var watcher: ChildProcess?

    /// The address through the Unix socket (no password).
    public var socketAddress: String { "postgresql://\(Self.user)@/narrate?host=\(folder.file("socket").path)&port=\(port)" }
    /// The address over TCP on loopback (the password needed).
    public var tcpAddress: String { "postgresql://\(Self.user)@127.0.0.1:\(port)/narrate" }

    /// The path of the authority's certificate (PEM) an encrypted server's certificate is signed by.
    public var authority: String { folder.file("authority.crt").path }
    private let encrypted: Bool

    /// Makes a cluster with a database `narrate` and starts its server; `encrypted`, one that
    /// takes TCP connections only encrypted, its certificate made out to `names` (openssl's
    /// subjectAltName).
    public init(encrypted: Bool = false, names: String = "IP:127.0.0.1,DNS:localhost") throws {
        self.encrypted = encrypted
        guard let bin = Self.binaries() else {
            throw FixtureError("PostgreSQL's programs are not in /usr/lib/postgresql/*/bin: install postgresql (Scripts/install-packages test).")
        }
        binaries = bin
        folder = TemporaryFolder("narrate-pg")
        port = try ObjectStorageServer.freePorts(1)[0]
        try Data("\(Self.password)\n".utf8).write(to: folder.file("password"))
        try FileManager.default.createDirectory(at: folder.file("socket"), withIntermediateDirectories: true)
        if getuid() == 0 {
            guard let owner = getpwnam("postgres") else { throw FixtureError("There is no postgres user: install postgresql.") }
            for path in [folder.url.path, folder.file("socket").path, folder.file("password").path] {
                guard chown(path, owner.pointee.pw_uid, owner.pointee.pw_gid) == 0 else { throw FixtureError("chown \(path) failed") }
            }
        }
        try run("initdb", [
            "-D", folder.file("data").path, "-U", Self.user, "--pwfile", folder.file("password").path, "-E", "UTF8",
            "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync", "--no-instructions",
        ])
        if encrypted { try encrypt(names: names) }
        try start()
        try run("createdb", ["-h", folder.file("socket").path, "-p", "\(port)", "-U", Self.user, "narrate"])
    }

    /// An authority, and the server's key and certificate signed by it (for `names`, good for
    /// a day), in the data folder; `pg_hba.conf` that rejects TCP connections that are not
    /// encrypted.
    private func encrypt(names subjectAltNames: String) throws {
        let data = folder.file("data")
        let names = folder.file("names.ext")
        try Data("subjectAltName=\(subjectAltNames)\n".utf8).write(to: names)
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder.file("authority.key").path, "-out", authority,
             "-days", "1", "-subj", "/CN=narrate test authority"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", data.appendingPathComponent("server.key").path,
             "-out", folder.file("server.csr").path, "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", folder.file("server.csr").path, "-CA", authority, "-CAkey", folder.file("authority.key").path,
             "-CAcreateserial", "-out", data.appendingPathComponent("server.crt").path, "-days", "1", "-extfile", names.path],
        ]
        for step in steps {
            let child = try ChildProcess("openssl", step, environment: ProcessInfo.processInfo.environment, stdoutFile: nil, stderrFile: folder.file("openssl.err"))
            guard child.wait() == 0 else { throw FixtureError("openssl \(step[0]) failed: install openssl (Scripts/install-packages test)") }
        }
        try Data("local all all trust\nhostnossl all all all reject\nhostssl all all 127.0.0.1/32 scram-sha-256\n".utf8)
            .write(to: data.appendingPathComponent("pg_hba.conf"))
        for file in ["server.key", "server.crt", "pg_hba.conf"] {
            let path = data.appendingPathComponent(file).path
            guard chmod(path, 0o600) == 0 else { throw FixtureError("chmod \(path) failed") }
            if getuid() == 0, let owner = getpwnam("postgres") {
                guard chown(path, owner.pointee.pw_uid, owner.pointee.pw_gid) == 0 else { throw FixtureError("chown \(path) failed") }
            }
        }
    }

    /// Starts (or starts again) the server on the same data; returns once it takes connections.
    public func start() throws {
        let (program, arguments) = asPostgres(binaries.appendingPathComponent("postgres").path, [
            "-D", folder.file("data").path, "-p", "\(port)", "-k", folder.file("socket").path,
            "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=60",
        ] + (encrypted ? ["-c", "ssl=on", "-c", "ssl_cert_file=server.crt", "-c", "ssl_key_file=server.key"] : []))
        let server = try ChildProcess(program, arguments, environment: ProcessInfo.processInfo.environment, stdoutFile: nil, stderrFile: folder.file("postgres.log"))
        process = server
        // A server shared by a whole test process is never deinitialized: a watcher ends it,
        // and removes its folder, once the test process has gone.
        watcher = try ChildProcess(
            "sh", ["-c", "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; kill -TERM \(server.pid) 2>/dev/null; sleep 2; rm -rf '\(folder.url.path)'"],
            environment: ProcessInfo.processInfo.environment, stdoutFile: nil, stderrFile: URL(fileURLWithPath: "/dev/null"))
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if (try? run("pg_isready", ["-q", "-h", folder.file("socket").path, "-p", "\(port)", "-d", "postgres", "-U", Self.user])) != nil { return }
            usleep(100_000)
        }
        throw FixtureError("PostgreSQL did not start within 60 s; see \(folder.file("postgres.log").path)")
    }

    /// Ends the server at once, as a crash of its machine would: its backends first (a backend
    /// whose postmaster alone was killed may still finish the statement under way), then the
    /// postmaster.
    public func kill() {
        if let pid = process?.pid {
            for child in Self.children(of: pid) { Glibc.kill(child, SIGKILL) }
        }
        process?.signal(SIGKILL)
        _ = process?.wait()
        process = nil
    }

    /// Runs `sql` through psql on the socket, as an independent client; returns its output.
    @discardableResult
    public func psql(_ sql: String) throws -> String {
        try run("psql", ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", folder.file("socket").path, "-p", "\(port)", "-U", Self.user, "-d", "narrate", "-c", sql])
    }

    deinit {
        if let process {
            process.signal(SIGTERM)
            _ = process.wait()
        }
    }

    /// Runs one of PostgreSQL's programs to its end, as the postgres user when root.
    @discardableResult
    private func run(_ name: String, _ arguments: [String]) throws -> String {
        let output = folder.file("\(name).out")
        let (program, argv) = asPostgres(binaries.appendingPathComponent(name).path, arguments)
        let child = try ChildProcess(program, argv, environment: ProcessInfo.processInfo.environment, stdoutFile: output, stderrFile: folder.file("\(name).err"))
        let status = child.wait()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let error = (try? String(contentsOf: folder.file("\(name).err"), encoding: .utf8)) ?? ""
            throw FixtureError("\(name) exited \(status): \(error)")
        }
        return text
    }

    /// `setpriv` runs the program as postgres in the same process, so a kill reaches the server itself.
    private func asPostgres(_ program: String, _ arguments: [String]) -> (String, [String]) {
        guard getuid() == 0 else { return (program, arguments) }
        return ("setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", program] + arguments)
    }

    /// The processes whose parent is `pid` (from /proc/PID/stat's fourth field).
    private static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let child = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    private static func binaries() -> URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap(Int.init).sorted().reversed()
            .map { root.appendingPathComponent("\($0)/bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("postgres").path) }
    }
}
