public import Foundation
public import NarrationCore
public import ObjectStorage

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
        let (path, profile) = file(for: storage, environment: environment)
        let text = try readPrivateFile(path, for: storage)
        guard let entry = CredentialsFile(parsing: text).profiles[profile], let keyID = entry.accessKeyID, let secret = entry.secretAccessKey,
            !keyID.isEmpty, !secret.isEmpty
        else {
            throw NarrationError(
                .credentials, "The credentials file \(path) has no [\(profile)] section with aws_access_key_id and aws_secret_access_key.")
        }
        return S3Credentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: entry.sessionToken)
    }

    /// The credentials file and the profile in it that `storage`'s key pair comes from when the
    /// environment gives none: the destination's `credentials_file` (`~/` is the home folder),
    /// else `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`; its `credentials_profile`,
    /// else `AWS_PROFILE`, else `default`. Nothing is read.
    static func file(for storage: S3Destination, environment: [String: String]) -> (path: String, profile: String) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let path = storage.credentialsFile.map { $0.hasPrefix("~/") ? home + $0.dropFirst() : $0 }
            ?? environment["AWS_SHARED_CREDENTIALS_FILE"] ?? "\(home)/.aws/credentials"
        return (path, storage.credentialsProfile ?? environment["AWS_PROFILE"] ?? "default")
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
        try readPrivateFile(
            path, named: "credentials file", holding: "the keys", setting: "credentials_file or AWS_SHARED_CREDENTIALS_FILE",
            missing: "No credentials for \(storage): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write them to \(path) (readable by you only: chmod 600).")
    }

    /// `readPrivateFile(_:for:)` for any secret kept in a file: `name` names it in sentences ("the
    /// \(name) \(path) can be read by others"), `contents` what it holds ("the keys"), `setting`
    /// what points at it, `missing` the sentence when there is no such file.
    static func readPrivateFile(
        _ path: String, named name: String, holding contents: String, setting: String, missing: String
    ) throws(NarrationError) -> String {
        // Opened without blocking: opening a FIFO must not wait for a writer; it is refused below.
        let file: OpenFile
        do throws(SystemError) {
            file = try OpenFile(path, .read)
        } catch {
            if error.isMissing {
                throw NarrationError(
                    .credentials,
                    missing,
                    subject: .file(path), cause: error.cause)
            }
            throw NarrationError(
                .credentials, "The \(name) \(path) cannot be opened (\(error.reason)); check its permissions.", subject: .file(path),
                cause: error.cause)
        }
        let status: FileStatus
        do throws(SystemError) {
            status = try file.status()
        } catch {
            throw NarrationError(
                .credentials, "The \(name) \(path) cannot be examined (\(error.reason)); check it.", subject: .file(path), cause: error.cause)
        }
        guard status.kind == .file else {
            throw NarrationError(
                .credentials,
                "The \(name) \(path) is \(fileKind(status.kind)), not a file; point \(setting) at the file that holds \(contents).",
                subject: .file(path))
        }
        guard status.owner == FileSystem.userID else {
            throw NarrationError(
                .credentials,
                "The \(name) \(path) is owned by another user (uid \(status.owner)); narrate uses only a file of your own: copy \(contents) into one and chmod 600 it.",
                subject: .file(path))
        }
        let mode = String(status.permissions & 0o777, radix: 8)
        guard status.permissions & 0o044 == 0 else {
            throw NarrationError(
                .credentials,
                "The \(name) \(path) can be read by others (mode \(mode)); narrate uses it only when just you can: chmod 600 \(path)",
                subject: .file(path))
        }
        guard status.permissions & 0o033 == 0 else {
            throw NarrationError(
                .credentials,
                "The \(name) \(path) can be changed or run by others (mode \(mode)); narrate uses it only when just you can: chmod 600 \(path)",
                subject: .file(path))
        }
        let folder = openedFolder(file, path: path)
        let folderStatus: FileStatus
        do throws(SystemError) {
            folderStatus = try FileSystem.status(of: folder)
        } catch {
            throw NarrationError(
                .credentials, "The folder \(folder) of the \(name) \(path) cannot be examined (\(error.reason)).", subject: .file(path),
                cause: error.cause)
        }
        let sticky = folderStatus.isSticky && (folderStatus.owner == FileSystem.userID || folderStatus.owner == 0)
        guard folderStatus.permissions & 0o022 == 0 || sticky else {
            throw NarrationError(
                .credentials,
                "The folder \(folder) that holds the \(name) \(path) can be written by others (mode \(String(folderStatus.permissions, radix: 8))), who could replace the file; make it yours alone: chmod go-w \(folder)",
                subject: .file(path))
        }
        let read: [UInt8]?
        do throws(SystemError) {
            read = try file.readAll(limit: 1 << 20)
        } catch {
            throw NarrationError(
                .credentials, "The \(name) \(path) cannot be read (\(error.reason)); check it.", subject: .file(path), cause: error.cause)
        }
        guard let bytes = read else {
            throw NarrationError(
                .credentials, "The \(name) \(path) is larger than 1 MiB, which no \(name) is; check that it is the right file.",
                subject: .file(path))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw NarrationError(.credentials, "The \(name) \(path) cannot be read as text; check its permissions and contents.")
        }
        return text
    }

    /// The folder the opened file is in, from the kernel's link for the descriptor (so after
    /// every symbolic link); `path`'s own folder if the kernel does not say.
    private static func openedFolder(_ file: OpenFile, path: String) -> String {
        guard let resolved = file.kernelPath else {
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent().path
        }
        return URL(fileURLWithPath: resolved).deletingLastPathComponent().path
    }

    /// "a folder", "a FIFO", … for the refusal of what is not a file.
    private static func fileKind(_ kind: FileStatus.Kind) -> String {
        switch kind {
        case .folder: "a folder"
        case .fifo: "a FIFO (named pipe)"
        case .socket: "a socket"
        case .characterDevice, .blockDevice: "a device"
        default: "something other than a file"
        }
    }
}
