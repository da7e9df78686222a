import Glibc
import NarrationCore

/// A file written through its descriptor by the MP3 writers: the single owner of the
/// descriptor, its writes retried on interruptions and short counts, its failures sentences
/// that name the file (`diskFull` when the disk or quota is full).
final class DescriptorFile {
    let path: String
    private var descriptor: CInt

    /// Creates `path`, which must not exist, and takes the writer's lock on it: held while the
    /// file is written and dropped by the kernel when the process ends, so that a file left by a
    /// killed writer can be told from one being written (narrate's temporary files).
    /// See `NewFile.create`: a symbolic link at `path` is refused, never written through.
    init(creating path: String) throws(NarrationError) {
        let descriptor = try NewFile.create(path)
        self.path = path
        self.descriptor = descriptor
    }

    /// Scratch space on the disk of `folder`: a file created and unlinked at once, so that it has
    /// no name and vanishes when closed, or when the process dies, whatever happens.
    init(scratchIn folder: String) throws(NarrationError) {
        var template = Array("\(folder)/.narrate-scratch-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw diskFullError(path: "\(folder)/scratch", errno: errno)
                ?? NarrationError(.fileSystem, "Cannot make scratch space in \(folder): \(String(cString: strerror(errno))).")
        }
        let name = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        unlink(name)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        path = name
        self.descriptor = descriptor
    }

    /// Appends `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(NarrationError) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw failure("write") }
            offset += written
        }
    }

    /// Writes `bytes` at `offset`, leaving the file position where it was.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(NarrationError) {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw failure("write") }
            done += written
        }
    }

    /// Reads up to `buffer.count` bytes at `offset`. - Returns: how many (0 at the end).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(NarrationError) -> Int {
        while true {
            let read = pread(descriptor, buffer.baseAddress!, buffer.count, off_t(offset))
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else { throw failure("read") }
            return read
        }
    }

    /// Forces what was written to disk.
    func sync() throws(NarrationError) {
        guard fsync(descriptor) == 0 else { throw failure("save") }
    }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    /// Closes and removes the file (for a file that must not be left half-written).
    func remove() {
        close()
        unlink(path)
    }

    private func failure(_ action: String) -> NarrationError {
        let code = errno == 0 ? EIO : errno
        return diskFullError(path: path, errno: code) ?? NarrationError(.fileSystem, "Cannot \(action) \(path): \(String(cString: strerror(code))).")
    }

    deinit { close() }
}
