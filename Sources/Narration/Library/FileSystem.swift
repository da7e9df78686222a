import Foundation
import Glibc
import NarrationCore
import Synchronization

/// The engine's one file of system calls: the few file operations it needs, each turning a
/// failure into a sentence, and below them the calls themselves (`OpenFile`, `FileStatus`,
/// `SystemError`, the monotonic clock), so that no other engine file calls the C library.
enum FileSystem {
    /// A file operation that failed: `text` (which ends where the reason goes), the C library's
    /// words for `code`, and the `errno` kept as the cause.
    private static func failed(_ text: String, _ code: CInt) -> NarrationError {
        NarrationError(.fileSystem, "\(text)\(describe(errno: code)).", cause: .system(errno: code))
    }

    static func createDirectory(_ url: URL) throws(NarrationError) {
        if let failure = makeDirectories(url) {
            throw failed("Cannot create the folder \(url.path): ", failure)
        }
    }

    /// Creates the folders from `root` (which must exist; it may be a link: someone chose it) down
    /// to `url`, in a destination others may write in, refusing any of them that is a symbolic
    /// link or not a folder: narrate's files go into folders it made or found as folders there,
    /// never through a link into someone else's.
    /// - Throws: `foreignFile` naming the link; `fileSystem` when one cannot be made.
    static func createFolders(_ url: URL, below root: URL) throws(NarrationError) {
        let rootPath = root.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        precondition(path == rootPath || path.hasPrefix(rootPath + "/"), "a folder below the destination")
        var current = rootPath
        for component in path.dropFirst(rootPath.count).split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw failed("Cannot create the folder \(current): ", errno) }
            let found: FileStatus
            do throws(SystemError) {
                found = try linkStatus(of: current)
            } catch {
                throw failed("Cannot create the folder \(current): ", error.code)
            }
            switch found.kind {
            case .folder: continue
            case .symbolicLink: throw .foreignFile(current, .symbolicLink)
            default: throw failed("Cannot create the folder \(current): ", ENOTDIR)
            }
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
            throw failed("Cannot move \(from.path) to \(to.path): ", errno)
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
    /// - Throws: `fileSystem` when a live process is writing it; `foreignFile` when what is there is
    ///   not narrate's (a symbolic link, another user's file, not a regular file), which is left as
    ///   it is.
    static func clearTemporary(beside url: URL) throws(NarrationError) {
        let temporary = temporaryURL(beside: url)
        guard let found = try? linkStatus(of: temporary.path) else { return }
        if let foreign = ForeignFile(found) { throw .foreignFile(temporary.path, foreign) }
        guard removeIfAbandoned(temporary) else {
            throw NarrationError(
                .fileSystem, "Another narrate command is writing \(url.path) right now; wait for it to finish, then try again.")
        }
    }

