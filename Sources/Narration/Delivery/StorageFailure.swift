import Foundation
import NarrationCore
import ObjectStorage

/// An object storage failure in the volunteer's words: which credential is wrong, which bucket is
/// missing, how far the clock is off, and whether trying again may help (`storageUnreachable`,
/// `storageUnavailable`, remedy `sendOutboxLater`) or not (`storageRefused`).
extension NarrationError {
    init(_ error: ObjectStorageError, destination: S3Destination, credentials: S3Credentials, now: Date) {
        let storage = error.endpoint
        let operation = error.operation
        let subject = Subject.destination(destination.description)
        func retry(_ message: String, _ kind: Kind = .storageUnavailable, cause: Cause? = nil) -> NarrationError {
            NarrationError(kind, message, subject: subject, cause: cause, remedy: .sendOutboxLater)
        }
        switch error.failure {
        case .unreachable(let transport):
            self = retry(
                "Could not reach the storage at \(storage) (\(Self.describe(transport))). Check the endpoint and the network.",
                .storageUnreachable, cause: Self.cause(transport))
        case .noAnswer(let seconds):
            self = retry("The storage at \(storage) did not answer in \(String(format: "%g", seconds)) s while \(operation); it may be overloaded or stuck.")
        case .deadlineExceeded(let minutes):
            self = retry("The storage at \(storage) did not finish \(operation) in \(minutes) minutes.")
        case .connectionBroke(let transport):
            self = retry("The connection to \(storage) broke while \(operation) (\(Self.describe(transport))).", cause: Self.cause(transport))
        case .incompleteAnswer(let what):
            self = NarrationError(
                .storageUnavailable, "The storage at \(storage) answered \(operation) without \(what); try again.", subject: subject,
                cause: .storage(status: nil, code: nil))
        case .refused(let status, let code, let reason, let serverTime):
            let cause = Cause.storage(status: status, code: code)
            let keyID = credentials.accessKeyID
            func refused(_ message: String) -> NarrationError { NarrationError(.storageRefused, message, subject: subject, cause: cause) }
            switch code {
            case "InvalidAccessKeyId":
                self = refused(
                    "The storage at \(storage) does not know the access key ID \"\(keyID)\" (InvalidAccessKeyId). Check AWS_ACCESS_KEY_ID or the credentials file.")
            case "SignatureDoesNotMatch":
                self = refused(
                    "The storage at \(storage) knows the access key ID \"\(keyID)\" but not its secret (SignatureDoesNotMatch). Check AWS_SECRET_ACCESS_KEY or the credentials file.")
            case "NoSuchBucket":
                self = refused("The bucket \"\(destination.bucket)\" does not exist at \(storage) (NoSuchBucket). Create it, or correct the s3:// address.")
            case "RequestTimeTooSkewed":
                self = refused(
                    "This computer's clock is \(Self.skew(now: now, serverTime: serverTime)) the storage's (RequestTimeTooSkewed), so it refuses our signature. Set the clock right (timedatectl set-ntp true) and push again.")
            case "AccessDenied":
                self = refused(
                    "The storage at \(storage) denied access key ID \"\(keyID)\" \(operation) (AccessDenied\(reason.map { ": \($0)" } ?? "")). Ask for write access to \(destination).")
            case "BadDigest", "InvalidDigest":
                self = retry("The storage at \(storage) received different bytes than were sent while \(operation) (\(code ?? "")).", cause: cause)
            default:
                let detail = code.map { "\(status) \($0)\(reason.map { ": \($0)" } ?? "")" } ?? "\(status) \(error.statusPhrase)"
                if status >= 500 || status == 429 {
                    self = retry("The storage at \(storage) failed while \(operation) (\(detail)).", cause: cause)
                } else {
                    self = refused("The storage at \(storage) refused \(operation) (\(detail)).")
                }
            }
        }
    }

    private static func describe(_ transport: ObjectStorageError.Transport) -> String {
        switch transport {
        case .system(let code): FileSystem.describe(errno: code).lowercased()
        case .nameNotResolved: "its name could not be resolved"
        case .closedByStorage: "the storage closed the connection"
        case .connectTimeout(let seconds): "no answer to the connection in \(seconds) s"
        case .other(let text): text
        }
    }

    private static func cause(_ transport: ObjectStorageError.Transport) -> Cause? {
        if case .system(let code) = transport { return .system(errno: code) }
        return nil
    }

    /// "N minutes ahead of" or "behind", from the storage's clock.
    private static func skew(now: Date, serverTime: Date?) -> String {
        guard let serverTime else { return "too far from" }
        let offset = now.timeIntervalSince(serverTime)
        let minutes = Int((abs(offset) / 60).rounded())
        return "\(minutes) minute\(minutes == 1 ? "" : "s") \(offset > 0 ? "ahead of" : "behind")"
    }
}
