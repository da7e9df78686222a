public import Foundation
public import NarrationCore

extension NarrationLibrary {
    /// Delivers a job to a folder or to object storage, trying again after failures that may
    /// pass (storage unreachable or busy, a dropped connection) as `schedule` allows. Each try
    /// counts as an attempt in the outbox; the last error stays with the job.
    /// - Parameters:
    ///   - environment: where object storage credentials are looked up first.
    ///   - progress: bytes sent and bytes to send (object storage only).
    ///   - onRetry: told of each failure that will be retried, and the seconds until then.
    public func deliver(
        _ job: OutboxJob, to destination: Destination, retrying schedule: RetrySchedule,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
        onRetry: (NarrationError, Double) -> Void = { _, _ in }
    ) async throws(NarrationError) -> OutboxJob {
        var retry = 0
        while true {
            do throws(NarrationError) {
                switch try Self.prepare(destination, environment: environment) {
                case .folder(let folder):
                    return try deliver(job, toFolder: folder)
                case .s3(let storage, let credentials):
                    return try await deliver(job, to: storage, credentials: credentials, progress: progress).job
                }
            } catch {
                retry += 1
                guard error.mayPass, let delay = schedule.delay(beforeRetry: retry) else { throw error }
                onRetry(error, delay)
                try? await Task.sleep(for: .seconds(delay))
            }
        }
    }

    /// A destination made ready to deliver to.
    public enum PreparedDestination: Sendable {
        case folder(URL)
        case s3(S3Destination, S3Credentials)
    }

    /// What can be checked before anything is exported or sent: that the folder exists, or that
    /// credentials for the storage are at hand.
    /// - Throws: `fileSystem` for a missing folder; `credentials`.
    public static func prepare(
        _ destination: Destination, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NarrationError) -> PreparedDestination {
        switch destination {
        case .folder(let path):
            let folder = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
            guard FileSystem.exists(folder) else {
                throw NarrationError(.fileSystem, "The destination folder \(folder.path) does not exist (is the share mounted?).")
            }
            return .folder(folder)
        case .s3(let storage):
            return .s3(storage, try CredentialSource.credentials(for: storage, environment: environment))
        }
    }
}
