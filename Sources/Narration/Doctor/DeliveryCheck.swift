import Foundation
import NarrationCore
import ObjectStorage

/// The checkup's settings and delivery: config.toml, the credentials files object storage
/// destinations use, and each destination written to and cleaned up after.
enum DeliveryCheck {
    /// config.toml read as every command reads it.
    /// - Returns: the finding, and the settings (the defaults when there is no file); nil when
    ///   the file cannot be read, so that what depends on it is not checked.
    static func config(environment: [String: String]) -> (DoctorFinding, Settings?) {
        let url = Settings.fileURL(environment)
        let text: String?
        do {
            text = try Settings.configText(at: url)
        } catch {
            return (DoctorFinding(.config, .problem, error), nil)
        }
        guard let text else {
            return (DoctorFinding(.config, .ok, "none at \(url.path); narrate uses its defaults"), Settings())
        }
        let settings: Settings
        do {
            settings = try Settings(parsing: text, file: url.path)
        } catch {
            return (
                DoctorFinding(.config, .problem, error, advice: "Until it is mended every narrate command stops with this sentence; the destinations were not checked."),
                nil)
        }
        func counted(_ count: Int, _ noun: String) -> String { "\(count == 0 ? "no" : String(count)) \(noun)\(count == 1 ? "" : "s")" }
        let found = "\(url.path) reads well: \(counted(settings.destinations.count, "destination")), "
            + "\(counted(settings.profiles.count, "profile")) of its own, device \"\(settings.device)\""
        return (DoctorFinding(.config, .ok, found), settings)
    }

    /// A destination the settings name, and what to call it in a sentence.
    struct Target: Sendable {
        /// "archive (s3://radio/narrations)", or the address alone for one not named.
        let label: String
        let destination: Destination
    }

    /// Every destination the settings name: each `[destinations.NAME]`, and `destination` when
    /// it is a folder or an address of its own; one that cannot be understood is a finding.
    static func targets(_ settings: Settings) -> ([Target], [DoctorFinding]) {
        var targets = settings.destinations.sorted { $0.key < $1.key }.map { Target(label: "\($0.key) (\($0.value))", destination: $0.value) }
        var findings: [DoctorFinding] = []
        if let name = settings.destination, settings.destinations[name] == nil {
            do {
                let destination = try settings.destination(named: name)
                if !targets.contains(where: { $0.destination == destination }) { targets.append(Target(label: "\(destination)", destination: destination)) }
            } catch {
                findings.append(DoctorFinding(.destination, .problem, error))
            }
        }
        return (targets, findings)
    }

    /// The safety of the credentials each object storage destination uses: the key pair from the
    /// environment, or a credentials file only its owner can read (`CredentialSource`).
    static func credentials(_ targets: [Target], environment: [String: String]) -> [DoctorFinding] {
        let storages = targets.compactMap { target -> (String, S3Destination)? in
            if case .s3(let storage) = target.destination { return (target.label, storage) }
            return nil
        }
        guard !storages.isEmpty else {
            return [DoctorFinding(.credentials, .ok, "none needed: no destination is object storage")]
        }
        let keysFromEnvironment = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"].allSatisfy { !(environment[$0] ?? "").isEmpty }
        var findings: [DoctorFinding] = []
        var seen: Set<String> = []
        for (label, storage) in storages {
            let (path, profile) = CredentialSource.file(for: storage, environment: environment)
            if keysFromEnvironment {
                // The file is not used, but secrets others can read are still worth a word.
                if FileSystem.exists(URL(fileURLWithPath: path)), seen.insert(path).inserted {
                    do {
                        _ = try CredentialSource.readPrivateFile(path, for: storage)
                    } catch {
                        findings.append(DoctorFinding(
                            .credentials, .warning, "\(error.message) (not used now: the key pair comes from the environment)"))
                    }
                }
                if seen.insert("environment").inserted {
                    findings.append(DoctorFinding(.credentials, .ok, "the key pair comes from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"))
                }
                continue
            }
            guard seen.insert("\(path)\n\(profile)").inserted else { continue }
            do {
                _ = try CredentialSource.credentials(for: storage, environment: environment)
                findings.append(DoctorFinding(.credentials, .ok, "\(path) is yours alone and holds the key pair of [\(profile)] (for \(label))"))
            } catch {
                findings.append(DoctorFinding(.credentials, .problem, error))
            }
        }
        return findings
    }

    /// The name of a test object or file: hidden, and never one narrate delivers.
    static func testName() -> String { ".narrate-doctor-\(Identifier.random(length: 12))" }

    /// What a test object holds.
    static let testBody = Data("narrate doctor checks that this destination can be written; this file is removed at once.\n".utf8)

