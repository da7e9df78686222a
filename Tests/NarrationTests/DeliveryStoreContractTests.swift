import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import ObjectStorage
import Synchronization
import Testing

/// The one contract every `DeliveryStore` keeps, checked against all three: memory, a real folder
/// in a temporary folder, and a real S3 server (SeaweedFS on loopback, read back with boto3).
@Suite("Delivery stores: one contract for memory, folder and S3")
struct DeliveryStoreContractTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case memory, folder, objectStorage
        var testDescription: String { rawValue }
    }

    /// A store of `kind`, with what keeps it alive (the folder, the server) and a way to read
    /// what it holds without it.
    final class Subject: @unchecked Sendable {
        let store: any DeliveryStore
        let folder: TemporaryFolder?
        let server: ObjectStorageServer?

        init(_ kind: Kind) throws {
            switch kind {
            case .memory:
                store = MemoryDeliveryStore()
                folder = nil
                server = nil
            case .folder:
                let folder = TemporaryFolder("narrate-store")
                store = FolderDeliveryStore(root: folder.url)
                self.folder = folder
                server = nil
            case .objectStorage:
                let server = try ObjectStorageServer(buckets: ["radio"])
                let storage = try S3Destination(url: "s3://radio/narrations", endpoint: server.endpoint, pathStyle: true)
                let credentials = S3Credentials(accessKeyID: ObjectStorageServer.accessKeyID, secretAccessKey: ObjectStorageServer.secretAccessKey)
                store = ObjectStorageDeliveryStore(StorageConnection(destination: storage, credentials: credentials))
                folder = nil
                self.server = server
            }
        }

        /// A subject whose store has taken a first object. A fresh SeaweedFS may answer the first
        /// uploads with 500 InternalError while it grows a volume, longer on a loaded machine
        /// than the server fixture's own probe waited: a write that may pass is tried again, as
        /// a delivery's retry schedule would, until one lands (at most 30 tries a second apart),
        /// and removed. The contract is then checked on a store that is up.
        static func ready(_ kind: Kind) async throws -> Subject {
            let subject = try Subject(kind)
            guard kind == .objectStorage else { return subject }
            let probe = Data(repeating: 0x42, count: 70_000)
            var attempt = 0
            while true {
                attempt += 1
                let failure: NarrationError
                do {
                    _ = try await subject.store.write(probe, to: "narrate-warm-up/probe.bin", contentType: "application/octet-stream")
                    try await subject.store.delete("narrate-warm-up/probe.bin")
                    return subject
                } catch {
                    failure = error
                }
                guard failure.mayPass, attempt < 30 else { throw failure }
                try await Task.sleep(for: .seconds(1))
            }
        }

        /// The bytes at `key` as someone else reads them: the file itself, or the object through boto3.
        func outsideRead(_ key: String) throws -> Data? {
            if let folder { return try? Data(contentsOf: folder.file(key)) }
            if let server { return try? server.contents(of: "narrations/" + key, in: "radio") }
            return nil
        }
    }

    static let feedKey = "Daily Post/feed.xml"

    @Test("write, read, head, list and delete; a write is read back whole; a key reaching outside is refused", arguments: Kind.allCases)
    func objects(_ kind: Kind) async throws {
        let subject = try await Subject.ready(kind)
        let store = subject.store
        let audio = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let written = try await store.write(audio, to: "Daily Post/2026-11-24/Budget-a1.mp3", contentType: "audio/mpeg")
        #expect(written.bytes == 70_000 && written.sha256 == Digest.sha256Hex(audio))
        try await store.write(Data("{}".utf8), to: "Daily Post/2026-11-24/Budget-a1.json", contentType: "application/json")
        try await store.write(Data("other".utf8), to: "Weekly/2026-11-20/Other-b2.mp3", contentType: "audio/mpeg")

        #expect(try await store.read("Daily Post/2026-11-24/Budget-a1.mp3") == audio)
        #expect(try await store.read("Daily Post/2026-11-24/Missing.mp3") == nil)
        if kind != .memory { #expect(try subject.outsideRead("Daily Post/2026-11-24/Budget-a1.mp3") == audio) }
        let head = try #require(try await store.head("Daily Post/2026-11-24/Budget-a1.mp3"))
        #expect(head.bytes == 70_000 && head.sha256 == Digest.sha256Hex(audio))
        #expect(head.etag == (kind == .objectStorage ? Digest.hex(Digest.md5(audio)) : nil))
        #expect(try await store.head("Daily Post/nothing") == nil)

        #expect(try await store.list(prefix: "") == [
            "Daily Post/2026-11-24/Budget-a1.json", "Daily Post/2026-11-24/Budget-a1.mp3", "Weekly/2026-11-20/Other-b2.mp3",
        ])
        #expect(try await store.list(prefix: "Daily Post/") == ["Daily Post/2026-11-24/Budget-a1.json", "Daily Post/2026-11-24/Budget-a1.mp3"])
        #expect(try await store.list(prefix: "Week") == ["Weekly/2026-11-20/Other-b2.mp3"])

        // Written again with other bytes: replaced whole.
        try await store.write(Data("second".utf8), to: "Daily Post/2026-11-24/Budget-a1.mp3", contentType: "audio/mpeg")
        #expect(try await store.read("Daily Post/2026-11-24/Budget-a1.mp3") == Data("second".utf8))

        try await store.delete("Daily Post/2026-11-24/Budget-a1.mp3")
        try await store.delete("Daily Post/2026-11-24/Budget-a1.mp3")  // nothing there: quietly
        #expect(try await store.head("Daily Post/2026-11-24/Budget-a1.mp3") == nil)
        #expect(try await store.list(prefix: "Daily") == ["Daily Post/2026-11-24/Budget-a1.json"])

        for key in ["../escape.mp3", "/etc/passwd", "Daily Post/../../escape", "", "a//b"] {
            let error = await #expect(throws: NarrationError.self) { try await store.write(Data("x".utf8), to: key, contentType: "text/plain") }
            #expect(error?.message.hasSuffix("it must be a relative path without \"..\"; nothing was touched.") == true, "\(key)")
        }
        if let folder = subject.folder {
            #expect(!FileManager.default.fileExists(atPath: folder.url.deletingLastPathComponent().appendingPathComponent("escape.mp3").path))
        }
        // The store's name and places, as the catalog records them and sentences name them.
        let key = "Daily Post/2026-11-24/Budget-a1.json"
        #expect(store.key(ofRecorded: store.recordedLocation(of: key)) == key)
        #expect(store.key(ofRecorded: "/elsewhere/Budget-a1.json") == nil)
        switch kind {
        case .memory: #expect(store.location(of: key) == "memory://store/\(key)")
        case .folder: #expect(store.location(of: key) == subject.folder?.file(key).path && store.verification == "SHA-256 checked")
        case .objectStorage:
            #expect(store.location(of: key) == "s3://radio/narrations/\(key)" && store.recordedLocation(of: key) == "narrations/\(key)")
            #expect(store.verification == "size, ETag and SHA-256 checked")
        }
        await store.close()
    }

    /// Adds a line to the object at `feedKey` by a read-change-write. - Returns: its attempts.
    static func append(_ line: String, in store: any DeliveryStore) async -> Result<Int, NarrationError> {
        do throws(NarrationError) {
            return .success(try await store.change(feedKey, contentType: "text/plain") { data in
                Data(((data.map { String(decoding: $0, as: UTF8.self) } ?? "") + line + "\n").utf8)
            }.attempts)
        } catch {
            return .failure(error)
        }
    }

    @Test("16 read-change-writes racing on one object lose none; a change that writes nothing makes nothing", arguments: Kind.allCases)
    func concurrentChanges(_ kind: Kind) async throws {
        let subject = try await Subject.ready(kind)
        let store = subject.store
        let writers = 16
        let attempts = try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<writers {
                group.addTask {
                    // A failure that may pass (a starved request in a busy suite) is tried again, as a delivery would.
                    var outcome = await Self.append("line \(number)", in: store)
                    for _ in 0..<2 {
                        guard case .failure(let error) = outcome, error.mayPass else { break }
                        outcome = await Self.append("line \(number)", in: store)
                    }
                    return try outcome.get()
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(attempts.count == writers)
        print("figure: \(writers) racing changes to one \(kind.rawValue) object took \(attempts.reduce(0, +)) read-change-writes")
        let text = String(decoding: try #require(try await store.read(Self.feedKey)), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == writers && Set(lines) == Set((0..<writers).map { "line \($0)" }), "\(text)")
        if kind != .memory { #expect(try subject.outsideRead(Self.feedKey) == Data(text.utf8)) }
        // Only the object itself is listed: no lock or temporary file.
        #expect(try await store.list(prefix: "") == [Self.feedKey])

        // A change that returns nil writes nothing, and where nothing was there makes nothing.
        let nothing = try await store.change("Weekly/feed.xml", contentType: "text/plain") { _ in nil }
        #expect(nothing == StoredChange(attempts: 1, written: false))
        #expect(try await store.list(prefix: "") == [Self.feedKey])
        if let folder = subject.folder { #expect(!FileManager.default.fileExists(atPath: folder.file("Weekly").path)) }
        let unchanged = try await store.change(Self.feedKey, contentType: "text/plain") { _ in nil }
        #expect(unchanged.written == false)
        #expect(try await store.read(Self.feedKey) == Data(text.utf8))

        // What the change throws is said, and the object is left as it was.
        let refusal = NarrationError(.feedUnreadable, "not a feed")
        await #expect(throws: refusal) { try await store.change(Self.feedKey, contentType: "text/plain") { (_) throws(NarrationError) in throw refusal } }
        #expect(try await store.read(Self.feedKey) == Data(text.utf8))
        await store.close()
    }
    @Test("stage writes each file verified, commit puts them in place together; what is there is kept when allowed; a source that is not what it should be is refused; staged files dropped leave nothing", arguments: Kind.allCases)
    func stagingAndCommit(_ kind: Kind) async throws {
        let subject = try await Subject.ready(kind)
        do {
            try await Self.stageAndCommit(in: subject.store, subject, kind)
        } catch {
            await subject.store.close()
            throw error
        }
        await subject.store.close()
    }

    static func stageAndCommit<Store: DeliveryStore>(in store: Store, _ subject: Subject, _ kind: Kind) async throws {
        let outbox = TemporaryFolder("narrate-stage-source")
        // Above two 8 MiB parts: object storage sends it as a multipart upload.
        var audio = Data(repeating: 0x5A, count: 2 * UploadPlan.minimumPartSize + 1_000)
        for index in stride(from: 0, to: audio.count, by: 4_093) { audio[index] = UInt8(truncatingIfNeeded: index) }
        let sidecar = Data(#"{"title":"Budget"}"#.utf8)
        let (audioFile, sidecarFile) = (outbox.file("Budget-a1.wav"), outbox.file("Budget-a1.json"))
        try audio.write(to: audioFile)
        try sidecar.write(to: sidecarFile)
        let (audioKey, sidecarKey) = ("Daily Post/2026-11-24/Budget-a1.wav", "Daily Post/2026-11-24/Budget-a1.json")
        func file(_ source: URL, _ data: Data, at key: String, sha256: String? = nil, reusing: Bool = false) -> DeliveryFile {
            let sha256 = sha256 ?? Digest.sha256Hex(data)
            return DeliveryFile(
                source: source, key: key, sha256: sha256, bytes: data.count, contentType: "audio/wav", metadata: ["sha256": sha256],
                reusesStoredCopy: reusing)
        }
        let saved = Mutex<[String?]>([])
        let transfer = DeliveryTransfer(total: audio.count + sidecar.count, save: { upload in saved.withLock { $0.append(upload?.id) } })
        let staged = [
            try await store.stage(file(audioFile, audio, at: audioKey), transfer: transfer),
            try await store.stage(file(sidecarFile, sidecar, at: sidecarKey), transfer: transfer),
        ].compactMap { $0 }
        #expect(staged.count == 2)
        // Object storage has no rename: its objects are stored whole at once; elsewhere nothing is in place yet.
        #expect(try await store.list(prefix: "") == (kind == .objectStorage ? [sidecarKey, audioKey] : []))
        try await store.commit(staged)
        #expect(try await store.list(prefix: "") == [sidecarKey, audioKey])
        // (Object storage's store reads what narrate reads back, feeds and sidecars, up to 8 MiB: the audio is read through boto3.)
        if kind == .objectStorage { #expect(try subject.outsideRead(audioKey) == audio) } else { #expect(try await store.read(audioKey) == audio) }
        if let folder = subject.folder { #expect(try Data(contentsOf: folder.file(audioKey)) == audio) }
        #expect(try await store.read(sidecarKey) == sidecar)
        #expect(try await store.head(audioKey)?.sha256 == Digest.sha256Hex(audio))
        // Only object storage sends in parts, saving the upload's id before the first part; only it counts bytes.
        #expect(saved.withLock { $0.count } == (kind == .objectStorage ? 1 : 0))
        #expect(transfer.bytesSent == (kind == .objectStorage ? audio.count + sidecar.count : 0))
        if kind == .objectStorage { #expect(transfer.upload?.key == "narrations/" + audioKey) }

        // The same bytes there already are kept when the file allows it, and written again when not.
        #expect(try await store.stage(file(audioFile, audio, at: audioKey, reusing: true), transfer: DeliveryTransfer(total: 0)) == nil)
        #expect(try await store.stage(file(sidecarFile, sidecar, at: sidecarKey), transfer: DeliveryTransfer(total: 0)) != nil)

        // A source that is not the file it should be is refused, and nothing is at its place.
        await #expect { try await store.stage(file(sidecarFile, sidecar, at: "Weekly/x.json", sha256: Digest.sha256Hex(audio)), transfer: transfer) }
            throws: { ($0 as? NarrationError)?.kind == .fileCorrupt }
        #expect(try await store.head("Weekly/x.json") == nil)

        // Staged and dropped without a commit: nothing in its place, no temporary file left (object storage has it stored).
        _ = try await store.stage(file(sidecarFile, sidecar, at: "Weekly/y.json"), transfer: transfer)
        #expect(try await store.head("Weekly/y.json") == nil || kind == .objectStorage)
        if let folder = subject.folder {
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("Weekly").path) == [])
        }
    }
}
