import Foundation
import Glibc
import Narration
import NarrationCore
import NarrationTestSupport
import Synchronization
import ObjectStorage
import Testing

/// A credentials file swapped while narrate checks it: every check is made on the one descriptor
/// the keys are then read from, so a group-readable file's keys can never get through.
@Suite("Credentials under a swapping symbolic link")
struct CredentialRaceTests {
    @Test("a link swapped as fast as possible between a private file and a group-readable one never yields the readable file's keys")
    func swappedLink() throws {
        let folder = TemporaryFolder("narrate-credential-race")
        chmod(folder.url.path, 0o700)
        let private_ = folder.file("private")
        let readable = folder.file("readable")
        try "[default]\naws_access_key_id = KEYA\naws_secret_access_key = secreta\n".write(to: private_, atomically: false, encoding: .utf8)
        try "[default]\naws_access_key_id = KEYB\naws_secret_access_key = secretb\n".write(to: readable, atomically: false, encoding: .utf8)
        chmod(private_.path, 0o600)
        chmod(readable.path, 0o640)
        let link = folder.file("credentials")
        #expect(symlink(private_.path, link.path) == 0)
        let storage = try S3Destination(url: "s3://radio", credentialsFile: link.path)
        let refusal = "The credentials file \(link.path) can be read by others (mode 640); narrate uses it only when just you can: chmod 600 \(link.path)"

        let stop = Atomic<Bool>(false)
        let swaps = Atomic<Int>(0)
        let swapper = Thread {
            // rename(2) replaces the link atomically: the path always names one of the two files.
            let staged = folder.file("staged").path
            var toReadable = true
            while !stop.load(ordering: .relaxed) {
                unlink(staged)
                _ = symlink(toReadable ? readable.path : private_.path, staged)
                _ = rename(staged, link.path)
                toReadable.toggle()
                swaps.add(1, ordering: .relaxed)
            }
        }
        swapper.start()
        defer { stop.store(true, ordering: .relaxed) }

        var gotA = 0
        var refused = 0
        var other: [String] = []
        let calls = 4_000
        for _ in 0..<calls {
            do {
                let keys = try CredentialSource.credentials(for: storage, environment: [:])
                if keys == S3Credentials(accessKeyID: "KEYA", secretAccessKey: "secreta") { gotA += 1 } else { other.append(keys.accessKeyID) }
            } catch where error.message == refusal {
                refused += 1
            } catch {
                other.append(error.message)
            }
        }
        stop.store(true, ordering: .relaxed)
        #expect(other.isEmpty, "calls that neither gave keys A nor refused the readable file: \(other.prefix(5))")
        #expect(gotA + refused == calls)
        #expect(gotA > 0 && refused > 0, "the swap must have been seen both ways (A \(gotA), refused \(refused))")
        print("figure: credentials read \(calls) times while a link swapped \(swaps.load(ordering: .relaxed)) times: \(gotA) gave the private file's keys, \(refused) refused the group-readable file, \(other.count) leaked its keys or failed otherwise")
    }
}
