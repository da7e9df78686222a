public import Foundation
import Glibc
public import NarrationCore

/// Where the key pair for object storage comes from: the standard environment variables
/// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), else a credentials file in
/// AWS's format that only its owner can read: the destination's `credentials_file`, else
/// `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`; its `[profile]` is the destination's
/// `credentials_profile`, else `AWS_PROFILE`, else `default`.
public enum CredentialSource {
    /// - Throws: `credentials` saying what is missing, or that the file is readable by others.
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
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw NarrationError(
                .credentials,
                "No credentials for \(storage): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write them to \(path) (readable by you only: chmod 600).")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw NarrationError(
                .credentials,
                "The credentials file \(path) can be read by others (mode \(String(status.st_mode & 0o777, radix: 8))); narrate uses it only when just you can: chmod 600 \(path)")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw NarrationError(.credentials, "The credentials file \(path) cannot be read as text; check its permissions and contents.")
        }
        guard let entry = CredentialsFile(parsing: text).profiles[profile], let keyID = entry.accessKeyID, let secret = entry.secretAccessKey,
            !keyID.isEmpty, !secret.isEmpty
        else {
            throw NarrationError(
                .credentials, "The credentials file \(path) has no [\(profile)] section with aws_access_key_id and aws_secret_access_key.")
        }
        return S3Credentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: entry.sessionToken)
    }
}
