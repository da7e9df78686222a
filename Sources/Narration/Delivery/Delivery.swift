public import Foundation
public import NarrationCore
public import ObjectStorage

extension NarrationLibrary {
    /// Delivers a job to a folder or to object storage (`deliver(_:to:in:feed:progress:)` with
    /// the destination's store), trying again after failures that may
    /// pass (storage unreachable or busy, a dropped connection) as `schedule` allows. Each try
    /// counts as an attempt in the outbox; the last error stays with the job.
    /// - Parameters:
    ///   - environment: where object storage credentials are looked up first.
    ///   - progress: bytes sent and bytes to send (object storage only).
    ///   - onRetry: told of each failure that will be retried, and the seconds until then.
    ///   - feed: how the destination's feeds look, for a job that carries a feed item; nil: as
    ///     config.toml (found through `environment`) says for `destination`.
    public func deliver(
        _ job: OutboxJob, to destination: Destination, retrying schedule: RetrySchedule,
        environment: [String: String] = ProcessInfo.processInfo.environment, feed: FeedSettings? = nil,
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
        onRetry: (NarrationError, Double) -> Void = { _, _ in }
    ) async throws(NarrationError) -> OutboxJob {
        let feed = feed ?? ((try? Settings.load(environment)) ?? Settings()).feedSettings(for: destination)
        var retry = 0
        while true {
            do throws(NarrationError) {
                let store = try Self.store(for: destination, environment: environment)
                return try await store.closing { () async throws(NarrationError) in
                    try await self.deliver(job, to: destination, in: store, feed: feed, progress: progress).job
                }
            } catch {
                retry += 1
                guard error.mayPass, let delay = schedule.delay(beforeRetry: retry) else { throw error }
                onRetry(error, delay)
                try? await Task.sleep(for: .seconds(delay))
            }
        }
    }

    /// The export `submit` sends: the article's current export when it was made from the article
    /// as it is now and with `profile` (any profile when nil), else a new one in `profile`
    /// (else `fallback`), which retires the old.
    /// - Parameter sendingUnread: whether to send the article while paragraphs of its text are
    ///   neither read nor skipped, even when its export is current; when false it is refused
    ///   (`articleUnfinished`) before anything is exported.
    /// - Returns: the job, and whether it was exported now.
    public func exportForDelivery(
        _ article: Article, profile: DeliveryProfile?, fallback: DeliveryProfile, language: String = "en", sendingUnread: Bool = false,
        progress: (FrameCount, FrameCount) -> Void = { _, _ in }
    ) throws(NarrationError) -> (job: OutboxJob, exported: Bool) {
        if !sendingUnread, try catalog.order(of: article.id).count > 0 { try catalog.readingPlan(of: article).requireFinished() }
        // The current export is sent as it is when it is made from the article as it is now, and
        // its file is on this host (in a service, another host may have made it).
        if let current = try currentJob(of: article.id), profile == nil || profile?.name == current.profile,
            current.fingerprint == (try catalog.fingerprint(of: article.id)), FileManager.default.fileExists(atPath: current.file.path) {
            return (current, false)
        }
        return (try queue(article, profile: profile ?? fallback, language: language, sendingUnread: sendingUnread, progress: progress).job, true)
    }

    /// The job as the catalog has it now, checked to be the article's export and made from the
    /// article as it is now; a job made from an older version is retired, never sent, and its
    /// files leave the outbox. Called with the article's delivery claim held.
    /// - Throws: `exportWithdrawn` saying why nothing was sent.
    func currentForSending(_ job: OutboxJob) throws(NarrationError) -> OutboxJob {
        let job = try stored(job)
        let title = (try? catalog.article(matching: job.articleID.rawValue).title) ?? job.file.lastPathComponent
        guard job.isCurrent else {
            throw Self.withdrawn(title: title, reason: job.retiredReason ?? .removed)
        }
        guard let fingerprint = job.fingerprint, fingerprint == (try catalog.fingerprint(of: job.articleID)) else {
            if let before = try catalog.retireJob(job.id, reason: .edited) { discardFiles(of: [before], claimHeld: true) }
            throw Self.withdrawn(title: title, reason: .edited)
        }
        return job
    }

