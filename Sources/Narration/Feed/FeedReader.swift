import Foundation
public import NarrationCore
import NarrationText

/// Reads a `feed.xml` that `FeedDocument` wrote back into a `PodcastFeed`, so that a delivery can
/// change one item and keep every other as it was. The XML is read by libxml2 through
/// `XMLReader`, strictly: a damaged document is refused, never guessed at.
///
/// A feed narrate did not write, or cannot read, is refused rather than overwritten: replacing it
/// would lose its items.
enum FeedReader {
    /// Why a feed could not be read.
    struct Unreadable: Error {
        let reason: String
    }

    static func read(_ data: Data) throws(Unreadable) -> PodcastFeed {
        let root: XMLReader.Element
        do throws(XMLReader.Failure) {
            root = try XMLReader.read(Array(data))
        } catch {
            throw Unreadable(reason: error.reason)
        }
        guard root.name == "rss", root.namespace == nil, let channel = root.child("channel") else {
            throw Unreadable(reason: "it is not an RSS feed (no <rss><channel>)")
        }
        let itunes = FeedDocument.itunesNamespace
        let podcast = FeedDocument.podcastNamespace
        var items: [PodcastFeed.Item] = []
        for item in channel.children("item") {
            let title = item.child("title")?.text ?? ""
            guard let guid = item.child("guid")?.text, !guid.isEmpty, let enclosure = item.child("enclosure"), let url = enclosure.attributes["url"],
                let published = item.child("pubDate").flatMap({ FeedDocument.date(rfc822: $0.text) })
            else {
                throw Unreadable(reason: "an item has no guid, enclosure or date narrate can read (\(title.isEmpty ? "untitled" : title))")
            }
            items.append(PodcastFeed.Item(
                guid: guid, title: title, description: item.child("description")?.text ?? "", published: published,
                enclosure: PodcastFeed.Link(url: url, type: enclosure.attributes["type"] ?? ""), bytes: Int(enclosure.attributes["length"] ?? "") ?? 0,
                durationSeconds: Int(item.child("duration", in: itunes)?.text ?? "") ?? 0,
                narrator: item.child("person", in: podcast)?.text ?? item.child("author", in: itunes)?.text ?? "",
                chapters: item.child("chapters", in: podcast).flatMap { element in
                    element.attributes["url"].map { PodcastFeed.Link(url: $0, type: element.attributes["type"] ?? FeedDocument.chaptersType) }
                },
                transcripts: item.children("transcript", in: podcast).compactMap { element in
                    element.attributes["url"].map { PodcastFeed.Link(url: $0, type: element.attributes["type"] ?? "") }
                }))
        }
        let selfLink = channel.children("link", in: FeedDocument.atomNamespace).first { $0.attributes["rel"] == "self" }
        return PodcastFeed(
            channel: PodcastFeed.Channel(
                title: channel.child("title")?.text ?? "", selfURL: selfLink?.attributes["href"], link: channel.child("link")?.text ?? "./",
                description: channel.child("description")?.text ?? "", language: channel.child("language")?.text ?? "",
                author: channel.child("author", in: itunes)?.text ?? "", imageURL: channel.child("image", in: itunes)?.attributes["href"]),
            items: items)
    }
}
