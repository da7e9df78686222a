public import Foundation
import NIOHTTP1

/// A request to object storage that failed, as values: what was being done, where, and what
/// went wrong underneath (the HTTP status and S3 error code of a refusal, or the `errno` of a
/// connection that failed). The engine turns it into a sentence for the volunteer.
public struct ObjectStorageError: Error, Sendable, Equatable {
    /// What went wrong.
    public enum Failure: Sendable, Equatable {
        /// The storage could not be reached at all.
        case unreachable(Transport)
        /// No byte of an answer came for `seconds` after the request was sent.
        case noAnswer(seconds: Double)
        /// The request did not finish within its deadline.
        case deadlineExceeded(minutes: Int)
        /// The connection broke before the answer was complete.
        case connectionBroke(Transport)
        /// The storage answered with an error: its HTTP status, and the S3 error code, message and
        /// the storage's clock when the answer gave them.
        case refused(status: Int, code: String?, message: String?, serverTime: Date?)
        /// The storage answered success without something the answer must hold (`what`).
        case incompleteAnswer(what: String)
    }

    /// Why a connection failed or broke.
    public enum Transport: Sendable, Equatable {
        /// A system call's `errno` (connection refused, host unreachable, …).
        case system(errno: Int32)
        case nameNotResolved
        case closedByStorage
        case connectTimeout(seconds: Int)
        /// Anything else the HTTP client reported, in its own words.
        case other(String)
    }

    /// What was being done, as a phrase: "storing narrations/a.mp3".
    public let operation: String
    /// The storage's endpoint, "scheme://host[:port]".
    public let endpoint: String
    public let failure: Failure

    public init(operation: String, endpoint: String, failure: Failure) {
        self.operation = operation
        self.endpoint = endpoint
        self.failure = failure
    }

    /// The HTTP status of a refusal.
    public var status: Int? {
        if case .refused(let status, _, _, _) = failure { return status }
        return nil
    }

    /// The S3 error code of a refusal ("NoSuchBucket").
    public var code: String? {
        if case .refused(_, let code, _, _) = failure { return code }
        return nil
    }

    /// The standard reason phrase of a refusal's HTTP status ("Service Unavailable"), for an
    /// answer that gave no S3 code.
    public var statusPhrase: String {
        status.map { HTTPResponseStatus(statusCode: $0).reasonPhrase } ?? ""
    }
}
