import Crypto
public import Foundation

/// The key pair that signs requests to S3-compatible storage.
public struct S3Credentials: Sendable, Equatable {
    public let accessKeyID: String
    public let secretAccessKey: String
    public let sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

/// An HTTP request as AWS Signature Version 4 sees it.
public struct SignableRequest: Sendable, Equatable {
    public var method: String
    /// The path, not yet percent-encoded ("/bucket/key with spaces.mp3").
    public var path: String
    /// Query parameters, not yet percent-encoded.
    public var query: [(name: String, value: String)]
    /// Header names in any case; `host` must be among them.
    public var headers: [String: String]
    /// SHA-256 of the body in lowercase hex, or "UNSIGNED-PAYLOAD".
    public var payloadHash: String

    public init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [String: String], payloadHash: String) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.payloadHash = payloadHash
    }

    public static func == (lhs: SignableRequest, rhs: SignableRequest) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.headers == rhs.headers && lhs.payloadHash == rhs.payloadHash
            && lhs.query.map(\.name) == rhs.query.map(\.name) && lhs.query.map(\.value) == rhs.query.map(\.value)
    }
}

/// AWS Signature Version 4 for S3: the canonical request, the string to sign, the signing key
/// derived from the secret, and the `Authorization` header.
///
/// Written on swift-crypto (HMAC-SHA256, SHA-256) because no S3 SDK for Swift is available on
/// this project's machines; kept to what S3 needs (header-based auth, one service) and checked
/// against AWS's published examples.
public struct SigV4Signer: Sendable {
    public let credentials: S3Credentials
    public let region: String
    public let service: String

    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// SHA-256 of an empty body, the payload hash of GET and HEAD requests.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    public static func sha256Hex(_ data: Data) -> String { Digest.sha256Hex(data) }

    /// The headers to add to `request` at `date`: `x-amz-date`, `x-amz-content-sha256`, the
    /// session token if any, and `Authorization`.
    public func signingHeaders(for request: SignableRequest, at date: Date) -> [String: String] {
        var request = request
        let stamp = Self.timestamp(date)
        request.headers["x-amz-date"] = stamp
        request.headers["x-amz-content-sha256"] = request.payloadHash
        if let token = credentials.sessionToken { request.headers["x-amz-security-token"] = token }
        var added = [
            "x-amz-date": stamp, "x-amz-content-sha256": request.payloadHash,
            "Authorization": authorization(for: request, timestamp: stamp),
        ]
        if let token = credentials.sessionToken { added["x-amz-security-token"] = token }
        return added
    }

    /// The `Authorization` header for a request whose headers already hold `x-amz-date` = `timestamp`.
    public func authorization(for request: SignableRequest, timestamp: String) -> String {
        let day = String(timestamp.prefix(8))
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let signed = signedHeaders(request)
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope),SignedHeaders=\(signed),Signature=\(signature(for: request, timestamp: timestamp))"
    }

    public func signature(for request: SignableRequest, timestamp: String) -> String {
        let day = String(timestamp.prefix(8))
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let toSign = stringToSign(for: request, timestamp: timestamp)
        return Digest.hex(HMAC<SHA256>.authenticationCode(for: Data(toSign.utf8), using: key))
    }

    public func stringToSign(for request: SignableRequest, timestamp: String) -> String {
        let scope = "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
        return "AWS4-HMAC-SHA256\n\(timestamp)\n\(scope)\n\(Self.sha256Hex(Data(canonicalRequest(request).utf8)))"
    }

    public func canonicalRequest(_ request: SignableRequest) -> String {
        let path = request.path.isEmpty ? "/" : Self.encode(request.path, keepingSlashes: true)
        let encoded: [(name: String, value: String)] = request.query.map { parameter in
            (Self.encode(parameter.name, keepingSlashes: false), Self.encode(parameter.value, keepingSlashes: false))
        }
        let sorted = encoded.sorted { left, right in left.name == right.name ? left.value < right.value : left.name < right.name }
        let query = sorted.map { parameter in parameter.name + "=" + parameter.value }.joined(separator: "&")
        let headers = canonicalHeaders(request)
        let headerLines = headers.map { "\($0.name):\($0.value)\n" }.joined()
        return [request.method, path, query, headerLines, signedHeaders(request), request.payloadHash].joined(separator: "\n")
    }

    private func canonicalHeaders(_ request: SignableRequest) -> [(name: String, value: String)] {
        request.headers.map { name, value in
            (name.lowercased(), value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " "))
        }.sorted { $0.name < $1.name }
    }

    private func signedHeaders(_ request: SignableRequest) -> String {
        canonicalHeaders(request).map(\.name).joined(separator: ";")
    }

    /// Percent-encodes all but the unreserved characters (A–Z a–z 0–9 - _ . ~), as SigV4 requires.
    static func encode(_ text: String, keepingSlashes: Bool) -> String {
        var result = ""
        for byte in text.utf8 {
            let character = Character(UnicodeScalar(byte))
            if character.isASCII && (character.isLetter || character.isNumber || "-_.~".contains(character))
                || (keepingSlashes && character == "/")
            {
                result.append(character)
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// "yyyyMMdd'T'HHmmss'Z'" in UTC.
    public static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
