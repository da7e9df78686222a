/// Where `submit` delivers: a folder (a mounted share) or object storage.
public enum Destination: Sendable, Equatable, CustomStringConvertible {
    case folder(String)
    case s3(S3Destination)

    public var description: String {
        switch self {
        case .folder(let path): path
        case .s3(let storage): storage.description
        }
    }

    /// The object storage destination, or nil for a folder: what the catalog keeps beside the
    /// description to reach it again (endpoint, region, credentials).
    public var objectStorage: S3Destination? {
        if case .s3(let storage) = self { storage } else { nil }
    }
}
