import Glibc
import NarrationCore

/// A new file for a writer that owns its descriptor (WAV, FLAC, Ogg, MP3): created, never
/// replacing one and never through a symbolic link (`O_EXCL | O_NOFOLLOW`), and locked while it
/// is written. libsndfile and libFLAC are handed this descriptor rather than the path, which they
/// would open following links.
enum NewFile {
    /// The descriptor of a new file at `path`, holding an exclusive `flock` that the kernel drops
    /// when this process ends, so that a file left by a killed writer can be told from one being
    /// written (narrate's temporary files). Whatever is at `path` already, a symbolic link
    /// included, makes it fail and is left as it is (a link's target is never opened).
    /// - Throws: `diskFull`; `foreignFile` for a symbolic link at `path`; `fileSystem` naming the
    ///   path and the reason. The corresponding C functions are `open` and `flock`.
    static func create(_ path: String) throws(NarrationError) -> CInt {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            if let full = diskFullError(path: path, errno: code) { throw full }
            var found = stat()
            if code == EEXIST, lstat(path, &found) == 0, found.st_mode & S_IFMT == S_IFLNK { throw .foreignFile(path, .symbolicLink) }
            throw NarrationError(.fileSystem, "Cannot create \(path): \(String(cString: strerror(code))).")
        }
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        return descriptor
    }

    /// The descriptor of a file narrate made earlier and writes on (a take whose upload resumes),
    /// opened for reading and writing without following a symbolic link, refused unless it is a
    /// regular file with one name, and locked as `create` locks.
    /// - Throws: `foreignFile` for a link or anything planted; `fileSystem` naming the path and
    ///   the reason. The corresponding C functions are `open`, `fstat` and `flock`.
    static func openExisting(_ path: String) throws(NarrationError) -> CInt {
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP { throw .foreignFile(path, .symbolicLink) }
            throw NarrationError(.fileSystem, "Cannot open \(path): \(String(cString: strerror(code))).")
        }
        var found = stat()
        guard fstat(descriptor, &found) == 0, found.st_mode & S_IFMT == S_IFREG, found.st_nlink == 1 else {
            close(descriptor)
            throw .foreignFile(path, .notRegularFile)
        }
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        return descriptor
    }
}
