import Foundation
import NarrationCore

extension NarrationLibrary {
    /// Removes from `store` the copies that attempts of retired jobs may have left there (a
    /// delivery killed after its copy was in place, before it was recorded), and gives up their
    /// unfinished multipart uploads; each copy only if it is
    /// still the copy with that attempt's SHA-256, with its sidecar unless that is a delivered
    /// one; the attempt is forgotten once its copy is gone (or is the delivered file).
    /// - Throws: the store's errors (the attempt then stays on record, for the next delivery to
    ///   try again); the catalog's.
    func removeStrayCopies(in store: some DeliveryStore) async throws(NarrationError) {
        // A killed attempt's unfinished upload too (another host's, say, whose job was made again).
        for (job, upload) in try catalog.abandonedUploads(at: store.name) {
            try await store.abandonUpload(id: upload.id, key: upload.key)
            try catalog.forgetUpload(of: job)
        }
        for (attempt, article, isDelivered) in try catalog.strayCopies(at: store.name) {
            if !isDelivered, let key = store.key(ofRecorded: attempt.audioLocation) {
                let sidecar = Self.sidecarKey(for: key)
                let sidecarIsDelivered = try isDeliveredFile(store.recordedLocation(of: sidecar), at: store.name, article: article, sidecar: true)
                try await Self.removeCopy(key, ifSHA256: attempt.sha256, sidecar: sidecarIsDelivered ? nil : sidecar, in: store)
            }
            try catalog.endAttempt(job: attempt.jobId, destination: store.name)
        }
    }

    /// Removes the copy at `key` if it is still the one with that SHA-256 (never another
    /// delivery's that took its place), and then `sidecar`, if given, when no copy is left at `key`.
    /// Returning means no copy with that SHA-256 is left there.
    /// - Throws: the store's errors (`foreignFile` for a symbolic link at `key` in a folder).
    static func removeCopy(_ key: String, ifSHA256 sha256: String, sidecar: String?, in store: some DeliveryStore) async throws(NarrationError) {
        if let head = try await store.head(key) {
            guard head.sha256 == sha256 else { return }
            try await store.delete(key)
        }
        if let sidecar { try await store.delete(sidecar) }
    }
}
