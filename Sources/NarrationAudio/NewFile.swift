import Glibc
import NarrationCore

/// A new file for a writer that owns its descriptor (FLAC, Ogg Opus): created, never replacing
/// one (`O_EXCL`), and locked while it is written.
enum NewFile {
    /// The descriptor of a new file at `path`, holding an exclusive `flock` that the kernel drops
    /// when this process ends, so that a file left by a killed writer can be told from one being
    /// written (narrate's temporary files).
    /// - Throws: `diskFull`, or `fileSystem` naming the path and the reason. The corresponding C
    ///   functions are `open` and `flock`.
    static func create(_ path: String) throws(NarrationError) -> CInt {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw diskFullError(path: path, errno: code) ?? NarrationError(.fileSystem, "Cannot create \(path): \(String(cString: strerror(code))).")
        }
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        return descriptor
    }
}
