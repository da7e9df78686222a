public import Foundation

/// A small tmpfs mounted for one test: a disk that fills, or one that cannot be written.
/// Mounting needs root (CI runs as root); tests that use it are enabled only then.
public final class TemporaryMount {
    public let folder = TemporaryFolder("narrate-mount")
    public var url: URL { folder.url }

    /// - Parameter inodes: the most files and folders the disk holds (tmpfs `nr_inodes`), for a
    ///   disk that runs out of them before it runs out of space.
    public init(sizeKiB: Int, readOnly: Bool = false, inodes: Int? = nil) throws {
        let options = "size=\(sizeKiB)k" + (readOnly ? ",ro" : "") + (inodes.map { ",nr_inodes=\($0)" } ?? "")
        try Signals.run("mount", ["-t", "tmpfs", "-o", options, "tmpfs", folder.url.path])
    }

    /// Remounts the disk read-only or writable, keeping what it holds, as the kernel does with a
    /// disk that shows errors. The kernel refuses while a process has a file on it open for
    /// writing (`record`'s after-take process measuring the last take, for one): tried again for
    /// up to 10 s.
    public func remount(readOnly: Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                try Signals.run("mount", ["-o", "remount,\(readOnly ? "ro" : "rw")", folder.url.path])
                return
            } catch where Date() < deadline {
                usleep(100_000)
            }
        }
    }

    deinit { _ = try? Signals.run("umount", ["-l", folder.url.path]) }
}
