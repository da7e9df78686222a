import Foundation
import NarrationCore

/// Disk space set aside before a take starts, so that the take can always be committed.
///
/// When the disk fills during a recording, the catalog still needs a few pages to record the
/// take. A recorder holds this ballast file while capturing and deletes it just before the
/// commit, which then finds room. If not even the reserve can be had, recording does not start.
final class SpaceReserve: Sendable {
    static let bytes = 256 * 1024
    let url: URL

    /// Allocates the reserve in a new file; one a killed recorder left is removed first. What is
    /// at `url` and not narrate's own (a symbolic link, planted to have its target overwritten) is
    /// refused and left as it is, its target untouched.
    /// The corresponding C functions are `open` (`O_EXCL | O_NOFOLLOW`) and `posix_fallocate`.
    /// - Throws: `diskFull` when the space is not there; `foreignFile`.
    init(at url: URL) throws(NarrationError) {
        if let refusal = FileSystem.foreignFile(at: url) { throw refusal }
        FileSystem.discard(url)
        let file: OpenFile
        do throws(SystemError) {
            file = try OpenFile(url.path, .creatingNew(permissions: 0o600))
        } catch {
            throw FileSystem.foreignFile(at: url)
                ?? NarrationError(.fileSystem, "Cannot create \(url.path): \(error.reason).", subject: .file(url.path), cause: error.cause)
        }
        self.url = url  // from here on, the file is ours to remove
        do throws(SystemError) {
            try file.allocate(bytes: Self.bytes)
        } catch {
            FileSystem.discard(url)
            throw NarrationError(
                .diskFull,
                "The disk holding \(url.deletingLastPathComponent().path) is full (\(error.reason)). Free some space before recording.",
                subject: .file(url.path), cause: error.cause)
        }
    }

    /// Gives the space back.
    func release() { FileSystem.discard(url) }

    deinit { release() }
}
