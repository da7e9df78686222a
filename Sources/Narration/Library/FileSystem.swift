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

    /// The suffix of every temporary file narrate writes beside a file it is making.
    static let partialSuffix = ".narrate-partial"

    /// The hidden temporary file beside `url` in the same folder, for writing and then renaming
    /// into place: `.<name>.narrate-partial`. The name is predictable, so that whoever finds one
    /// that nobody writes any more (its writer was killed) can tell it is ours and remove it.
    /// Its writer holds an exclusive `flock` on it while it writes (see `lockPartial`).
    static func temporaryURL(beside url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent)\(partialSuffix)")
    }

    /// Takes the writer's lock on a temporary file just created by its owner.
    /// - Returns: false when another process holds it (a concurrent writer of the same file).
    static func lockPartial(_ descriptor: CInt) -> Bool {
        flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }

    /// Removes the temporary file meant for `url` if a killed writer left it.
    /// - Throws: `fileSystem` when a live process is writing it.
    static func clearTemporary(beside url: URL) throws(NarrationError) {
        let temporary = temporaryURL(beside: url)
        guard exists(temporary) else { return }
        guard removeIfAbandoned(temporary) else {
            throw NarrationError(
                .fileSystem, "Another narrate command is writing \(url.path) right now; wait for it to finish, then try again.")
        }
    }

    /// Removes every temporary file of ours in `folder` whose writer is gone (nobody holds its
    /// lock); leaves those being written. - Returns: how many were removed.
    @discardableResult
    static func removeAbandonedPartials(in folder: URL) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        return names.filter { $0.hasPrefix(".") && $0.hasSuffix(partialSuffix) }
            .filter { removeIfAbandoned(folder.appendingPathComponent($0)) }.count
    }

    /// Unlinks `url` while holding its lock, if nobody else holds it. - Returns: whether it is gone.
    private static func removeIfAbandoned(_ url: URL) -> Bool {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return errno == ENOENT }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        return unlink(url.path) == 0 || errno == ENOENT
    }

    /// Removes a folder and everything in it; a folder already gone is fine.
    static func removeTree(_ url: URL) throws(NarrationError) {
        guard exists(url) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw NarrationError(.fileSystem, "Cannot remove \(url.path): \(error.localizedDescription)")
        }
    }

    /// Removes a file; one already gone is fine.
    static func remove(_ url: URL) throws(NarrationError) {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw NarrationError(.fileSystem, "Cannot remove \(url.path): \(String(cString: strerror(errno))).")
        }
    }

    /// Writes `data` to `url` atomically: a temporary file in the same folder, fsync, rename.
    static func writeAtomically(_ data: Data, to url: URL) throws(NarrationError) {
        try clearTemporary(beside: url)
        let temporary = temporaryURL(beside: url)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw NarrationError(.fileSystem, "Cannot create \(temporary.path): \(String(cString: strerror(errno))).")
        }
        _ = lockPartial(descriptor)
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
    /// - Parameter verify: checks the copy, fully on disk, before it is renamed into place; a copy
    ///   that fails it is removed and never appears at `target`.
    static func copyAtomically(
        _ source: URL, to target: URL, verify: (URL) throws(NarrationError) -> Void = { _ in }
    ) throws(NarrationError) {
        try clearTemporary(beside: target)
        let temporary = temporaryURL(beside: target)
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw NarrationError(.fileSystem, "Cannot read \(source.path): \(String(cString: strerror(errno))).") }
        defer { close(input) }
        let output = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw NarrationError(.fileSystem, "Cannot write to \(target.deletingLastPathComponent().path): \(String(cString: strerror(errno))).") }
        _ = lockPartial(output)
        defer { close(output) }
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
        if failure == nil {
            do throws(NarrationError) {
                try verify(temporary)
            } catch {
                unlink(temporary.path)
                throw error
            }
        }
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