    /// Removes every temporary file of ours in `folder` whose writer is gone (nobody holds its
    /// lock); leaves those being written, and what is not ours (see `removeIfAbandoned`).
    /// - Returns: how many were removed.
    @discardableResult
    static func removeAbandonedPartials(in folder: URL) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        return names.filter { $0.hasPrefix(".") && $0.hasSuffix(partialSuffix) }
            .filter { removeIfAbandoned(folder.appendingPathComponent($0)) }.count
    }

    /// Unlinks `url` while holding its lock, if nobody else holds it and it is narrate's own (a
    /// regular file of this user's: a link or another user's file at that name is left to its
    /// owner). - Returns: whether it is gone.
    private static func removeIfAbandoned(_ url: URL) -> Bool {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return errno == ENOENT }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, ForeignFile(FileStatus(info)) == nil else { return false }
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
            throw failed("Cannot remove \(url.path): ", errno)
        }
    }

    /// Writes `data` to `url` atomically: a temporary file in the same folder, fsync, rename.
    /// The file is created with `permissions` (0o600: its owner's alone from the first byte).
    static func writeAtomically(_ data: Data, to url: URL, permissions: mode_t = 0o644) throws(NarrationError) {
        try clearTemporary(beside: url)
        let temporary = temporaryURL(beside: url)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, permissions)
        guard descriptor >= 0 else {
            throw failed("Cannot create \(temporary.path): ", errno)
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
            throw failed("Cannot write \(url.path): ", code)
        }
        syncDirectory(url.deletingLastPathComponent())
    }

    /// Forces a file's contents to disk (`fsync`): a file written by a library that does not
    /// (ZIPFoundation), before it is renamed into place.
    static func syncFile(_ url: URL) throws(NarrationError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .foreignFile(url.path, .symbolicLink) }
            throw failed("Cannot open \(url.path): ", errno)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            let code = errno
            if code == ENOSPC || code == EDQUOT {
                throw NarrationError(.diskFull, "The disk holding \(url.deletingLastPathComponent().path) is full; \(url.lastPathComponent) was not written.")
            }
            throw failed("Cannot write \(url.path): ", code)
        }
    }

    /// Copies a file atomically (temporary file beside the target, fsync, rename), block by block.
    /// - Parameter verify: checks the copy, fully on disk, before it is renamed into place; a copy
    ///   that fails it is removed and never appears at `target`.
    static func copyAtomically(
        _ source: URL, to target: URL, verify: (URL) throws(NarrationError) -> Void = { _ in }
    ) throws(NarrationError) {
        try StagedCopy(source, to: target, verify: verify).commit()
    }
}

/// A copy made in full beside its target under narrate's temporary name (`temporaryURL(beside:)`),
/// forced to disk and verified, waiting to be renamed into place: several of them staged first
/// and committed together put a delivery's files in place only once every one of them was
/// written, so that a full disk leaves none of them behind. Its writer's lock is held until it is
/// committed or discarded, so that nobody takes it for one a killed writer left. It may be
/// handed from the thread that made it to the one that commits it.
final class StagedCopy: Sendable {
    let target: URL
    let temporary: URL
    /// The copy's open file, which holds its lock; -1 once committed or discarded.
    private let descriptor = Mutex<CInt>(-1)

    /// Copies `source` beside `target`, block by block, and checks the copy with `verify`.
    /// - Throws: `diskFull` when the disk holding `target` fills ("nothing was delivered there":
    ///   the partial copy is removed); `fileSystem`; `foreignFile` when narrate's temporary name
    ///   holds something not its own; whatever `verify` throws (the copy is removed).
    init(_ source: URL, to target: URL, verify: (URL) throws(NarrationError) -> Void = { _ in }) throws(NarrationError) {
        self.target = target
        temporary = FileSystem.temporaryURL(beside: target)
        try FileSystem.clearTemporary(beside: target)
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            let code = errno
            throw NarrationError(.fileSystem, "Cannot read \(source.path): \(FileSystem.describe(errno: code)).", cause: .system(errno: code))
        }
        defer { close(input) }
        let output = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard output >= 0 else {
            let code = errno
            if code == EEXIST, let found = try? FileSystem.linkStatus(of: temporary.path), let foreign = ForeignFile(found) {
                throw .foreignFile(temporary.path, foreign)
            }
            throw NarrationError(
                .fileSystem, "Cannot write to \(target.deletingLastPathComponent().path): \(FileSystem.describe(errno: code)).", cause: .system(errno: code))
        }
        descriptor.withLock { $0 = output }
        _ = FileSystem.lockPartial(output)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var failure: CInt?
        while failure == nil {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { break }
            guard count > 0 else { failure = errno; break }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { write(output, $0.baseAddress! + offset, count - offset) }
                guard written > 0 else { failure = written < 0 ? errno : ENOSPC; break }
                offset += written
            }
        }
        if failure == nil, fsync(output) != 0 { failure = errno }
        if let failure {
            discard()
            throw Self.failure(failure, target: target)
        }
        do throws(NarrationError) {
            try verify(temporary)
        } catch {
            discard()
            throw error
        }
    }

    private static func failure(_ code: CInt, target: URL) -> NarrationError {
        if code == ENOSPC || code == EDQUOT {
            return NarrationError(.diskFull, "The disk holding \(target.deletingLastPathComponent().path) is full; nothing was delivered there. Free some space there, then try again.")
        }
        return NarrationError(.fileSystem, "Cannot copy to \(target.path): \(FileSystem.describe(errno: code)).", cause: .system(errno: code))
    }

    /// Renames the copy into place at `target`, replacing what is there (a symbolic link there is
    /// replaced, never followed), and forces the folder's entry to disk.
    func commit() throws(NarrationError) {
        precondition(descriptor.withLock { $0 } >= 0, "a staged copy is committed or discarded once")
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            discard()
            throw Self.failure(code, target: target)
        }
        close(descriptor.withLock { file in defer { file = -1 }; return file })
        FileSystem.syncDirectory(target.deletingLastPathComponent())
    }

    /// Removes the copy; `target` is left as it was.
    func discard() {
        let file = descriptor.withLock { file in defer { file = -1 }; return file }
        guard file >= 0 else { return }
        unlink(temporary.path)
        close(file)
    }

    deinit { discard() }
}

