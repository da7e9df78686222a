import Foundation
import Glibc
import NarrationCore

/// Disk space set aside before a take starts, so that the take can always be committed.
///
/// When the disk fills during a recording, the catalog still needs a few pages to record the
/// take. A recorder holds this ballast file while capturing and deletes it just before the
/// commit, which then finds room. If not even the reserve can be had, recording does not start.
final class SpaceReserve: Sendable {
    static let bytes = 256 * 1024
    let url: URL

    /// Allocates the reserve. The corresponding C function is `posix_fallocate`.
    /// - Throws: `diskFull` when the space is not there.
    init(at url: URL) throws(NarrationError) {
        self.url = url
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw NarrationError(.fileSystem, "Cannot create \(url.path): \(String(cString: strerror(errno))).")
        }
        let result = posix_fallocate(descriptor, 0, off_t(Self.bytes))
        close(descriptor)
        guard result == 0 else {
            unlink(url.path)
            throw NarrationError(
                .diskFull,
                "The disk holding \(url.deletingLastPathComponent().path) is full (\(String(cString: strerror(result)))). Free some space before recording.")
        }
    }

    /// Gives the space back.
    func release() { unlink(url.path) }

    deinit { release() }
}
