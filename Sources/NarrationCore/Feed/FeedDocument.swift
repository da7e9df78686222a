public import Foundation

/// A `PodcastFeed` as RSS 2.0 with the iTunes and Podcasting 2.0 namespaces: the `feed.xml` a
/// destination keeps per publication. Pure; the engine's `FeedReader` reads back every field
/// written here.
///
/// Each item carries its enclosure (URL, length, type), `itunes:duration` in seconds, the date,
/// the narrator (`itunes:author` and a `podcast:person` of role narrator), the description, and
/// when delivered, `podcast:chapters` (JSON chapters) and a `podcast:transcript` per format.
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
            "  <title>\(escaped(channel.title))</title>",
            "  <link>\(escaped(channel.link))</link>",
            "  <description>\(escaped(channel.description))</description>",
            "  <language>\(escaped(channel.language))</language>",
            "  <generator>narrate</generator>",
        ]
        if let selfURL = channel.selfURL {
            lines.append(#"  <atom:link href="\#(escaped(selfURL))" rel="self" type="application/rss+xml"/>"#)
        }
        if !channel.author.isEmpty { lines.append("  <itunes:author>\(escaped(channel.author))</itunes:author>") }
        if let image = channel.imageURL {
            lines.append(#"  <itunes:image href="\#(escaped(image))"/>"#)
            lines.append("  <image><url>\(escaped(image))</url><title>\(escaped(channel.title))</title><link>\(escaped(channel.link))</link></image>")
        }
        lines.append(#"  <itunes:category text="News"/>"#)
        lines.append("  <itunes:explicit>false</itunes:explicit>")
        lines.append("  <itunes:type>episodic</itunes:type>")
        for item in feed.items {
            lines.append("  <item>")
            lines.append("    <title>\(escaped(item.title))</title>")
            lines.append(#"    <guid isPermaLink="false">\#(escaped(item.guid))</guid>"#)
            lines.append("    <pubDate>\(rfc822(item.published))</pubDate>")
            lines.append("    <description>\(escaped(item.description))</description>")
            lines.append(#"    <enclosure url="\#(escaped(item.enclosure.url))" length="\#(item.bytes)" type="\#(escaped(item.enclosure.type))"/>"#)
            lines.append("    <itunes:duration>\(item.durationSeconds)</itunes:duration>")
            if !item.narrator.isEmpty {
                lines.append("    <itunes:author>\(escaped(item.narrator))</itunes:author>")
                lines.append(#"    <podcast:person role="narrator" group="cast">\#(escaped(item.narrator))</podcast:person>"#)
            }
            if let chapters = item.chapters {
                lines.append(#"    <podcast:chapters url="\#(escaped(chapters.url))" type="\#(escaped(chapters.type))"/>"#)
            }
            for transcript in item.transcripts {
                lines.append(
                    #"    <podcast:transcript url="\#(escaped(transcript.url))" type="\#(escaped(transcript.type))" language="\#(escaped(channel.language))" rel="captions"/>"#)
            }
            lines.append("  </item>")
        }
        lines += ["</channel>", "</rss>", ""]
        return lines.joined(separator: "\n")
    }

    /// Text made safe for XML 1.0 content and attribute values: the five special characters
    /// escaped, and characters XML 1.0 cannot hold at all (C0 controls other than tab and line
    /// ends, U+FFFE, U+FFFF) left out, so that a title with a stray control character still makes
    /// a feed every client reads.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
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