// MARK: - The system calls other engine files use

/// A failed system call's `errno`, and the C library's words for it.
struct SystemError: Error, Sendable, Equatable {
    let code: CInt

    /// What `OpenFile` refuses to write or read back as narrate's own, though the kernel opened
    /// it: anything but a regular file with one name (a FIFO, a device, a hard link).
    static let notRegularFile = SystemError(code: -1)

    /// "No such file or directory".
    var reason: String { self == .notRegularFile ? "not a regular file narrate made" : FileSystem.describe(errno: code) }
    var isMissing: Bool { code == ENOENT }
    /// Something is already at the name (`EEXIST`).
    var isAlreadyThere: Bool { code == EEXIST }
    /// A folder that was to be empty is not (`ENOTEMPTY`, or `EEXIST` where a rename meets one).
    var isFolderNotEmpty: Bool { code == ENOTEMPTY || code == EEXIST }
    /// What was found is not narrate's own file: a symbolic link (`O_NOFOLLOW`'s `ELOOP`), or
    /// something `OpenFile` refused on its descriptor.
    var isForeignFile: Bool { code == ELOOP || self == .notRegularFile }
    /// The file system or the file's permissions refuse writing.
    var isWriteRefused: Bool { code == EROFS || code == EACCES || code == EPERM }
    var isReadOnlyFileSystem: Bool { code == EROFS }
    /// The file's permissions refuse what was asked.
    var isPermissionDenied: Bool { code == EACCES }

    /// The error as the cause of a `NarrationError`.
    var cause: NarrationError.Cause { .system(errno: code) }

    /// The `errno` the last call left.
    static var last: SystemError { SystemError(code: errno) }
}

/// What `stat` says of a file.
struct FileStatus: Sendable {
    enum Kind: Sendable { case file, folder, fifo, socket, characterDevice, blockDevice, symbolicLink, other }

    let kind: Kind
    let size: Int
    /// The owner's user id.
    let owner: UInt32
    /// The permission bits, with set-id and sticky bits (`mode & 0o7777`).
    let permissions: UInt32
    /// How many names the file has (hard links).
    let links: Int
    /// When its contents last changed (`st_mtim`).
    let modified: Date

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .folder
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int(info.st_size)
        owner = info.st_uid
        permissions = UInt32(info.st_mode & 0o7777)
        links = Int(info.st_nlink)
        modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    var isSticky: Bool { permissions & UInt32(S_ISVTX) != 0 }
}

