import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
public import NarrationCore

/// Reads a `feed.xml` that `FeedDocument` wrote back into a `PodcastFeed`, so that a delivery can
/// change one item and keep every other as it was. Uses Foundation's `XMLParser` (libxml2
/// underneath), a well-kept parser, rather than reading the XML by hand.
///
/// A feed narrate did not write, or cannot read, is refused rather than overwritten: replacing it
/// would lose its items.
enum FeedReader {
    /// Why a feed could not be read.
    struct Unreadable: Error {
        let reason: String
    }

    static func read(_ data: Data) throws(Unreadable) -> PodcastFeed {
        let delegate = Delegate()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = delegate
        guard parser.parse() else {
            throw Unreadable(reason: "it is not well-formed XML (\(parser.parserError.map { "\($0.localizedDescription)" } ?? "no reason given"), line \(parser.lineNumber))")
        }
        guard delegate.sawRSS else { throw Unreadable(reason: "it is not an RSS feed (no <rss><channel>)") }
        // Foundation's parser can report success on a document cut off in the middle.
        guard delegate.endedRSS else { throw Unreadable(reason: "it is cut off before its end (no </rss>)") }
        guard let channel = delegate.channel else { throw Unreadable(reason: "it is not an RSS feed (no <rss><channel>)") }
        if let problem = delegate.problem { throw Unreadable(reason: problem) }
        return PodcastFeed(channel: channel, items: delegate.items)
    }

    /// Collects the channel's and items' fields as `FeedDocument` writes them.
    private final class Delegate: NSObject, XMLParserDelegate {
        var sawRSS = false
        var endedRSS = false
        var channel: PodcastFeed.Channel?
        var items: [PodcastFeed.Item] = []
        var problem: String?

        private var channelFields: [String: String] = [:]
        private var itemFields: [String: String]?
        private var enclosure: (link: PodcastFeed.Link, bytes: Int)?
        private var chapters: PodcastFeed.Link?
        private var transcripts: [PodcastFeed.Link] = []
        private var text = ""
        private var path: [String] = []
        private var selfURL: String?
        private var imageURL: String?

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            let key = Self.key(name, namespaceURI)
            path.append(key)
            text = ""
            switch key {
            case "rss": sawRSS = true
            case "item":
                itemFields = [:]
                enclosure = nil
                chapters = nil
                transcripts = []
            case "enclosure":
                if let url = attributes["url"] {
                    enclosure = (PodcastFeed.Link(url: url, type: attributes["type"] ?? ""), Int(attributes["length"] ?? "") ?? 0)
                }
            case "podcast:chapters":
                if let url = attributes["url"] { chapters = PodcastFeed.Link(url: url, type: attributes["type"] ?? FeedDocument.chaptersType) }
            case "podcast:transcript":
                if let url = attributes["url"] { transcripts.append(PodcastFeed.Link(url: url, type: attributes["type"] ?? "")) }
            case "atom:link":
                if attributes["rel"] == "self" { selfURL = attributes["href"] }
            case "itunes:image":
                if itemFields == nil { imageURL = attributes["href"] }
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let key = Self.key(name, namespaceURI)
            let value = text
            text = ""
            defer { path.removeLast() }
            if key == "rss" { endedRSS = true }
            if key == "item" {
                finishItem()
                return
            }
            if key == "channel" {
                channel = PodcastFeed.Channel(
                    title: channelFields["title"] ?? "", selfURL: selfURL, link: channelFields["link"] ?? "./",
                    description: channelFields["description"] ?? "", language: channelFields["language"] ?? "",
                    author: channelFields["itunes:author"] ?? "", imageURL: imageURL)
                return
            }
            // Only the channel's and items' own fields, never an <image>'s <title>.
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            if parent == "item" {
                itemFields?[key] = value
            } else if parent == "channel" {
                channelFields[key] = value
            }
        }

        private func finishItem() {
            guard let fields = itemFields else { return }
            itemFields = nil
            guard let guid = fields["guid"], let enclosure, let published = fields["pubDate"].flatMap(FeedDocument.date(rfc822:)) else {
                problem = "an item has no guid, enclosure or date narrate can read (\(fields["title"] ?? "untitled"))"
                return
            }
            items.append(PodcastFeed.Item(
                guid: guid, title: fields["title"] ?? "", description: fields["description"] ?? "", published: published,
                enclosure: enclosure.link, bytes: enclosure.bytes, durationSeconds: Int(fields["itunes:duration"] ?? "") ?? 0,
                narrator: fields["podcast:person"] ?? fields["itunes:author"] ?? "", chapters: chapters, transcripts: transcripts))
        }

        /// "title", "itunes:duration", "podcast:chapters", "atom:link": the names `FeedDocument`
        /// writes, whatever prefixes the file used for the namespaces.
        private static func key(_ name: String, _ namespace: String?) -> String {
            switch namespace {
            case FeedDocument.itunesNamespace: "itunes:" + name
            case FeedDocument.podcastNamespace: "podcast:" + name
            case FeedDocument.atomNamespace: "atom:" + name
            default: name
            }
        }
    }
}
