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

    /// Allocates the reserve. The corresponding C function is `posix_fallocate`.
    /// - Throws: `diskFull` when the space is not there.
    init(at url: URL) throws(NarrationError) {
        self.url = url
        let file: OpenFile
        do throws(SystemError) {
            file = try OpenFile(url.path, .writeTruncating(permissions: 0o600))
        } catch {
            throw NarrationError(.fileSystem, "Cannot create \(url.path): \(error.reason).", subject: .file(url.path), cause: error.cause)
        }
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
