import Foundation
import NarrationCore
import ObjectStorage

/// The engine's connection to one S3 destination: the object storage client for the destination's
/// bucket, whose failures come back as `NarrationError` sentences (see `StorageFailure`).
/// One connection serves one delivery run; await `shutdown()` before letting it go.
final class StorageConnection: Sendable {
    let destination: S3Destination
    private let client: S3Client
    private let now: @Sendable () -> Date

    /// - Parameter connectWait: seconds each request tries to connect (see `S3Client`).
    init(
        destination: S3Destination, credentials: S3Credentials, now: @escaping @Sendable () -> Date = { Date() }, connectWait: Double = 10
    ) {
        self.destination = destination
        self.now = now
        client = S3Client(bucket: destination.storageBucket, credentials: credentials, now: now, connectWait: connectWait)
    }

    func shutdown() async { await client.shutdown() }

    func putObject(
        key: String, body: Data, contentType: String, metadata: [String: String] = [:], progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws(NarrationError) -> String {
        try await translating { () async throws(ObjectStorageError) in
            try await client.putObject(key: key, body: body, contentType: contentType, metadata: metadata, progress: progress)
        }
    }

    /// See `S3Client.putObjectIfUnchanged`: false when another writer changed the object first.
    func putObjectIfUnchanged(key: String, body: Data, contentType: String, etag: String?) async throws(NarrationError) -> Bool {
        try await translating { () async throws(ObjectStorageError) in
            try await client.putObjectIfUnchanged(key: key, body: body, contentType: contentType, etag: etag)
        }
    }

    func getObject(key: String) async throws(NarrationError) -> (body: Data, etag: String)? {
        try await translating { () async throws(ObjectStorageError) in try await client.getObject(key: key) }
    }

    func headObject(key: String) async throws(NarrationError) -> S3ObjectHead? {
        try await translating { () async throws(ObjectStorageError) in try await client.headObject(key: key) }
    }

    func createMultipartUpload(key: String, contentType: String, metadata: [String: String]) async throws(NarrationError) -> String {
        try await translating { () async throws(ObjectStorageError) in
            try await client.createMultipartUpload(key: key, contentType: contentType, metadata: metadata)
        }
    }

    func uploadPart(
        key: String, uploadID: String, number: Int, body: Data, progress: @escaping @Sendable (Int) -> Void
    ) async throws(NarrationError) -> String {
        try await translating { () async throws(ObjectStorageError) in
            try await client.uploadPart(key: key, uploadID: uploadID, number: number, body: body, progress: progress)
        }
    }

    func listParts(key: String, uploadID: String) async throws(NarrationError) -> [S3UploadedPart]? {
        try await translating { () async throws(ObjectStorageError) in try await client.listParts(key: key, uploadID: uploadID) }
    }

    func completeMultipartUpload(key: String, uploadID: String, parts: [S3UploadedPart]) async throws(NarrationError) -> String {
        try await translating { () async throws(ObjectStorageError) in
            try await client.completeMultipartUpload(key: key, uploadID: uploadID, parts: parts)
        }
    }

    func listMultipartUploads(prefix: String) async throws(NarrationError) -> [(key: String, uploadID: String)] {
        try await translating { () async throws(ObjectStorageError) in try await client.listMultipartUploads(prefix: prefix) }
    }

    func abortMultipartUpload(key: String, uploadID: String) async throws(NarrationError) {
        try await translating { () async throws(ObjectStorageError) in try await client.abortMultipartUpload(key: key, uploadID: uploadID) }
    }

    func deleteObject(key: String) async throws(NarrationError) {
        try await translating { () async throws(ObjectStorageError) in try await client.deleteObject(key: key) }
    }

    func listObjects(prefix: String) async throws(NarrationError) -> [String] {
        try await translating { () async throws(ObjectStorageError) in try await client.listObjects(prefix: prefix) }
    }

    private func translating<T>(_ request: () async throws(ObjectStorageError) -> T) async throws(NarrationError) -> T {
        do {
            return try await request()
        } catch {
            throw NarrationError(error, destination: destination, credentials: client.credentials, now: now())
        }
    }
}

extension S3Destination {
    /// The bucket this destination writes to, as the object storage client addresses it.
    var storageBucket: S3Bucket { S3Bucket(name: bucket, endpoint: endpoint, region: region, pathStyle: pathStyle) }
}
