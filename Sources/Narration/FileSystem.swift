import Foundation
import Glibc
import NarrationCore

/// The few file operations the engine needs, each turning a failure into a sentence.
enum FileSystem {
    static func createDirectory(_ url: URL) throws(NarrationError) {
        if let failure = makeDirectories(url) {
            throw NarrationError(.fileSystem, "Cannot create the folder \(url.path): \(String(cString: strerror(failure))).")
        }
    }

    /// `mkdir -p`: creates a folder and its missing parents.
    /// - Returns: nil on success, else the `errno` of the step that failed.
    static func makeDirectories(_ url: URL) -> CInt? {
        var path = ""
        for component in url.standardizedFileURL.path.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0 && errno != EEXIST { return errno }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return errno }
        return (info.st_mode & S_IFMT) == S_IFDIR ? nil : ENOTDIR
    }

    /// Renames atomically within one file system (`rename(2)`), replacing nothing: fails if `to` exists.
    static func move(_ from: URL, to: URL) throws(NarrationError) {
        guard access(to.path, F_OK) != 0 else {
            throw NarrationError(.fileSystem, "Cannot move \(from.path) to \(to.path): the destination already exists.")
        }
        guard rename(from.path, to.path) == 0 else {
            throw NarrationError(.fileSystem, "Cannot move \(from.path) to \(to.path): \(String(cString: strerror(errno))).")
        }
    }

    /// Forces a folder's entries (renames, new files) to disk.
    static func syncDirectory(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    static func exists(_ url: URL) -> Bool { access(url.path, F_OK) == 0 }

    /// A file's size in bytes; 0 if it cannot be read.
    static func size(_ url: URL) -> Int {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int(info.st_size) : 0
    }
}
