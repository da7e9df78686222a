/// A bucket and key prefix in S3-compatible object storage (AWS S3, MinIO, Ceph, SeaweedFS, R2,
/// B2…), and how to reach it: endpoint, region and addressing style.
public struct S3Destination: Sendable, Equatable, CustomStringConvertible {
    public var bucket: String
    /// Key prefix without leading or trailing slashes; empty for the bucket's root.
    public var prefix: String
    /// "scheme://host[:port]", no path.
    public var endpoint: String
    public var region: String
    /// `https://endpoint/bucket/key` when true; `https://bucket.endpoint/key` otherwise.
    public var pathStyle: Bool
    /// A credentials file to read the key pair from when the environment has none.
    public var credentialsFile: String?
    /// The `[section]` of the credentials file to use.
    public var credentialsProfile: String?

    public static let defaultRegion = "us-east-1"

    /// Parses "s3://BUCKET/PREFIX"; `endpoint` defaults to AWS's regional endpoint.
    /// - Throws: `usage` naming the part of the address that is wrong.
    public init(
        url: String, endpoint: String? = nil, region: String? = nil, pathStyle: Bool = false,
        credentialsFile: String? = nil, credentialsProfile: String? = nil
    ) throws(NarrationError) {
        guard url.hasPrefix("s3://") else {
            throw .usage("\"\(url)\" is not an S3 address; write it as s3://BUCKET/PREFIX.")
        }
        let rest = url.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        try Self.validate(bucket: bucket, in: url)
        let prefix = rest.dropFirst(bucket.count).split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        let region = region ?? Self.defaultRegion
        guard !region.isEmpty, region.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw .usage("The region \"\(region)\" is not a region name like us-east-1 or eu-west-2.")
        }
        self.bucket = bucket
        self.prefix = prefix
        self.region = region
        self.endpoint = try Self.normalize(endpoint: endpoint ?? "https://s3.\(region).amazonaws.com")
        self.pathStyle = pathStyle
        self.credentialsFile = credentialsFile
        self.credentialsProfile = credentialsProfile
    }

    public var description: String { prefix.isEmpty ? "s3://\(bucket)" : "s3://\(bucket)/\(prefix)" }

    /// The object key for a path below the prefix.
    public func key(for path: String) -> String { prefix.isEmpty ? path : "\(prefix)/\(path)" }

    /// Bucket names as S3 allows them: 3–63 lowercase letters, digits, dots and hyphens,
    /// beginning and ending with a letter or digit.
    static func validate(bucket: String, in url: String) throws(NarrationError) {
        let allowed = bucket.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "." || $0 == "-") }
        guard (3...63).contains(bucket.count), allowed, bucket.first!.isLetter || bucket.first!.isNumber,
            bucket.last!.isLetter || bucket.last!.isNumber
        else {
            throw .usage(
                "\"\(bucket)\" in \(url) is not a bucket name: use 3–63 lowercase letters, digits, dots and hyphens, as in s3://radio-archive/narrations.")
        }
    }

    static func normalize(endpoint: String) throws(NarrationError) -> String {
        var text = endpoint
        while text.hasSuffix("/") { text.removeLast() }
        let scheme = text.prefix { $0 != ":" }
        let host = text.dropFirst(scheme.count).dropFirst(3)
        guard scheme == "http" || scheme == "https", text.dropFirst(scheme.count).hasPrefix("://"), !host.isEmpty,
            !host.contains("/"), !host.contains("?"), !host.contains("@"), !host.contains(" ")
        else {
            throw .usage("The endpoint \"\(endpoint)\" is not a URL like https://s3.example.org or http://127.0.0.1:8333.")
        }
        return text
    }
}