    /// Writes a small test file or object to the destination, reads it back and removes it.
    static func destination(_ target: Target, environment: [String: String]) async -> DoctorFinding {
        switch target.destination {
        case .folder(let path):
            return await BlockingWork.run(named: "narrate-doctor-folder") { folder(path, label: target.label) }
        case .s3(let storage):
            let credentials: S3Credentials
            do {
                credentials = try CredentialSource.credentials(for: storage, environment: environment)
            } catch {
                return DoctorFinding(.destination, .problem, "\(target.label) was not tried: its credentials cannot be used")
            }
            // Each request waits for an answer as long as deliveries do (NARRATE_STORAGE_ANSWER_TIMEOUT),
            // and tries to connect no longer than that: a storage that cannot be reached is
            // said as soon as one that does not answer.
            let answerWait = S3Client.answerWait(environment: environment)
            let connection = StorageConnection(destination: storage, credentials: credentials, connectWait: min(10, answerWait))
            let finding = await objectStorage(connection, key: storage.key(for: testName()), storage: storage, label: target.label)
            await connection.shutdown()
            return finding
        }
    }

    private static func folder(_ path: String, label: String) -> DoctorFinding {
        let folder = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
        do throws(SystemError) {
            guard try FileSystem.status(of: folder.path).kind == .folder else {
                return DoctorFinding(.destination, .problem, "\(label) is a file, not a folder", advice: "Point the destination at a folder.")
            }
        } catch {
            return error.isMissing
                ? DoctorFinding(
                    .destination, .problem, "\(label) does not exist", advice: "Mount the share it is on (or make the folder), or correct the destination.")
                : DoctorFinding(.destination, .problem, "\(label) cannot be examined (\(error.reason.lowercased()))")
        }
        let file = folder.appendingPathComponent(testName())
        do throws(NarrationError) {
            try FileSystem.writeAtomically(testBody, to: file)
            let back = try FileSystem.contents(of: file)
            try FileSystem.remove(file)
            guard Data(back) == testBody else {
                return DoctorFinding(
                    .destination, .problem, "\(label) gave back other bytes than were written to a test file",
                    advice: "Check the share: its disk or its connection may be failing.")
            }
        } catch {
            FileSystem.discard(file)
            return DoctorFinding(.destination, .problem, "\(label): \(error.message)", advice: "Make the folder writable for you, or choose another.")
        }
        return DoctorFinding(.destination, .ok, "\(label): wrote a test file, read it back and removed it")
    }

    /// Writes, reads back and removes a test object through `store`; each step's failure is said,
    /// and the worst of them sets the finding's status.
    ///
    /// A write refused or never sent stored nothing. One that timed out or whose connection broke
    /// (`storageUnavailable`) may have been stored all the same: the removal is tried anyway, and
    /// when it fails too the finding names the object, for the storage's administrator to remove.
    static func objectStorage(_ store: some DoctorObjectStore, key: String, storage: S3Destination, label: String) async -> DoctorFinding {
        var finding: DoctorFinding?
        var written = true
        do throws(NarrationError) {
            try await store.writeTestObject(key: key, body: testBody)
        } catch {
            guard error.kind == .storageUnavailable else { return DoctorFinding(.destination, .problem, "\(label): \(error.message)") }
            finding = DoctorFinding(.destination, .problem, "\(label): \(error.message)")
            written = false
        }
        if written {
            do throws(NarrationError) {
                if try await store.readTestObject(key: key) != testBody {
                    finding = DoctorFinding(
                        .destination, .problem, "\(label) gave back other bytes than were written to the test object \(key)",
                        advice: "Ask the storage's administrator to look at it.")
                }
            } catch {
                finding = DoctorFinding(.destination, .problem, "\(label) took a test object but reading it back failed: \(error.message)")
            }
        }
        do throws(NarrationError) {
            try await store.removeTestObject(key: key)
        } catch {
            let removal = written
                ? DoctorFinding(
                    .destination, .warning, "\(label) took a test object, but it could not be removed: \(error.message)",
                    advice: "Remove \(key) from the bucket \(storage.bucket) by hand, and ask for permission to delete there (narrate replaces a delivery's earlier files).")
                : DoctorFinding(
                    .destination, .warning, "the test object \(key) in the bucket \(storage.bucket) may have been stored, and removing it failed: \(error.message)",
                    advice: "Ask the storage's administrator to remove \(key) from the bucket \(storage.bucket) if it is there.")
            guard let finding else { return removal }
            return DoctorFinding(
                .destination, max(finding.status, removal.status), "\(finding.found); \(removal.found)",
                advice: [finding.advice, removal.advice].compactMap { $0 }.joined(separator: " "))
        }
        return finding ?? DoctorFinding(.destination, .ok, "\(label): wrote a test object at \(storage.endpoint), read it back and removed it")
    }
}

/// What the destination check asks of object storage: write, read back and remove one small
/// object. `StorageConnection` in use, a stand-in in tests.
protocol DoctorObjectStore: Sendable {
    func writeTestObject(key: String, body: Data) async throws(NarrationError)
    /// The object's bytes; nil when there is no such object.
    func readTestObject(key: String) async throws(NarrationError) -> Data?
    func removeTestObject(key: String) async throws(NarrationError)
}

extension StorageConnection: DoctorObjectStore {
    func writeTestObject(key: String, body: Data) async throws(NarrationError) {
        _ = try await putObject(key: key, body: body, contentType: "text/plain; charset=utf-8")
    }

    func readTestObject(key: String) async throws(NarrationError) -> Data? { try await getObject(key: key)?.body }

    func removeTestObject(key: String) async throws(NarrationError) { try await deleteObject(key: key) }
}
