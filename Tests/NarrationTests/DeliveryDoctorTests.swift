import Foundation
@testable import Narration
import NarrationCore
import Synchronization
import Testing

/// `narrate doctor`'s test object on object storage, against a stand-in whose every step can
/// fail: each failure said, the worst status kept, and a test object that may be left named.
@Suite("narrate doctor's object storage check")
struct DeliveryDoctorTests {
    /// A store that answers each step as told and records the steps asked of it.
    final class Store: DoctorObjectStore {
        let writeError: NarrationError?
        let readBack: Data?
        let removeError: NarrationError?
        let steps = Mutex<[String]>([])

        init(writeError: NarrationError? = nil, readBack: Data? = DeliveryCheck.testBody, removeError: NarrationError? = nil) {
            self.writeError = writeError
            self.readBack = readBack
            self.removeError = removeError
        }

        func writeTestObject(key: String, body: Data) async throws(NarrationError) {
            steps.withLock { $0.append("write") }
            if let writeError { throw writeError }
        }

        func readTestObject(key: String) async throws(NarrationError) -> Data? {
            steps.withLock { $0.append("read") }
            return readBack
        }

        func removeTestObject(key: String) async throws(NarrationError) {
            steps.withLock { $0.append("remove") }
            if let removeError { throw removeError }
        }
    }

    static let key = "narrations/.narrate-doctor-abcdefghijkl"
    static let label = "archive (s3://radio/narrations)"
    static let timedOut = NarrationError(
        .storageUnavailable, "The storage at http://127.0.0.1:9 did not answer in 1 s while uploading; it may be overloaded or stuck.")
    static let denied = NarrationError(.storageRefused, "The storage at http://127.0.0.1:9 refused deleting (403 AccessDenied).")

    static func check(_ store: Store) async throws -> DoctorFinding {
        let storage = try S3Destination(url: "s3://radio/narrations", endpoint: "http://127.0.0.1:9", pathStyle: true)
        return await DeliveryCheck.objectStorage(store, key: key, storage: storage, label: label)
    }

    @Test("other bytes read back and the removal refused: still a problem, with both said and the key to remove")
    func otherBytesAndNoRemoval() async throws {
        let store = Store(readBack: Data("garbled".utf8), removeError: Self.denied)
        let finding = try await Self.check(store)
        #expect(finding.status == .problem)
        #expect(finding.found == "\(Self.label) gave back other bytes than were written to the test object \(Self.key); \(Self.label) took a test object, but it could not be removed: \(Self.denied.message)")
        #expect(finding.advice?.hasPrefix("Ask the storage's administrator to look at it. Remove \(Self.key) from the bucket radio by hand") == true, "\(finding)")
        #expect(store.steps.withLock { $0 } == ["write", "read", "remove"])
    }

    @Test("an upload that timed out may have been stored: the removal is tried, and when it works the timeout alone is said")
    func timedOutThenRemoved() async throws {
        let store = Store(writeError: Self.timedOut)
        let finding = try await Self.check(store)
        #expect(finding == DoctorFinding(.destination, .problem, "\(Self.label): \(Self.timedOut.message)"))
        #expect(store.steps.withLock { $0 } == ["write", "remove"])
    }

    @Test("an upload that timed out and a removal that failed: the key is named for the administrator")
    func timedOutNotRemoved() async throws {
        let store = Store(writeError: Self.timedOut, removeError: Self.denied)
        let finding = try await Self.check(store)
        #expect(finding.status == .problem)
        #expect(finding.found == "\(Self.label): \(Self.timedOut.message); the test object \(Self.key) in the bucket radio may have been stored, and removing it failed: \(Self.denied.message)")
        #expect(finding.advice == "Ask the storage's administrator to remove \(Self.key) from the bucket radio if it is there.")
    }

    @Test("an upload refused stored nothing: no removal is tried")
    func refusedUpload() async throws {
        let store = Store(writeError: NarrationError(.storageRefused, "The storage at http://127.0.0.1:9 refused uploading (403 AccessDenied)."))
        let finding = try await Self.check(store)
        #expect(finding.status == .problem)
        #expect(store.steps.withLock { $0 } == ["write"])
    }

    @Test("written and read back, but not removed: a warning; every step working: ok")
    func removalAlone() async throws {
        let warning = try await Self.check(Store(removeError: Self.denied))
        #expect(warning.status == .warning && warning.found == "\(Self.label) took a test object, but it could not be removed: \(Self.denied.message)")
        let ok = try await Self.check(Store())
        #expect(ok == DoctorFinding(.destination, .ok, "\(Self.label): wrote a test object at http://127.0.0.1:9, read it back and removed it"))
    }
}
