public import struct Foundation.Date

/// One publication's podcast feed at a destination: the channel and an item per delivered
/// article, newest first. Pure: `FeedDocument` writes it as RSS, the engine's `FeedReader` reads
/// it back, and a delivery changes it with `publishing(_:)` and `removing(guid:)`.
public struct PodcastFeed: Sendable, Equatable {
    /// What describes the feed as a whole (RSS `<channel>`).
    public struct Channel: Sendable, Equatable {
        public var title: String
        /// The feed's own address, when the destination is served at a known public URL
        /// (`atom:link rel="self"`); nil: the feed's links are relative to wherever it is served.
        public var selfURL: String?
        /// A page for the publication (RSS `<link>`): the public URL's folder, or "./".
        public var link: String
        public var description: String
        /// A BCP 47 tag, e.g. "en" or "de".
        public var language: String
        public var author: String
        /// Cover art (square, 1400–3000 px, for podcast apps); nil: none.
        public var imageURL: String?

        public init(
            title: String, selfURL: String? = nil, link: String, description: String, language: String, author: String, imageURL: String? = nil
        ) {
            self.title = title
            self.selfURL = selfURL
            self.link = link
            self.description = description
            self.language = language
            self.author = author
            self.imageURL = imageURL
        }
    }

    /// A file an item links to: its address (absolute, or relative to the feed) and type.
    public struct Link: Sendable, Equatable {
        public var url: String
        public var type: String

        public init(url: String, type: String) {
            self.url = url
            self.type = type
        }
    }

    /// One delivered article.
    public struct Item: Sendable, Equatable {
        /// The article's id: an item is replaced, never duplicated, when its article is delivered again.
        public var guid: String
        public var title: String
        /// The article's first paragraph (or who narrated it, for an article without a text).
        public var description: String
        /// When the article was first published in this feed.
        public var published: Date
        public var enclosure: Link
        /// The audio file's size in bytes (RSS enclosure `length`).
        public var bytes: Int
        /// Whole seconds, rounded up (`itunes:duration`).
        public var durationSeconds: Int
        public var narrator: String
        /// `podcast:chapters` (JSON chapters), if delivered.
        public var chapters: Link?
        /// `podcast:transcript`s (WebVTT, SubRip), if delivered.
        public var transcripts: [Link]

        public init(
            guid: String, title: String, description: String, published: Date, enclosure: Link, bytes: Int, durationSeconds: Int,
            narrator: String, chapters: Link? = nil, transcripts: [Link] = []
        ) {
            self.guid = guid
            self.title = title
            self.description = description
            self.published = published
            self.enclosure = enclosure
            self.bytes = bytes
            self.durationSeconds = durationSeconds
            self.narrator = narrator
            self.chapters = chapters
            self.transcripts = transcripts
        }
    }

    public var channel: Channel
    /// Newest first.
    public private(set) var items: [Item]

    public init(channel: Channel, items: [Item] = []) {
        self.channel = channel
        self.items = Self.ordered(items)
    }

    /// The feed with `item` in it: it replaces the item of the same article (keeping the date it
    /// was first published), or is added.
    public func publishing(_ item: Item) -> PodcastFeed {
        var item = item
        var others = items
        if let index = others.firstIndex(where: { $0.guid == item.guid }) {
            item.published = others[index].published
            others.remove(at: index)
        }
        var feed = self
        feed.items = Self.ordered(others + [item])
        return feed
    }

    /// The feed with its newest `limit` items only.
    public func keepingNewest(_ limit: Int) -> PodcastFeed {
        var feed = self
        feed.items = Array(items.prefix(max(0, limit)))
        return feed
    }

    /// The feed without the item of article `guid`; the same feed when it has none.
    public func removing(guid: String) -> PodcastFeed {
        var feed = self
        feed.items.removeAll { $0.guid == guid }
        return feed
    }

    /// Newest first; items published at the same moment by their guid, so that the order never
    /// depends on which delivery wrote last.
    private static func ordered(_ items: [Item]) -> [Item] {
        items.sorted { $0.published != $1.published ? $0.published > $1.published : $0.guid < $1.guid }
    }
}
