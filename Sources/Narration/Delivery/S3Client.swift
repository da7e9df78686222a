import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NarrationCore

/// What HEAD says of an object.
struct S3ObjectHead: Sendable, Equatable {
    let bytes: Int
    /// Without the quotes S3 puts around it.
    let etag: String
    let contentType: String?
    /// `x-amz-meta-*` headers, named without the prefix, in lowercase.
    let metadata: [String: String]
}

/// A part of a multipart upload that the storage holds.
struct S3UploadedPart: Sendable, Equatable {
    let number: Int
    let etag: String
    let bytes: Int
}

/// The S3 operations delivery needs (PUT, HEAD, and the multipart upload's create, upload part,
/// list parts, complete and abort) over async-http-client, each request signed with SigV4.
///
/// Every failure becomes one `NarrationError` sentence that names the storage, and says whether
/// trying again may help (`storageUnreachable`, `storageUnavailable`) or not (`storageRefused`).
/// One client serves one delivery run; await `shutdown()` before letting it go.
final class S3Client: Sendable {
    let destination: S3Destination
    private let signer: SigV4Signer
    private let http: HTTPClient
    private let now: @Sendable () -> Date
    /// How long a request waits without a byte from the storage (`answerWait(environment:)`).
    let answerWait: Double

    /// How long a request waits without a byte from the storage before it fails as "did not
    /// answer" (and is retried): 15 s, counted from the moment the request has been sent, and
    /// again after every byte of the answer. `NARRATE_STORAGE_ANSWER_TIMEOUT` (seconds, 0.1 to
    /// 600) shortens it for tests.
    static func answerWait(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
        guard let text = environment["NARRATE_STORAGE_ANSWER_TIMEOUT"], let seconds = Double(text), (0.1...600).contains(seconds) else {
            return 15
        }
        return seconds
    }

