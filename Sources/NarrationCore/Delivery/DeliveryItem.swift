/// What a delivery carries besides the audio file and its JSON sidecar, as config.toml's
/// `carries = ["audio", "transcript", "feed", "epub", "daisy"]` in a profile names it.
///
/// Queue makes each named item into the outbox job beside the audio, and submit delivers them
/// all as one job, each object verified, the feed last, since it links to the rest.
public enum DeliveryItem: String, Sendable, CaseIterable, Codable, Comparable {
    /// The audio file and its sidecar: always delivered.
    case audio
    /// The WebVTT and SubRip transcripts (for an article with a text).
    case transcript
    /// An item in the destination's podcast feed for the publication, with its JSON chapters.
    case feed
    /// An EPUB 3 book with media overlays (for an article with a text).
    case epub
    /// A DAISY 2.02 full-text-and-audio book, as one zip (for an article with a text).
    case daisy

    public static func < (lhs: DeliveryItem, rhs: DeliveryItem) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The items `names` lists, or the first name that is not one.
    public static func parse(_ names: [String]) -> Result<Set<DeliveryItem>, UnknownName> {
        var items: Set<DeliveryItem> = [.audio]
        for name in names {
            guard let item = DeliveryItem(rawValue: name.lowercased()) else { return .failure(UnknownName(name: name)) }
            items.insert(item)
        }
        return .success(items)
    }

    /// The files an item adds beside the audio file `<stem>.<ext>`, with their roles and types:
    /// one naming scheme for queue, delivery, and removing an earlier delivery's files.
    public var files: [(suffix: String, role: String, type: String)] {
        switch self {
        case .audio: []
        case .transcript: Transcript.Format.allCases.map { (".\($0.fileExtension)", "transcript", $0.feedType) }
        case .feed: [(".chapters.json", "chapters", FeedDocument.chaptersType)]
        case .epub: [(".epub", "epub", "application/epub+zip")]
        case .daisy: [(".daisy.zip", "daisy", "application/zip")]
        }
    }

    /// Every name any item may give a file beside the audio file `<stem>.<ext>`.
    public static func fileNames(stem: String) -> [String] {
        allCases.flatMap { $0.files.map { stem + $0.suffix } }
    }

    public struct UnknownName: Error, Equatable {
        public let name: String
    }
}
