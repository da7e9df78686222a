import Foundation
import Narration

/// An outbox job as `--json` prints it.
struct OutboxJobJSON: Encodable {
    let id: String
    let articleId: String
    /// exporting, queued, delivered or retired (withdrawn).
    let state: String
    /// Why a retired job was withdrawn: edited, requeued, removed or older.
    let retiredReason: String?
    let file: String
    let sidecar: String
    let sha256: String
    let bytes: Int
    let profile: String
    let destination: String?
    let attempts: Int
    let lastError: String?
    let remotePath: String?
    let queuedAt: Date
    let deliveredAt: Date?

    init(_ job: OutboxJob) {
        id = job.id
        articleId = job.articleID.rawValue
        state = job.state.rawValue
        retiredReason = job.retiredReason?.rawValue
        file = job.file.path
        sidecar = job.sidecarFile.path
        sha256 = job.sha256
        bytes = job.bytes
        profile = job.profile
        destination = job.destination
        attempts = job.attempts
        lastError = job.lastError
        remotePath = job.remotePath
        queuedAt = job.queuedAt
        deliveredAt = job.deliveredAt
    }
}
