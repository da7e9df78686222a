public import Foundation

/// A `PodcastFeed` as RSS 2.0 with the iTunes and Podcasting 2.0 namespaces: the `feed.xml` a
/// destination keeps per publication. Pure; the engine's `FeedReader` reads back every field
/// written here.
///
/// Each item carries its enclosure (URL, length, type), `itunes:duration` in seconds, the date,
/// the narrator (`itunes:author` and a `podcast:person` of role narrator), the description, and
/// when delivered, `podcast:chapters` (JSON chapters) and a `podcast:transcript` per format.
/// Every text and address is escaped by `XMLText`, the books' escaping: a title with a stray
/// control character still makes a feed every client reads.
public enum FeedDocument {
    public static let itunesNamespace = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    public static let podcastNamespace = "https://podcastindex.org/namespace/1.0"
    public static let atomNamespace = "http://www.w3.org/2005/Atom"
    /// The type the Podcasting 2.0 JSON chapters format asks its files to be linked with.
    public static let chaptersType = "application/json+chapters"

    /// The feed as UTF-8 XML text.
    public static func xml(_ feed: PodcastFeed) -> String {
        let channel = feed.channel
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<rss version="2.0" xmlns:itunes="\#(itunesNamespace)" xmlns:podcast="\#(podcastNamespace)" xmlns:atom="\#(atomNamespace)">"#,
            "<channel>",
            "  <title>\(XMLText.escaped(channel.title))</title>",
            "  <link>\(XMLText.escaped(channel.link))</link>",
            "  <description>\(XMLText.escaped(channel.description))</description>",
            "  <language>\(XMLText.escaped(channel.language))</language>",
            "  <generator>narrate</generator>",
        ]
        if let selfURL = channel.selfURL {
            lines.append(#"  <atom:link href="\#(XMLText.escaped(selfURL))" rel="self" type="application/rss+xml"/>"#)
        }
        if !channel.author.isEmpty { lines.append("  <itunes:author>\(XMLText.escaped(channel.author))</itunes:author>") }
        if let image = channel.imageURL {
            lines.append(#"  <itunes:image href="\#(XMLText.escaped(image))"/>"#)
            lines.append("  <image><url>\(XMLText.escaped(image))</url><title>\(XMLText.escaped(channel.title))</title><link>\(XMLText.escaped(channel.link))</link></image>")
        }
        lines.append(#"  <itunes:category text="News"/>"#)
        lines.append("  <itunes:explicit>false</itunes:explicit>")
        lines.append("  <itunes:type>episodic</itunes:type>")
        for item in feed.items {
            lines.append("  <item>")
            lines.append("    <title>\(XMLText.escaped(item.title))</title>")
            lines.append(#"    <guid isPermaLink="false">\#(XMLText.escaped(item.guid))</guid>"#)
            lines.append("    <pubDate>\(rfc822(item.published))</pubDate>")
            lines.append("    <description>\(XMLText.escaped(item.description))</description>")
            lines.append(#"    <enclosure url="\#(XMLText.escaped(item.enclosure.url))" length="\#(item.bytes)" type="\#(XMLText.escaped(item.enclosure.type))"/>"#)
            lines.append("    <itunes:duration>\(item.durationSeconds)</itunes:duration>")
            if !item.narrator.isEmpty {
                lines.append("    <itunes:author>\(XMLText.escaped(item.narrator))</itunes:author>")
                lines.append(#"    <podcast:person role="narrator" group="cast">\#(XMLText.escaped(item.narrator))</podcast:person>"#)
            }
            if let chapters = item.chapters {
                lines.append(#"    <podcast:chapters url="\#(XMLText.escaped(chapters.url))" type="\#(XMLText.escaped(chapters.type))"/>"#)
            }
            for transcript in item.transcripts {
                lines.append(
                    #"    <podcast:transcript url="\#(XMLText.escaped(transcript.url))" type="\#(XMLText.escaped(transcript.type))" language="\#(XMLText.escaped(channel.language))" rel="captions"/>"#)
            }
            lines.append("  </item>")
        }
        lines += ["</channel>", "</rss>", ""]
        return lines.joined(separator: "\n")
    }

    /// RSS's date form, RFC 822 with a four-digit year, in UTC: "Tue, 24 Nov 2026 08:00:00 +0000".
    public static func rfc822(_ date: Date) -> String { dateFormatter().string(from: date) }

    /// The date an RSS date names, or nil.
    public static func date(rfc822 text: String) -> Date? { dateFormatter().date(from: text.trimmingCharacters(in: .whitespaces)) }

    private static func dateFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter
    }
}
