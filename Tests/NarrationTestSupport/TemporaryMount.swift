public import Foundation

/// A small tmpfs mounted for one test: a disk that fills, or one that cannot be written.
/// Mounting needs root (CI runs as root); tests that use it are enabled only then.
public final class TemporaryMount {
    public let folder = TemporaryFolder("narrate-mount")
    public var url: URL { folder.url }

    public init(sizeKiB: Int, readOnly: Bool = false) throws {
        try Signals.run("mount", ["-t", "tmpfs", "-o", "size=\(sizeKiB)k\(readOnly ? ",ro" : "")", "tmpfs", folder.url.path])
    }

    deinit { _ = try? Signals.run("umount", ["-l", folder.url.path]) }
}