    /// - Parameters:
    ///   - now: the time requests are signed with (the system clock; tests move it).
    ///   - answerWait: seconds a request waits without a byte from the storage.
    init(
        destination: S3Destination, credentials: S3Credentials, now: @escaping @Sendable () -> Date = { Date() },
        answerWait: Double = S3Client.answerWait()
    ) {
        self.destination = destination
        signer = SigV4Signer(credentials: credentials, region: destination.region)
        self.now = now
        self.answerWait = answerWait
        // async-http-client's read timeout is the time without a byte of the answer, started once
        // the request is sent. Its write timeout is left unset: it also fires when this machine is
        // too busy to hand over the next piece of the body, which a loaded 2-core run showed for a
        // small PUT to a local server; a storage that takes nothing is bounded by the request's
        // 10-minute deadline instead.
        let timeout = HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .milliseconds(Int64(answerWait * 1000)))
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: timeout, decompression: .disabled)
        configuration.httpVersion = .http1Only
        http = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    func shutdown() async {
        try? await http.shutdown()
    }

    // MARK: Operations

    /// Stores `body` at `key` in one request; the storage checks it against its MD5.
    /// - Returns: the object's ETag.
    func putObject(
        key: String, body: Data, contentType: String, metadata: [String: String] = [:], progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws(NarrationError) -> String {
        var headers = ["content-type": contentType, "content-md5": Self.md5Base64(body)]
        for (name, value) in metadata { headers["x-amz-meta-\(name)"] = value }
        let response = try await send(.PUT, key: key, headers: headers, body: body, progress: progress, doing: "storing \(key)")
        return Self.unquoted(response.headers.first(name: "etag") ?? "")
    }

    /// What the storage holds at `key`, or nil if nothing.
    func headObject(key: String) async throws(NarrationError) -> S3ObjectHead? {
        let response: Response
        do {
            response = try await send(.HEAD, key: key, accepting: [404], doing: "checking \(key)")
        } catch where error.kind == .storageRefused {
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
    func createMultipartUpload(key: String, contentType: String, metadata: [String: String]) async throws(NarrationError) -> String {
        var headers = ["content-type": contentType]
        for (name, value) in metadata { headers["x-amz-meta-\(name)"] = value }
        let response = try await send(.POST, key: key, query: [("uploads", "")], headers: headers, doing: "starting the upload of \(key)")
        guard let id = S3XML(String(decoding: response.body, as: UTF8.self)).value(of: "UploadId"), !id.isEmpty else {
            throw NarrationError(.storageUnavailable, "The storage at \(destination.endpoint) began an upload of \(key) without saying its id; try again.")
        }
        return id
    }

    /// Sends part `number` (1…10 000) of an upload. - Returns: the part's ETag.
    func uploadPart(
        key: String, uploadID: String, number: Int, body: Data, progress: @escaping @Sendable (Int) -> Void
    ) async throws(NarrationError) -> String {
        let response = try await send(
            .PUT, key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)],
            headers: ["content-md5": Self.md5Base64(body)], body: body, progress: progress, doing: "sending part \(number) of \(key)")
        return Self.unquoted(response.headers.first(name: "etag") ?? "")
    }

    /// The parts the storage holds for an upload, or nil when it no longer knows the upload.
    func listParts(key: String, uploadID: String) async throws(NarrationError) -> [S3UploadedPart]? {
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
    func completeMultipartUpload(key: String, uploadID: String, parts: [S3UploadedPart]) async throws(NarrationError) -> String {
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
    func abortMultipartUpload(key: String, uploadID: String) async throws(NarrationError) {
        _ = try await send(.DELETE, key: key, query: [("uploadId", uploadID)], accepting: [404], doing: "dropping an old upload of \(key)")
    }

    /// Deletes the object at `key`; one that is not there is fine.
    func deleteObject(key: String) async throws(NarrationError) {
        _ = try await send(.DELETE, key: key, accepting: [404], doing: "removing \(key)")
    }

    // MARK: Requests

    private struct Response {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
    }

    /// Signs and sends one request; a 2xx (or a status in `accepting`) is returned, anything else thrown.
    private func send(
        _ method: HTTPMethod, key: String, query: [(String, String)] = [], headers extra: [String: String] = [:], body: Data? = nil,
        accepting: Set<Int> = [], progress: @escaping @Sendable (Int) -> Void = { _ in }, doing operation: String
    ) async throws(NarrationError) -> Response {
        let address = destination.address(ofKey: key)
        var headers = extra
        headers["host"] = address.host
        let payload = body ?? Data()
        let signable = SignableRequest(
            method: method.rawValue, path: address.path, query: query.map { (name: $0.0, value: $0.1) }, headers: headers,
            payloadHash: Checksum.sha256(payload))
        headers.merge(signer.signingHeaders(for: signable, at: now())) { _, signed in signed }
        let queryText = query.map { SigV4Signer.encode($0.0, keepingSlashes: false) + "=" + SigV4Signer.encode($0.1, keepingSlashes: false) }
            .joined(separator: "&")
        var request = HTTPClientRequest(
            url: "\(address.scheme)://\(address.host)\(SigV4Signer.encode(address.path, keepingSlashes: true))"
                + (queryText.isEmpty ? "" : "?\(queryText)"))
        request.method = method
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.headers.add(name: name, value: value) }
        if let body {
            request.body = .stream(ReportingBody(data: body, report: progress), length: .known(Int64(body.count)))
        }
        let response: Response
        do {
            let answer = try await http.execute(request, timeout: .minutes(10))
            let bytes = try await answer.body.collect(upTo: 8 * 1024 * 1024)
            response = Response(status: Int(answer.status.code), headers: answer.headers, body: Data(bytes.readableBytesView))
        } catch {
            throw transportFailure(error, doing: operation)
        }
        guard (200..<300).contains(response.status) || accepting.contains(response.status) else {
            let document = S3XML(String(decoding: response.body, as: UTF8.self))
            throw refusal(status: response.status, document: document, headers: response.headers, doing: operation)
        }
        return response
    }

    // MARK: Failures

    /// A request that got no answer: the storage could not be reached, or the connection broke.
    private func transportFailure(_ error: any Error, doing operation: String) -> NarrationError {
        let retry = "The file stays in the outbox; \"narrate outbox push\" tries again."
        if Self.isConnectFailure(error) {
            return NarrationError(
                .storageUnreachable,
                "Could not reach the storage at \(destination.endpoint) (\(Self.describe(error))). Check the endpoint and the network. \(retry)")
        }
        let wait = String(format: "%g", answerWait)
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout:
                return NarrationError(
                    .storageUnavailable,
                    "The storage at \(destination.endpoint) did not answer in \(wait) s while \(operation); it may be overloaded or stuck. \(retry)")
            case .deadlineExceeded:
                return NarrationError(
                    .storageUnavailable, "The storage at \(destination.endpoint) did not finish \(operation) in 10 minutes. \(retry)")
            default:
                break
            }
        }
        return NarrationError(
            .storageUnavailable, "The connection to \(destination.endpoint) broke while \(operation) (\(Self.describe(error))). \(retry)")
    }

    /// An answer that was not a success, as a sentence: which credential is wrong, which bucket
    /// is missing, how far the clock is off.
    private func refusal(status: Int, document: S3XML, headers: HTTPHeaders, doing operation: String) -> NarrationError {
        let code = document.value(of: "Code") ?? ""
        let reason = document.value(of: "Message").map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
        let storage = destination.endpoint
        let keyID = signer.credentials.accessKeyID
        switch code {
        case "InvalidAccessKeyId":
            return NarrationError(
                .storageRefused,
                "The storage at \(storage) does not know the access key ID \"\(keyID)\" (InvalidAccessKeyId). Check AWS_ACCESS_KEY_ID or the credentials file.")
        case "SignatureDoesNotMatch":
            return NarrationError(
                .storageRefused,
                "The storage at \(storage) knows the access key ID \"\(keyID)\" but not its secret (SignatureDoesNotMatch). Check AWS_SECRET_ACCESS_KEY or the credentials file.")
        case "NoSuchBucket":
            return NarrationError(
                .storageRefused,
                "The bucket \"\(destination.bucket)\" does not exist at \(storage) (NoSuchBucket). Create it, or correct the s3:// address.")
        case "RequestTimeTooSkewed":
            return NarrationError(
                .storageRefused,
                "This computer's clock is \(clockSkew(headers: headers, document: document)) the storage's (RequestTimeTooSkewed), so it refuses our signature. Set the clock right (timedatectl set-ntp true) and push again.")
        case "AccessDenied":
            return NarrationError(
                .storageRefused,
                "The storage at \(storage) denied access key ID \"\(keyID)\" \(operation) (AccessDenied\(reason.map { ": \($0)" } ?? "")). Ask for write access to \(destination).")
        case "BadDigest", "InvalidDigest":
            return NarrationError(
                .storageUnavailable,
                "The storage at \(storage) received different bytes than were sent while \(operation) (\(code)). The file stays in the outbox; \"narrate outbox push\" tries again.")
        default:
            break
        }
        let phrase = HTTPResponseStatus(statusCode: status).reasonPhrase
        let detail = code.isEmpty ? "\(status) \(phrase)" : "\(status) \(code)\(reason.map { ": \($0)" } ?? "")"
        if status >= 500 || status == 429 {
            return NarrationError(
                .storageUnavailable,
                "The storage at \(storage) failed while \(operation) (\(detail)). The file stays in the outbox; \"narrate outbox push\" tries again.")
        }
        return NarrationError(.storageRefused, "The storage at \(storage) refused \(operation) (\(detail)).")
    }

    /// "N minutes ahead of" or "behind", from the server's Date header or ServerTime.
    private func clockSkew(headers: HTTPHeaders, document: S3XML) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let serverTime = headers.first(name: "date").flatMap(formatter.date(from:))
            ?? document.value(of: "ServerTime").flatMap { iso.date(from: $0) ?? ISO8601DateFormatter().date(from: $0) }
        guard let serverTime else { return "too far from" }
        let offset = now().timeIntervalSince(serverTime)
        let minutes = Int((abs(offset) / 60).rounded())
        return "\(minutes) minute\(minutes == 1 ? "" : "s") \(offset > 0 ? "ahead of" : "behind")"
    }

    private static func isConnectFailure(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError, error == .connectTimeout { return true }
        if error is NIOConnectionError { return true }
        if let error = error as? IOError {
            return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL].contains(error.errnoCode)
        }
        return false
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            if let first = error.connectionErrors.first { return describe(first.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "its name could not be resolved" }
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        if let error = error as? HTTPClientError {
            switch error {
            case .remoteConnectionClosed: return "the storage closed the connection"
            case .readTimeout, .deadlineExceeded: return "no answer in time"
            case .connectTimeout: return "no answer to the connection in 10 s"
            default: return "\(error)"
            }
        }
        return "\(error)"
    }

    // MARK: Digests

    static func md5Base64(_ data: Data) -> String { Checksum.md5(data).base64EncodedString() }

    /// The ETag S3 gives a multipart object: the MD5 of the parts' MD5s, then "-" and the part count.
    static func multipartETag(partMD5s: [Data]) -> String {
        Checksum.hex(Checksum.md5(partMD5s.reduce(Data(), +))) + "-\(partMD5s.count)"
    }

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
