public import Foundation
import Glibc
public import NarrationCore

/// Where the key pair for object storage comes from: the standard environment variables
/// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), else a credentials file in
/// AWS's format that only its owner can read: the destination's `credentials_file`, else
/// `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`; its `[profile]` is the destination's
/// `credentials_profile`, else `AWS_PROFILE`, else `default`.
public enum CredentialSource {
    /// - Throws: `credentials` saying what is missing, or which check of the credentials file
    ///   failed and how to fix it (see `readPrivateFile`).
    public static func credentials(
        for storage: S3Destination, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NarrationError) -> S3Credentials {
        let keyID = environment["AWS_ACCESS_KEY_ID"].flatMap { $0.isEmpty ? nil : $0 }
        let secret = environment["AWS_SECRET_ACCESS_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        switch (keyID, secret) {
        case (let keyID?, let secret?):
            return S3Credentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
        case (.some, nil):
            throw NarrationError(.credentials, "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not; set both, or neither to use a credentials file.")
        case (nil, .some):
            throw NarrationError(.credentials, "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not; set both, or neither to use a credentials file.")
        case (nil, nil):
            break
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        let path = storage.credentialsFile.map { $0.hasPrefix("~/") ? home + $0.dropFirst() : $0 }
            ?? environment["AWS_SHARED_CREDENTIALS_FILE"] ?? "\(home)/.aws/credentials"
        let profile = storage.credentialsProfile ?? environment["AWS_PROFILE"] ?? "default"
        let text = try readPrivateFile(path, for: storage)
        guard let entry = CredentialsFile(parsing: text).profiles[profile], let keyID = entry.accessKeyID, let secret = entry.secretAccessKey,
            !keyID.isEmpty, !secret.isEmpty
        else {
            throw NarrationError(
                .credentials, "The credentials file \(path) has no [\(profile)] section with aws_access_key_id and aws_secret_access_key.")
        }
        return S3Credentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: entry.sessionToken)
    }

    /// Reads the credentials file at `path` if, and only if, only the user can read or change it.
    ///
    /// The file is opened once and every check is made on that descriptor, so a file swapped
    /// between a check and the read cannot slip through. A symbolic link is followed (a link to a
    /// private file of the user's is common with AWS's tools); what is checked is the file it led
    /// to when it was opened:
    /// - it is a regular file (not a folder, FIFO or device);
    /// - it is owned by the user narrate runs as (`geteuid()`);
    /// - its group and others have no permission at all (`mode & 0o077 == 0`, e.g. 600 or 400);
    /// - its folder (the one it really is in, read from `/proc/self/fd`) cannot be written by
    ///   group or others, who could otherwise replace the file, unless the folder is sticky (like
    ///   `/tmp`: only a file's owner may rename or remove it there) and owned by the user or root.
    /// - Throws: `credentials`: no file, or a sentence naming the check that failed and the fix.
    static func readPrivateFile(_ path: String, for storage: S3Destination) throws(NarrationError) -> String {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT {
                throw NarrationError(
                    .credentials,
                    "No credentials for \(storage): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write them to \(path) (readable by you only: chmod 600).")
            }
            throw NarrationError(.credentials, "The credentials file \(path) cannot be opened (\(String(cString: strerror(code)))); check its permissions.")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw NarrationError(.credentials, "The credentials file \(path) cannot be examined (\(String(cString: strerror(errno)))); check it.")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw NarrationError(
                .credentials,
                "The credentials file \(path) is \(fileKind(status.st_mode)), not a file; point credentials_file or AWS_SHARED_CREDENTIALS_FILE at the file that holds the keys.")
        }
        guard status.st_uid == geteuid() else {
            throw NarrationError(
                .credentials,
                "The credentials file \(path) is owned by another user (uid \(status.st_uid)); narrate uses only a file of your own: copy the keys into one and chmod 600 it.")
        }
        let mode = String(status.st_mode & 0o777, radix: 8)
        guard status.st_mode & 0o044 == 0 else {
            throw NarrationError(
                .credentials,
                "The credentials file \(path) can be read by others (mode \(mode)); narrate uses it only when just you can: chmod 600 \(path)")
        }
        guard status.st_mode & 0o033 == 0 else {
            throw NarrationError(
                .credentials,
                "The credentials file \(path) can be changed or run by others (mode \(mode)); narrate uses it only when just you can: chmod 600 \(path)")
        }
        let folder = openedFolder(descriptor, path: path)
        var folderStatus = stat()
        guard stat(folder, &folderStatus) == 0 else {
            throw NarrationError(.credentials, "The folder \(folder) of the credentials file \(path) cannot be examined (\(String(cString: strerror(errno)))).")
        }
        let sticky = folderStatus.st_mode & S_ISVTX != 0 && (folderStatus.st_uid == geteuid() || folderStatus.st_uid == 0)
        guard folderStatus.st_mode & 0o022 == 0 || sticky else {
            throw NarrationError(
                .credentials,
                "The folder \(folder) that holds the credentials file \(path) can be written by others (mode \(String(folderStatus.st_mode & 0o7777, radix: 8))), who could replace the file; make it yours alone: chmod go-w \(folder)")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw NarrationError(.credentials, "The credentials file \(path) cannot be read (\(String(cString: strerror(errno)))); check it.")
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
            guard bytes.count <= 1 << 20 else {
                throw NarrationError(.credentials, "The credentials file \(path) is larger than 1 MiB, which no credentials file is; check that it is the right file.")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw NarrationError(.credentials, "The credentials file \(path) cannot be read as text; check its permissions and contents.")
        }
        return text
    }

    /// The folder the opened file is in, from the kernel's link for the descriptor (so after
    /// every symbolic link); `path`'s own folder if the kernel does not say.
    private static func openedFolder(_ descriptor: CInt, path: String) -> String {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/fd/\(descriptor)", &target, target.count - 1)
        var resolved = length > 0 ? String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : path
        if resolved.hasSuffix(" (deleted)") { resolved.removeLast(" (deleted)".count) }
        guard resolved.hasPrefix("/") else {
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent().path
        }
        return URL(fileURLWithPath: resolved).deletingLastPathComponent().path
    }

    /// "a folder", "a FIFO", … for the refusal of what is not a file.
    private static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "something other than a file"
        }
    }
}
