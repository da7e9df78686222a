/// A bucket in S3-compatible object storage (AWS S3, MinIO, Ceph, SeaweedFS, R2, B2…) and how to
/// reach it: endpoint, region and addressing style.
public struct S3Bucket: Sendable, Equatable {
    public var name: String
    /// "scheme://host[:port]", no path.
    public var endpoint: String
    public var region: String
    /// `https://endpoint/bucket/key` when true; `https://bucket.endpoint/key` otherwise.
    public var pathStyle: Bool

    public init(name: String, endpoint: String, region: String, pathStyle: Bool) {
        self.name = name
        self.endpoint = endpoint
        self.region = region
        self.pathStyle = pathStyle
    }

    /// Where requests for `key` go: the host to sign and the unencoded path.
    public func address(ofKey key: String) -> (scheme: String, host: String, path: String) {
        let scheme = String(endpoint.prefix { $0 != ":" })
        let host = String(endpoint.dropFirst(scheme.count + 3))
        let objectPath = key.isEmpty ? "/" : "/\(key)"
        return pathStyle ? (scheme, host, "/\(name)\(key.isEmpty ? "" : objectPath)") : (scheme, "\(name).\(host)", objectPath)
    }
}