    /// The job's sidecar as queue wrote it, with the files it carries beside the audio.
    /// - Throws: `fileCorrupt` when it cannot be read, or names a file that could reach outside
    ///   the job's folder (narrate never writes one).
    public func sidecar(of job: OutboxJob) throws(NarrationError) -> Sidecar {
        guard let sidecar = Self.decodedSidecar(Data(try FileSystem.contents(of: job.sidecarFile))) else {
            throw NarrationError(
                .fileCorrupt, "The sidecar \(job.sidecarFile.path) cannot be read, so nothing was sent. Queue the article again.",
                subject: .file(job.sidecarFile.path))
        }
        return sidecar
    }

    /// A sidecar's bytes as narrate wrote them (the outbox's, or an earlier delivery's at a
    /// destination), or nil when they cannot be read or name a file that could reach outside its
    /// folder (`..`, `/`), which narrate never writes.
    static func decodedSidecar(_ data: Data) -> Sidecar? {
        guard let sidecar = try? JSONDecoder.narrate.decode(Sidecar.self, from: data),
            (sidecar.files ?? []).allSatisfy({ SafeFileName.isSafeComponent(Substring($0.name)) })
        else { return nil }
        return sidecar
    }

    /// Counts an attempt of `job` to `destination` and records, before its first byte, where in
    /// `store` it writes: the job's last destination and place, and the attempt (so that a copy a
    /// killed attempt leaves is found and removed later, `removeStrayCopies(in:)`).
    func beginAttempt(_ job: inout OutboxJob, to destination: Destination, in store: some DeliveryStore, key: String) throws(NarrationError) {
        job.target = destination
        job.attempts += 1
        job.remotePath = store.location(of: key)
        job.lastError = nil
        try catalog.beginAttempt(job.row, destination: store.name, audioLocation: store.recordedLocation(of: key))
    }

    /// Puts a job whose attempt failed back in the state it had before (queued, or delivered to
    /// another destination), the attempt still counted and its error kept beside it.
    func restore(_ job: inout OutboxJob, to state: OutboxJob.State, after error: NarrationError) {
        job.state = state
        job.lastError = error.message
        try? catalog.updateOutbox(job.row)
    }

    /// The error of a delivery whose files arrived and were recorded but whose feed could not be
    /// changed: the job stays delivered, with the error beside it; delivering it again (nothing is
    /// sent twice) changes the feed. The kind stays the feed's error's, so that one that may pass
    /// is retried.
    func feedNotUpdated(_ job: inout OutboxJob, at destination: String, _ error: NarrationError) -> NarrationError {
        let failure = NarrationError(
            error.kind, "\(job.file.lastPathComponent) was delivered to \(destination), but its podcast feed was not updated: \(error.message)",
            subject: error.subject, cause: error.cause, remedy: error.remedy ?? .sendOutboxLater)
        job.lastError = failure.message
        try? catalog.updateOutbox(job.row)
        return failure
    }

    /// Why a job is not sent, and what to do.
    static func withdrawn(title: String, reason: OutboxJob.RetirementReason) -> NarrationError {
        let why = switch reason {
        case .edited: "\"\(title)\" changed after this export was made, so the export was withdrawn"
        case .requeued: "\"\(title)\" was queued again, so this older export was withdrawn"
        case .removed: "This export of \"\(title)\" was removed from the outbox"
        case .older: "This export of \"\(title)\" was made by an older narrate and cannot be checked against the chunks"
        }
        return NarrationError(.exportWithdrawn, "\(why); nothing was sent. Queue or submit the article again to send it as it is now.")
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
