import Foundation

/// How a destination's podcast feeds look and where their links point: config.toml's
/// `public_url`, `feed_title`, `feed_image`, `feed_language` and `feed_author` in a
/// `[destinations.NAME]` table.
///
/// A destination keeps one feed per publication, `<publication>/feed.xml` beside the
/// publication's `<date>/` folders. With a public URL (where the destination's top is served,
/// e.g. `https://cdn.example.org/narrations` for `s3://bucket/narrations`) every link is absolute;
/// without one, every link is relative to the feed itself, so the folder or bucket served as it
/// is works at once.
public struct FeedSettings: Sendable, Equatable {
    /// Where the destination's top folder is served, without a trailing slash; nil: links relative to the feed.
    public var publicURL: String?
    /// The feed's title; "{publication}" in it is replaced by the publication's name. Default: the publication's name.
    public var title: String?
    /// Cover art's address (absolute, or relative to the feed).
    public var imageURL: String?
    /// Default: config.toml's `language`.
    public var language: String?
    /// Default: the publication's name.
    public var author: String?

    public init(publicURL: String? = nil, title: String? = nil, imageURL: String? = nil, language: String? = nil, author: String? = nil) {
        self.publicURL = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.title = title
        self.imageURL = imageURL
        self.language = language
        self.author = author
    }

    public static let fileName = "feed.xml"

    /// The feed's path below the destination for a delivery at `deliveryPath`
    /// (`<publication>/<date>/<file>`): `<publication>/feed.xml`.
    public static func feedPath(forDeliveryPath deliveryPath: String) -> String {
        let publication = deliveryPath.split(separator: "/").first.map(String.init) ?? ""
        return publication.isEmpty ? fileName : "\(publication)/\(fileName)"
    }

    /// The address a feed at `feedPath` gives the file at `path` (both below the destination):
    /// below the public URL, or relative to the feed's folder. Each part is percent-encoded.
    public func address(of path: String, fromFeedAt feedPath: String) -> String {
        if let publicURL { return publicURL + "/" + Self.encoded(path) }
        let folder = feedPath.split(separator: "/").dropLast().joined(separator: "/")
        if folder.isEmpty { return Self.encoded(path) }
        if path.hasPrefix(folder + "/") { return Self.encoded(String(path.dropFirst(folder.count + 1))) }
        let up = Array(repeating: "..", count: folder.split(separator: "/").count)
        return Self.encoded((up + [path]).joined(separator: "/"))
    }

    /// The channel of the feed of `publication` at `feedPath`.
    public func channel(publication: String, feedPath: String, defaultLanguage: String) -> PodcastFeed.Channel {
        let name = publication.isEmpty ? "Narrated articles" : publication
        let title = self.title.map { $0.replacingOccurrences(of: "{publication}", with: name) } ?? name
        return PodcastFeed.Channel(
            title: title, selfURL: publicURL.map { $0 + "/" + Self.encoded(feedPath) },
            link: publicURL.map { $0 + "/" + Self.encoded(String(feedPath.dropLast(Self.fileName.count))) } ?? "./",
            description: "\(name), read aloud by volunteers.", language: language ?? defaultLanguage, author: author ?? name,
            imageURL: imageURL)
    }

    /// Each path component percent-encoded (spaces, quotes, `?`, `#`, `%` and non-ASCII), the
    /// slashes kept.
    static func encoded(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~!$&()*+,;=:@")
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
            .joined(separator: "/")
    }
}