extension FileSystem {
    /// The C library's words for an `errno` ("Permission denied").
    static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }

    /// `stat` of a path, following symbolic links.
    static func status(of path: String) throws(SystemError) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .last }
        return FileStatus(info)
    }

    /// `lstat` of a path: a symbolic link is described, not followed.
    static func linkStatus(of path: String) throws(SystemError) -> FileStatus {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .last }
        return FileStatus(info)
    }

    /// The refusal for `url`, where narrate writes (or reads back, `verb` "read") a file of its
    /// own and found something else (see `ForeignFile`), or nil when it holds narrate's own file
    /// or nothing.
    static func foreignFile(at url: URL, doing verb: String = "write") -> NarrationError? {
        guard let found = try? linkStatus(of: url.path), let foreign = ForeignFile(found) else { return nil }
        return .foreignFile(url.path, foreign, doing: verb)
    }

    /// The bytes of a file narrate wrote and reads back from a folder others may write in (a
    /// destination's feed and sidecars), or nil when there is none: a symbolic link is not
    /// followed, and anything but a regular file is refused.
    /// - Throws: `foreignFile`; `fileSystem` when it cannot be read, or holds more than `limit` bytes.
    static func ownContents(of url: URL, limit: Int = 64 << 20) throws(NarrationError) -> [UInt8]? {
        let read: [UInt8]?
        do throws(SystemError) {
            read = try OpenFile(url.path, .readOwn).readAll(limit: limit)
        } catch where error.isMissing {
            return nil
        } catch where error.isForeignFile {
            throw foreignFile(at: url, doing: "read") ?? .foreignFile(url.path, .notRegularFile, doing: "read")
        } catch {
            throw NarrationError(.fileSystem, "Cannot read \(url.path): \(error.reason).", subject: .file(url.path), cause: error.cause)
        }
        guard let read else {
            throw NarrationError(.fileSystem, "Cannot read \(url.path): it holds more than \(limit >> 20) MiB.", subject: .file(url.path))
        }
        return read
    }

    /// One `mkdir` (0755); a folder already there is fine.
    static func makeDirectory(_ path: String) throws(SystemError) {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw .last }
    }

    /// One `mkdir` that must make a new folder with `permissions`: anything already at `path`
    /// (a folder, a file, a symbolic link) fails with `EEXIST`, so nothing there is ever reused.
    static func makeNewDirectory(_ path: String, permissions: mode_t = 0o755) throws(SystemError) {
        guard mkdir(path, permissions) == 0 else { throw .last }
    }

    /// Removes a folder only if it is empty (`rmdir`): one that holds anything fails with `ENOTEMPTY`.
    static func removeEmptyDirectory(_ path: String) throws(SystemError) {
        guard rmdir(path) == 0 else { throw .last }
    }

    /// Whether the kernel lets this process write in `path` (`access(W_OK)`): a read-only mount
    /// answers EROFS, without anything being written to find out.
    static func checkWritable(_ path: String) throws(SystemError) {
        guard access(path, W_OK) == 0 else { throw .last }
    }

    /// The bytes of the regular file at `path` if this user owns it and nobody else may read or
    /// change it (`mode & 0o077 == 0`), checked on the descriptor read from; nil otherwise, or
    /// when it holds more than `limit` bytes. A symbolic link is not followed.
    static func privateContents(of path: String, limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let status = FileStatus(info)
        guard status.kind == .file, status.owner == geteuid(), status.permissions & 0o077 == 0, status.size <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: status.size)
        let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, status.size) }
        return got == status.size ? bytes : nil
    }

    /// The program a running process of this user was started from (`/proc/PID/exe`), without
    /// the " (deleted)" the kernel adds once that file was replaced, as an upgrade replaces it;
    /// nil when no such process runs or it is another user's.
    static func program(ofProcess id: Int32) -> String? {
        guard id > 0, kill(id, 0) == 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/\(id)/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasSuffix(" (deleted)") ? String(path.dropLast(" (deleted)".count)) : path
    }

    /// Names the calling thread as `ps -L` shows it: the first 15 bytes of `name` (all Linux
    /// keeps), cut before a character that would not fit whole. Foundation's `Thread.name` names
    /// a thread only when it starts, and Swift's Glibc module leaves out `pthread_setname_np`, so
    /// this writes /proc/thread-self/comm, as that function does on Linux. A name that cannot be
    /// set leaves the old one.
    static func nameThisThread(_ name: String) {
        var bytes = 0
        let fitting = Array(name.prefix { character in
            bytes += character.utf8.count
            return bytes <= 15
        }.utf8)
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = fitting.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Unlinks a file if it is there, saying nothing either way.
    static func discard(_ url: URL) { unlink(url.path) }

    /// Bytes a process without privileges may still write on the file system that holds `path`
    /// (`f_bavail × f_frsize`: the blocks kept for root are not counted).
    /// The corresponding C function is `statvfs`.
    static func availableBytes(at path: String) throws(SystemError) -> Int64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { throw .last }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Renames atomically within one file system, replacing what is at `to`.
    static func replace(_ to: URL, with from: URL) throws(SystemError) {
        guard rename(from.path, to.path) == 0 else { throw .last }
    }

    /// The user narrate runs as (`geteuid`).
    static var userID: UInt32 { geteuid() }

    /// This process's id.
    static var processID: Int32 { getpid() }

    /// Seconds on `CLOCK_MONOTONIC`: the clock that timestamps capture, comparable across processes.
    /// Starts `path` with `arguments` (the first is its name) in a session of its own, its input
    /// and output on /dev/null and every other descriptor closed (no lock or file of this process
    /// is held by it), and does not wait for it. posix_spawn rather than Foundation's Process: it
    /// costs about a millisecond where Process cost about 8, on the path from a take's stop to
    /// the command's exit. - Returns: whether it started.
    static func spawnDetached(_ path: String, _ arguments: [String]) -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Every other descriptor open now is closed in the child (glibc skips one closed since).
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for descriptor in open where descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // glibc's POSIX_SPAWN_SETSID (0x80), which Swift's Glibc module does not export.
        posix_spawnattr_setflags(&attributes, 0x80)
        var argv = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        argv.append(nil)
        var pid = pid_t()
        return posix_spawn(&pid, path, &actions, &attributes, argv, environ) == 0
    }

    /// Raises this process's soft limit of open descriptors to its hard limit (a server holding
    /// many connections needs more than the usual 1,024).
    /// - Returns: the soft limit now, or nil when the limits cannot be read.
    /// The corresponding C functions are `getrlimit` and `setrlimit`.
    static func raiseOpenFileLimit() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return UInt64(limit.rlim_cur)
    }

    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// An open file with one owner: every read, write and lock on it goes through here, and it is
