import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// What HEAD says of an object.
public struct S3ObjectHead: Sendable, Equatable {
    public let bytes: Int
    /// Without the quotes S3 puts around it.
    public let etag: String
    public let contentType: String?
    /// `x-amz-meta-*` headers, named without the prefix, in lowercase.
    public let metadata: [String: String]
}

/// A part of a multipart upload that the storage holds.
public struct S3UploadedPart: Sendable, Equatable {
    public let number: Int
    public let etag: String
    public let bytes: Int

    public init(number: Int, etag: String, bytes: Int) {
        self.number = number
        self.etag = etag
        self.bytes = bytes
    }
}

/// The S3 operations delivery needs (PUT, a conditional PUT and GET for feeds, HEAD, listing, and the multipart upload's create, upload part,
/// list parts, complete and abort) over async-http-client, each request signed with SigV4.
///
/// Every failure is an `ObjectStorageError`: the operation, the endpoint, and the HTTP status and
/// S3 code of a refusal or the `errno` of a connection that failed, for the engine to put into
/// words. One client serves one delivery run; await `shutdown()` before letting it go.
public final class S3Client: Sendable {
    public let bucket: S3Bucket
    public let credentials: S3Credentials
    private let signer: SigV4Signer
    private let http: HTTPClient
    private let now: @Sendable () -> Date
    /// How long a request waits without a byte from the storage (`answerWait(environment:)`).
    public let answerWait: Double
    /// How long a request tries to connect (a refused connection is tried again meanwhile).
    public let connectWait: Double

    /// How long a request waits without a byte from the storage before it fails as "did not
    /// answer" (and is retried): 15 s, counted from the moment the request has been sent, and
    /// again after every byte of the answer. `NARRATE_STORAGE_ANSWER_TIMEOUT` (seconds, 0.1 to
    /// 600) shortens it for tests.
    public static func answerWait(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
        guard let text = environment["NARRATE_STORAGE_ANSWER_TIMEOUT"], let seconds = Double(text), (0.1...600).contains(seconds) else {
            return 15
        }
        return seconds
    }

    /// - Parameters:
    ///   - now: the time requests are signed with (the system clock; tests move it).
    ///   - answerWait: seconds a request waits without a byte from the storage.
    ///   - connectWait: seconds a request tries to connect; async-http-client tries a refused
    ///     connection again until then.
    public init(
        bucket: S3Bucket, credentials: S3Credentials, now: @escaping @Sendable () -> Date = { Date() },
        answerWait: Double = S3Client.answerWait(), connectWait: Double = 10
    ) {
        self.bucket = bucket
        self.credentials = credentials
        signer = SigV4Signer(credentials: credentials, region: bucket.region)
        self.now = now
        self.answerWait = answerWait
        self.connectWait = connectWait
        // async-http-client's read timeout is the time without a byte of the answer, started once
        // the request is sent. Its write timeout is left unset: it also fires when this machine is
        // too busy to hand over the next piece of the body, which a loaded 2-core run showed for a
        // small PUT to a local server; a storage that takes nothing is bounded by the request's
        // 10-minute deadline instead.
        let timeout = HTTPClient.Configuration.Timeout(
            connect: .milliseconds(Int64(connectWait * 1000)), read: .milliseconds(Int64(answerWait * 1000)))
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: timeout, decompression: .disabled)
        configuration.httpVersion = .http1Only
        http = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    public func shutdown() async {
        guard !isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try? await http.shutdown()
    }

    /// Whether `shutdown()` has begun.
    private let isShutDown = Atomic<Bool>(false)

    /// A client let go without `shutdown()` (a delivery that ended by an error thrown past its
    /// clean-up) still shuts its HTTP client down, in the background: async-http-client traps
    /// in a debug build, and leaks its connections in a release one, when a client is freed
    /// running.
    deinit {
        guard !isShutDown.load(ordering: .acquiring) else { return }
        http.shutdown { _ in }
    }

