import Foundation
import Glibc
import NarrationCore

/// The few file operations the engine needs, each turning a failure into a sentence.
enum FileSystem {
    static func createDirectory(_ url: URL) throws(NarrationError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw NarrationError(.fileSystem, "Cannot create the folder \(url.path): \(reason(error)).")
        }
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

    static func size(of url: URL) -> Int? {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// The reason inside a Foundation error, without its boilerplate.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