/// closed (its `flock` released with it) when the owner lets go of it.
final class OpenFile: Sendable {
    /// How a file is opened. Every access but `read` is for narrate's own files: it never follows
    /// a symbolic link (`O_NOFOLLOW`: `ELOOP`), and refuses, on the opened descriptor, anything
    /// but a regular file (`SystemError.notRegularFile`), and for writing one with other names
    /// too (a hard link), before a byte is read or written.
    enum Access {
        /// Reading a file someone names (an import, a credentials file): links are followed; a
        /// FIFO does not block the open, and a terminal does not become ours.
        case read
        /// Reading a file of narrate's own.
        case readOwn
        case readWrite
        /// Reading and writing, created with `permissions` if missing.
        case readWriteCreating(permissions: UInt32)
        /// Writing a new file, created with `permissions`; one there already (of any kind) fails
        /// with `EEXIST` (`O_EXCL`).
        case creatingNew(permissions: UInt32)
    }

    private let descriptor: CInt

    /// Opens `path` (see `Access` for what is refused).
    init(_ path: String, _ access: Access) throws(SystemError) {
        let own = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY
        let opened: CInt
        switch access {
        case .read: opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        case .readOwn: opened = open(path, O_RDONLY | own)
        case .readWrite: opened = open(path, O_RDWR | own)
        case .readWriteCreating(let permissions): opened = open(path, O_RDWR | O_CREAT | own, mode_t(permissions))
        case .creatingNew(let permissions): opened = open(path, O_WRONLY | O_CREAT | O_EXCL | own, mode_t(permissions))
        }
        guard opened >= 0 else { throw .last }
        if case .read = access {
        } else {
            var info = stat()
            guard fstat(opened, &info) == 0 else {
                let failure = SystemError.last
                close(opened)
                throw failure
            }
            let found = FileStatus(info)
            let writing = if case .readOwn = access { false } else { true }
            guard found.kind == .file, !writing || found.links == 1 else {
                close(opened)
                throw .notRegularFile
            }
        }
        descriptor = opened
    }