    // MARK: Operations

    /// Stores `body` at `key` in one request; the storage checks it against its MD5.
    /// - Returns: the object's ETag.
    public func putObject(
        key: String, body: Data, contentType: String, metadata: [String: String] = [:], progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws(ObjectStorageError) -> String {
        var headers = ["content-type": contentType, "content-md5": Self.md5Base64(body)]
        for (name, value) in metadata { headers["x-amz-meta-\(name)"] = value }
        let response = try await send(.PUT, key: key, headers: headers, body: body, progress: progress, doing: "storing \(key)")
        return Self.unquoted(response.headers.first(name: "etag") ?? "")
    }

    /// Stores `body` at `key` only if the object there is still the one whose ETag is `etag`
    /// (`If-Match`), or with `etag` nil only if there is none (`If-None-Match: *`): the write of
    /// a read-change-write that must not lose another writer's change.
    /// - Returns: false when the condition failed (412 Precondition Failed, or 409 when another
    ///   conditional write to the key was under way): read the object again and redo the change.
    public func putObjectIfUnchanged(key: String, body: Data, contentType: String, etag: String?) async throws(ObjectStorageError) -> Bool {
        var headers = ["content-type": contentType, "content-md5": Self.md5Base64(body)]
        if let etag { headers["if-match"] = "\"\(etag)\"" } else { headers["if-none-match"] = "*" }
        let response = try await send(.PUT, key: key, headers: headers, body: body, accepting: [409, 412], doing: "storing \(key)")
        return (200..<300).contains(response.status)
    }

    /// The object at `key` (at most 8 MiB) and its ETag, or nil if nothing is there.
    public func getObject(key: String) async throws(ObjectStorageError) -> (body: Data, etag: String)? {
        let response = try await send(.GET, key: key, accepting: [404], doing: "reading \(key)")
        guard response.status == 200 else { return nil }
        return (response.body, Self.unquoted(response.headers.first(name: "etag") ?? ""))
    }

    /// What the storage holds at `key`, or nil if nothing.
    public func headObject(key: String) async throws(ObjectStorageError) -> S3ObjectHead? {
        let response: Response
        do {
            response = try await send(.HEAD, key: key, accepting: [404], doing: "checking \(key)")
        } catch where error.status != nil {
            // A HEAD answer has no body to say why; the same GET's does.
            _ = try await send(.GET, key: key, headers: ["range": "bytes=0-0"], accepting: [404, 416], doing: "checking \(key)")
            throw error
        }
        guard response.status == 200 else { return nil }
        var metadata: [String: String] = [:]
        for (name, value) in response.headers where name.lowercased().hasPrefix("x-amz-meta-") {
            metadata[String(name.lowercased().dropFirst("x-amz-meta-".count))] = value
        }
        return S3ObjectHead(
            bytes: Int(response.headers.first(name: "content-length") ?? "") ?? -1,
            etag: Self.unquoted(response.headers.first(name: "etag") ?? ""),
            contentType: response.headers.first(name: "content-type"), metadata: metadata)
    }

    /// Begins a multipart upload to `key`. - Returns: its upload id.
    public func createMultipartUpload(key: String, contentType: String, metadata: [String: String]) async throws(ObjectStorageError) -> String {
        var headers = ["content-type": contentType]
        for (name, value) in metadata { headers["x-amz-meta-\(name)"] = value }
        let response = try await send(.POST, key: key, query: [("uploads", "")], headers: headers, doing: "starting the upload of \(key)")
        guard let id = S3XML(String(decoding: response.body, as: UTF8.self)).value(of: "UploadId"), !id.isEmpty else {
            throw ObjectStorageError(operation: "starting the upload of \(key)", endpoint: bucket.endpoint, failure: .incompleteAnswer(what: "the upload's id"))
        }
        return id
    }

    /// Sends part `number` (1…10 000) of an upload. - Returns: the part's ETag.
    public func uploadPart(
        key: String, uploadID: String, number: Int, body: Data, progress: @escaping @Sendable (Int) -> Void
    ) async throws(ObjectStorageError) -> String {
        let response = try await send(
            .PUT, key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)],
            headers: ["content-md5": Self.md5Base64(body)], body: body, progress: progress, doing: "sending part \(number) of \(key)")
        return Self.unquoted(response.headers.first(name: "etag") ?? "")
    }

    /// The parts the storage holds for an upload, or nil when it no longer knows the upload.
    public func listParts(key: String, uploadID: String) async throws(ObjectStorageError) -> [S3UploadedPart]? {
        var parts: [S3UploadedPart] = []
        var marker = 0
        while true {
            var query = [("uploadId", uploadID)]
            if marker > 0 { query.append(("part-number-marker", String(marker))) }
            let response = try await send(.GET, key: key, query: query, accepting: [404], doing: "listing the parts of \(key)")
            guard response.status == 200 else { return nil }
            let document = S3XML(String(decoding: response.body, as: UTF8.self))
            for part in document.elements(named: "Part") {
                guard let number = part.value(of: "PartNumber").flatMap({ Int($0) }), let etag = part.value(of: "ETag"),
                    let size = part.value(of: "Size").flatMap({ Int($0) })
                else { continue }
                parts.append(S3UploadedPart(number: number, etag: Self.unquoted(etag), bytes: size))
            }
            guard document.value(of: "IsTruncated") == "true", let next = document.value(of: "NextPartNumberMarker").flatMap({ Int($0) }),
                next > marker
            else { return parts }
            marker = next
        }
    }

    /// Joins the parts into the object. - Returns: the object's ETag.
    public func completeMultipartUpload(key: String, uploadID: String, parts: [S3UploadedPart]) async throws(ObjectStorageError) -> String {
        let list = parts.map { "<Part><PartNumber>\($0.number)</PartNumber><ETag>\"\($0.etag)\"</ETag></Part>" }.joined()
        let body = Data("<CompleteMultipartUpload>\(list)</CompleteMultipartUpload>".utf8)
        let response = try await send(
            .POST, key: key, query: [("uploadId", uploadID)], headers: ["content-type": "application/xml"], body: body,
            doing: "completing the upload of \(key)")
        // S3 may answer 200 and report the failure in the body, having kept the connection alive meanwhile.
        let document = S3XML(String(decoding: response.body, as: UTF8.self))
        if !document.elements(named: "Error").isEmpty {
            throw refusal(status: 500, document: document, headers: response.headers, doing: "completing the upload of \(key)")
        }
        return Self.unquoted(document.value(of: "ETag") ?? "")
    }

    /// Drops an upload and the parts sent for it; an upload the storage no longer knows is fine.
    public func abortMultipartUpload(key: String, uploadID: String) async throws(ObjectStorageError) {
        _ = try await send(.DELETE, key: key, query: [("uploadId", uploadID)], accepting: [404], doing: "dropping an old upload of \(key)")
    }

    /// The multipart uploads begun and neither completed nor aborted whose keys begin with
    /// `prefix` (ListMultipartUploads, page by page): each key and upload id.
    public func listMultipartUploads(prefix: String) async throws(ObjectStorageError) -> [(key: String, uploadID: String)] {
        var uploads: [(key: String, uploadID: String)] = []
        var marker: (key: String, uploadID: String)?
        while true {
            var query = [("prefix", prefix), ("uploads", "")]
            if let marker { query += [("key-marker", marker.key), ("upload-id-marker", marker.uploadID)] }
            query.sort { $0.0 < $1.0 }
            let response = try await send(.GET, key: "", query: query, doing: "listing the unfinished uploads of \(prefix)")
            let document = S3XML(String(decoding: response.body, as: UTF8.self))
            for upload in document.elements(named: "Upload") {
                guard let key = upload.value(of: "Key"), let id = upload.value(of: "UploadId") else { continue }
                uploads.append((key, id))
            }
            guard document.value(of: "IsTruncated") == "true", let key = document.value(of: "NextKeyMarker"),
                let id = document.value(of: "NextUploadIdMarker"), marker.map({ $0 != (key, id) }) ?? true
            else { return uploads }
            marker = (key, id)
        }
    }

    /// The keys of every object whose key begins with `prefix` (ListObjectsV2, page by page).
    public func listObjects(prefix: String) async throws(ObjectStorageError) -> [String] {
        var keys: [String] = []
        var token: String?
        while true {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            query.sort { $0.0 < $1.0 }
            let response = try await send(.GET, key: "", query: query, doing: "listing \(prefix.isEmpty ? "the bucket" : prefix)")
            let document = S3XML(String(decoding: response.body, as: UTF8.self))
            keys += document.elements(named: "Contents").compactMap { $0.value(of: "Key") }
            guard document.value(of: "IsTruncated") == "true", let next = document.value(of: "NextContinuationToken"), !next.isEmpty,
                next != token
            else { return keys }
            token = next
        }
    }

    /// Deletes the object at `key`; one that is not there is fine.
    public func deleteObject(key: String) async throws(ObjectStorageError) {
        _ = try await send(.DELETE, key: key, accepting: [404], doing: "removing \(key)")
    }

    // MARK: Requests

    private struct Response {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
    }

    /// The largest body handed to the HTTP client whole. The connection's event loop writes such a
    /// body itself, at once, and its progress is reported when the answer comes. A larger body (a
    /// part of a multipart upload) is streamed 64 KiB at a time with progress, by a task on the
    /// concurrency pool: when every pool thread is held by other work, that task can stall until
    /// the storage gives up waiting for the body (SeaweedFS: 500 InternalError, "i/o timeout"),
    /// which a feed's or a sidecar's small write then need not risk.
    static let wholeBodyLimit = 1024 * 1024

    /// Signs and sends one request; a 2xx (or a status in `accepting`) is returned, anything else thrown.
    private func send(
        _ method: HTTPMethod, key: String, query: [(String, String)] = [], headers extra: [String: String] = [:], body: Data? = nil,
        accepting: Set<Int> = [], progress: @escaping @Sendable (Int) -> Void = { _ in }, doing operation: String
    ) async throws(ObjectStorageError) -> Response {
        let address = bucket.address(ofKey: key)
        var headers = extra
        headers["host"] = address.host
        let payload = body ?? Data()
        let signable = SignableRequest(
            method: method.rawValue, path: address.path, query: query.map { (name: $0.0, value: $0.1) }, headers: headers,
            payloadHash: Digest.sha256Hex(payload))
        headers.merge(signer.signingHeaders(for: signable, at: now())) { _, signed in signed }
        let queryText = query.map { SigV4Signer.encode($0.0, keepingSlashes: false) + "=" + SigV4Signer.encode($0.1, keepingSlashes: false) }
            .joined(separator: "&")
        var request = HTTPClientRequest(
            url: "\(address.scheme)://\(address.host)\(SigV4Signer.encode(address.path, keepingSlashes: true))"
                + (queryText.isEmpty ? "" : "?\(queryText)"))
        request.method = method
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.headers.add(name: name, value: value) }
        let writtenWhole = (body?.count ?? 0) <= Self.wholeBodyLimit
        if let body {
            if writtenWhole { progress(0) }  // under way: the bytes are counted when the answer comes
            request.body = writtenWhole
                ? .bytes(ByteBuffer(bytes: body))
                : .stream(ReportingBody(data: body, report: progress), length: .known(Int64(body.count)))
        }
        let response: Response
        do {
            let answer = try await http.execute(request, timeout: .minutes(10))
            let bytes = try await answer.body.collect(upTo: 8 * 1024 * 1024)
            response = Response(status: Int(answer.status.code), headers: answer.headers, body: Data(bytes.readableBytesView))
        } catch {
            throw transportFailure(error, doing: operation)
        }
        if let body, writtenWhole { progress(body.count) }
        guard (200..<300).contains(response.status) || accepting.contains(response.status) else {
            let document = S3XML(String(decoding: response.body, as: UTF8.self))
            throw refusal(status: response.status, document: document, headers: response.headers, doing: operation)
        }
        return response
    }

    // MARK: Failures

    /// A request that got no answer: the storage could not be reached, or the connection broke.
    private func transportFailure(_ error: any Error, doing operation: String) -> ObjectStorageError {
        let failure: ObjectStorageError.Failure
        if Self.isConnectFailure(error) {
            failure = .unreachable(transport(error))
        } else if let error = error as? HTTPClientError, error == .readTimeout {
            failure = .noAnswer(seconds: answerWait)
        } else if let error = error as? HTTPClientError, error == .deadlineExceeded {
            failure = .deadlineExceeded(minutes: 10)
        } else {
            failure = .connectionBroke(transport(error))
        }
        return ObjectStorageError(operation: operation, endpoint: bucket.endpoint, failure: failure)
    }

    /// An answer that was not a success: its status, and the code, message and server time S3's
    /// XML error document (or the Date header) gave.
    private func refusal(status: Int, document: S3XML, headers: HTTPHeaders, doing operation: String) -> ObjectStorageError {
        let code = document.value(of: "Code").flatMap { $0.isEmpty ? nil : $0 }
        let message = document.value(of: "Message").map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
        return ObjectStorageError(
            operation: operation, endpoint: bucket.endpoint,
            failure: .refused(status: status, code: code, message: message, serverTime: Self.serverTime(headers: headers, document: document)))
    }

    /// The storage's clock, from its Date header or an error's ServerTime.
    private static func serverTime(headers: HTTPHeaders, document: S3XML) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return headers.first(name: "date").flatMap(formatter.date(from:))
            ?? document.value(of: "ServerTime").flatMap { iso.date(from: $0) ?? ISO8601DateFormatter().date(from: $0) }
    }

    private static func isConnectFailure(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError, error == .connectTimeout { return true }
        if error is NIOConnectionError { return true }
        if let error = error as? IOError {
            return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL].contains(error.errnoCode)
        }
        return false
    }

    private func transport(_ error: any Error) -> ObjectStorageError.Transport {
        if let error = error as? NIOConnectionError {
            if let first = error.connectionErrors.first { return transport(first.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return .nameNotResolved }
        }
        if let error = error as? IOError { return .system(errno: error.errnoCode) }
        if let error = error as? HTTPClientError {
            switch error {
            case .remoteConnectionClosed: return .closedByStorage
            case .connectTimeout: return .connectTimeout(seconds: Int(connectWait.rounded(.up)))
            default: return .other("\(error)")
            }
        }
        return .other("\(error)")
    }

    // MARK: Digests

    static func md5Base64(_ data: Data) -> String { Digest.md5(data).base64EncodedString() }

    static func unquoted(_ etag: String) -> String { etag.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
}

/// A request body handed to the HTTP client 64 KiB at a time, reporting each piece as it goes,
/// which is what drives the upload progress bar.
private struct ReportingBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let data: Data
    let report: @Sendable (Int) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let data: Data
        let report: @Sendable (Int) -> Void
        var offset: Int

        mutating func next() async -> ByteBuffer? {
            guard offset < data.count else { return nil }
            let end = Swift.min(offset + 64 * 1024, data.count)
            let piece = ByteBuffer(bytes: data[data.startIndex + offset..<data.startIndex + end])
            report(end - offset)
            offset = end
            return piece
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(data: data, report: report, offset: 0) }
}
