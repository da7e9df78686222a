internal import CSndFile
import Glibc
import NarrationCore

/// The one funnel for libsndfile failures: the library's own message, the file, and what we
/// were doing, as one sentence. A system error of "no space" becomes `diskFull`.
func soundFileError(_ file: OpaquePointer?, path: String, doing action: String, errno systemError: CInt = 0) -> NarrationError {
    if let full = diskFullError(path: path, errno: systemError) { return full }
    let reason = String(cString: sf_strerror(file))
    return NarrationError(.fileSystem, "Cannot \(action) \(path): \(reason).")
}

/// `diskFull` naming the folder of `path` when `systemError` says the disk or quota is full; nil
/// for any other error. Shared by every writer of files (libsndfile, libFLAC).
func diskFullError(path: String, errno systemError: CInt) -> NarrationError? {
    guard [ENOSPC, EDQUOT, EFBIG].contains(systemError) else { return nil }
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return NarrationError(.diskFull, "The disk holding \(folder.isEmpty ? "." : folder) is full (\(String(cString: strerror(systemError)))).")
}

extension AudioFormat {
    /// The libsndfile format code of a WAV file in this format.
    var wavFormatCode: CInt {
        CInt(SF_FORMAT_WAV) | (bitsPerSample == 24 ? CInt(SF_FORMAT_PCM_24) : CInt(SF_FORMAT_PCM_16))
    }
}
