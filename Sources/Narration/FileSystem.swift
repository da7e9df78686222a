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

    /// The bytes of a file.
    /// - Throws: `chunkFileMissing` when there is none, `fileSystem` when it cannot be read.
    static func contents(of url: URL) throws(NarrationError) -> [UInt8] {
        guard exists(url) else { throw NarrationError(.chunkFileMissing, "\(url.path) is missing.") }
        do {
            return [UInt8](try Data(contentsOf: url))
        } catch {
            throw NarrationError(.fileSystem, "Cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    /// A hidden, unique file beside `url` in the same folder, for writing and then renaming into place.
    static func temporaryURL(beside url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(Identifier.random()).partial")
    }

    /// Writes `data` to `url` atomically: a temporary file in the same folder, fsync, rename.
    static func writeAtomically(_ data: Data, to url: URL) throws(NarrationError) {
        let temporary = temporaryURL(beside: url)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw NarrationError(.fileSystem, "Cannot create \(temporary.path): \(String(cString: strerror(errno))).")
        }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let failure: CInt? = written == data.count ? (fsync(descriptor) == 0 ? nil : errno) : (written < 0 ? errno : ENOSPC)
        close(descriptor)
        guard failure == nil, rename(temporary.path, url.path) == 0 else {
            let code = failure ?? errno
            unlink(temporary.path)
            if code == ENOSPC || code == EDQUOT {
                throw NarrationError(.diskFull, "The disk holding \(url.deletingLastPathComponent().path) is full; \(url.lastPathComponent) was not written.")
            }
            throw NarrationError(.fileSystem, "Cannot write \(url.path): \(String(cString: strerror(code))).")
        }
        syncDirectory(url.deletingLastPathComponent())
    }

    /// Copies a file atomically (temporary file beside the target, fsync, rename), block by block.
    static func copyAtomically(_ source: URL, to target: URL) throws(NarrationError) {
        let temporary = temporaryURL(beside: target)
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw NarrationError(.fileSystem, "Cannot read \(source.path): \(String(cString: strerror(errno))).") }
        defer { close(input) }
        let output = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw NarrationError(.fileSystem, "Cannot write to \(target.deletingLastPathComponent().path): \(String(cString: strerror(errno))).") }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var failure: CInt?
        while failure == nil {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { break }
            guard count > 0 else { failure = errno; break }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { write(output, $0.baseAddress! + offset, count - offset) }
                guard written > 0 else { failure = errno; break }
                offset += written
            }
        }
        if failure == nil, fsync(output) != 0 { failure = errno }
        close(output)
        if failure == nil, rename(temporary.path, target.path) != 0 { failure = errno }
        if let failure {
            unlink(temporary.path)
            if failure == ENOSPC || failure == EDQUOT {
                throw NarrationError(.diskFull, "The disk holding \(target.deletingLastPathComponent().path) is full; nothing was delivered there.")
            }
            throw NarrationError(.fileSystem, "Cannot copy to \(target.path): \(String(cString: strerror(failure))).")
        }
        syncDirectory(target.deletingLastPathComponent())
    }
}