    deinit { close(descriptor) }

    /// `fstat` of the open file: what was opened, whatever the path names by now.
    func status() throws(SystemError) -> FileStatus {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .last }
        return FileStatus(info)
    }

    /// Up to `count` bytes from `offset`; fewer only at the end of the file.
    func read(upTo count: Int, at offset: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let step = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + got, count - got, off_t(offset + got)) }
            if step < 0 && errno == EINTR { continue }
            guard step >= 0 else { throw .last }
            if step == 0 { break }
            got += step
        }
        return Array(bytes[0..<got])
    }

    /// Every byte from the start, or nil when there are more than `limit`.
    func readAll(limit: Int) throws(SystemError) -> [UInt8]? {
        var bytes: [UInt8] = []
        while true {
            let block = try read(upTo: 16 * 1024, at: bytes.count)
            if block.isEmpty { return bytes }
            bytes += block
            if bytes.count > limit { return nil }
        }
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: [UInt8], at offset: Int) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let step = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
            if step < 0 && errno == EINTR { continue }
            guard step > 0 else { throw step < 0 ? .last : SystemError(code: ENOSPC) }
            done += step
        }
    }

    func truncate(to length: Int) throws(SystemError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw .last }
    }

    func sync() throws(SystemError) {
        guard fsync(descriptor) == 0 else { throw .last }
    }

    /// Makes the disk set aside `bytes` for the file (`posix_fallocate`).
    func allocate(bytes: Int) throws(SystemError) {
        let result = posix_fallocate(descriptor, 0, off_t(bytes))
        guard result == 0 else { throw SystemError(code: result) }
    }

    /// Takes an exclusive `flock` without waiting. - Returns: false when another open file holds it.
    func tryLock() -> Bool { flock(descriptor, LOCK_EX | LOCK_NB) == 0 }

    /// Takes an exclusive `flock` without waiting. - Returns: false when another open file holds
    /// it. - Throws: the system's error when the file cannot be locked at all (`ENOLCK` on a
    /// share without lock support), which waiting would not mend.
    func tryLockOrFail() throws(SystemError) -> Bool {
        guard flock(descriptor, LOCK_EX | LOCK_NB) != 0 else { return true }
        let code = errno
        guard code == EWOULDBLOCK || code == EINTR else { throw SystemError(code: code) }
        return false
    }

    func unlock() { flock(descriptor, LOCK_UN) }

    /// Takes an exclusive `flock`, waiting for the open file that holds it to let go (the kernel
    /// wakes this thread then: no polling). Call it on a thread that may block.
    /// - Throws: the system's error when the file cannot be locked at all (`ENOLCK` on a share
    ///   without lock support).
    func lock() throws(SystemError) {
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .last }
        }
    }

    /// The path the kernel has for the open file, after every symbolic link (from
    /// `/proc/self/fd`), or nil if it does not say.
    var kernelPath: String? {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/fd/\(descriptor)", &target, target.count - 1)
        guard length > 0 else { return nil }
        var resolved = String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if resolved.hasSuffix(" (deleted)") { resolved.removeLast(" (deleted)".count) }
        return resolved.hasPrefix("/") ? resolved : nil
    }
}

extension ForeignFile {
    /// What `status` (from `lstat`) shows at a name where narrate keeps a file of its own, or nil
    /// when it is one: a regular file of this user's with that one name.
    init?(_ status: FileStatus) {
        switch status.kind {
        case .symbolicLink: self = .symbolicLink
        case .file where status.owner != FileSystem.userID: self = .otherUsersFile
        case .file where status.links == 1: return nil
        default: self = .notRegularFile
        }
    }
}
