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
        let storages = targets.compactMap { target in target.destination.objectStorage.map { (target.label, $0) } }
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

    /// Writes a small test file or object to the destination, reads it back and removes it,
    /// through the destination's store (the same round trip for every store, `roundTrip`).
    static func destination(_ target: Target, environment: [String: String]) async -> DoctorFinding {
        // Each request waits for an answer as long as deliveries do (NARRATE_STORAGE_ANSWER_TIMEOUT),
        // and tries to connect no longer than that: a storage that cannot be reached is
        // said as soon as one that does not answer.
        let answerWait = S3Client.answerWait(environment: environment)
        let store: any DeliveryStore
        do throws(NarrationError) {
            store = try NarrationLibrary.store(for: target.destination, environment: environment, checkingFolder: false, connectWait: min(10, answerWait))
        } catch {
            return DoctorFinding(.destination, .problem, "\(target.label) was not tried: its credentials cannot be used")
        }
        // Where a folder and a bucket differ: a folder is examined first, and the words.
        let words: TestObjectWords
        switch target.destination {
        case .folder(let path):
            if let problem = await BlockingWork.run(named: "narrate-doctor-folder", { examine(path, label: target.label) }) { return problem }
            words = .folder
        case .s3(let storage):
            words = .objectStorage(storage)
        }
        let key = testName()
        let finding = await roundTrip(
            DoctorTestObjects(store: store), key: key, label: target.label, words: words, shownAs: store.recordedLocation(of: key))
        await store.close()
        return finding
    }

    /// A problem with the destination folder itself (missing, a file), or nil when it is a folder.
    private static func examine(_ path: String, label: String) -> DoctorFinding? {
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
        return nil
    }

    /// Writes, reads back and removes a test object in object storage through `store` (see `roundTrip`).
    static func objectStorage(_ store: some DoctorObjectStore, key: String, storage: S3Destination, label: String) async -> DoctorFinding {
        await roundTrip(store, key: key, label: label, words: .objectStorage(storage))
    }

    /// How the check speaks of its test object where a folder and object storage differ.
    struct TestObjectWords: Sendable {
        /// The test object, as the finding names it when it reads back other bytes.
        let named: @Sendable (String) -> String
        /// What to do when other bytes came back.
        let otherBytesAdvice: String
        /// What to do when it cannot be written; nil: the error says enough.
        let writeAdvice: String?
        /// The finding when every step worked.
        let done: String
        /// What to do when it was written but not removed, for `key`.
        let leftAdvice: @Sendable (String) -> String
        /// The finding and advice when a write that may have been stored could not be removed.
        let mayBeLeft: @Sendable (String) -> (found: String, advice: String)

        static let folder = TestObjectWords(
            named: { _ in "a test file" }, otherBytesAdvice: "Check the share: its disk or its connection may be failing.",
            writeAdvice: "Make the folder writable for you, or choose another.", done: "wrote a test file, read it back and removed it",
            leftAdvice: { "Remove \($0) by hand." }, mayBeLeft: { ("the test file \($0) may have been written", "Remove \($0) if it is there.") })

        static func objectStorage(_ storage: S3Destination) -> TestObjectWords {
            TestObjectWords(
                named: { "the test object \($0)" }, otherBytesAdvice: "Ask the storage's administrator to look at it.", writeAdvice: nil,
                done: "wrote a test object at \(storage.endpoint), read it back and removed it",
                leftAdvice: { "Remove \($0) from the bucket \(storage.bucket) by hand, and ask for permission to delete there (narrate replaces a delivery's earlier files)." },
                mayBeLeft: {
                    ("the test object \($0) in the bucket \(storage.bucket) may have been stored",
                     "Ask the storage's administrator to remove \($0) from the bucket \(storage.bucket) if it is there.")
                })
        }
    }

    /// Writes, reads back and removes a test object through `store`; each step's failure is said,
    /// and the worst of them sets the finding's status.
    ///
    /// A write refused or never sent stored nothing. One that timed out or whose connection broke
    /// (`storageUnavailable`) may have been stored all the same: the removal is tried anyway, and
    /// when it fails too the finding names the object, for the storage's administrator to remove.
    /// - Parameter shownAs: how the findings name the test object (the full key in the bucket); nil: `key`.
    static func roundTrip(
        _ store: some DoctorObjectStore, key: String, label: String, words: TestObjectWords, shownAs: String? = nil
    ) async -> DoctorFinding {
        let shown = shownAs ?? key
        var finding: DoctorFinding?
        var written = true
        do throws(NarrationError) {
            try await store.writeTestObject(key: key, body: testBody)
        } catch {
            guard error.kind == .storageUnavailable else {
                return DoctorFinding(.destination, .problem, "\(label): \(error.message)", advice: words.writeAdvice)
            }
            finding = DoctorFinding(.destination, .problem, "\(label): \(error.message)")
            written = false
        }
        if written {
            do throws(NarrationError) {
                if try await store.readTestObject(key: key) != testBody {
                    finding = DoctorFinding(
                        .destination, .problem, "\(label) gave back other bytes than were written to \(words.named(shown))",
                        advice: words.otherBytesAdvice)
                }
            } catch {
                finding = DoctorFinding(.destination, .problem, "\(label) took a test object but reading it back failed: \(error.message)")
            }
        }
        do throws(NarrationError) {
            try await store.removeTestObject(key: key)
        } catch {
            let mayBeLeft = words.mayBeLeft(shown)
            let removal = written
                ? DoctorFinding(
                    .destination, .warning, "\(label) took a test object, but it could not be removed: \(error.message)",
                    advice: words.leftAdvice(shown))
                : DoctorFinding(.destination, .warning, "\(mayBeLeft.found), and removing it failed: \(error.message)", advice: mayBeLeft.advice)
            guard let finding else { return removal }
            return DoctorFinding(
                .destination, max(finding.status, removal.status), "\(finding.found); \(removal.found)",
                advice: [finding.advice, removal.advice].compactMap { $0 }.joined(separator: " "))
        }
        return finding ?? DoctorFinding(.destination, .ok, "\(label): \(words.done)")
    }
}

/// What the destination check asks of a store: write, read back and remove one small object.
/// `DoctorTestObjects` over the destination's `DeliveryStore` in use, a stand-in in tests.
protocol DoctorObjectStore: Sendable {
    func writeTestObject(key: String, body: Data) async throws(NarrationError)
    /// The object's bytes; nil when there is no such object.
    func readTestObject(key: String) async throws(NarrationError) -> Data?
    func removeTestObject(key: String) async throws(NarrationError)
}

/// The destination check's test object in any `DeliveryStore`.
struct DoctorTestObjects: DoctorObjectStore {
    let store: any DeliveryStore

    func writeTestObject(key: String, body: Data) async throws(NarrationError) {
        try await store.write(body, to: key, contentType: "text/plain; charset=utf-8")
    }

    func readTestObject(key: String) async throws(NarrationError) -> Data? { try await store.read(key) }

    func removeTestObject(key: String) async throws(NarrationError) { try await store.delete(key) }
}
