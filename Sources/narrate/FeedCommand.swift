import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate feed`: what a destination's podcast feed for a publication holds; `--remove`
    /// takes an article out of it.
    struct Feed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show what a destination's podcast feed holds, or take an article out of it.",
            discussion: """
                A destination keeps one podcast feed per publication, <publication>/feed.xml \
                (RSS 2.0 with the iTunes and Podcasting 2.0 tags), when the profile a delivery \
                is made in carries a feed item: carries = ["audio", "transcript", "feed"] in a \
                [profiles.NAME] table of config.toml. Each delivery adds or replaces its \
                article's item: the audio, its length and duration, the date, the narrator, the \
                first paragraph as description, JSON chapters and the transcripts.

                The feed's links point below public_url when the destination's table in \
                config.toml sets one (where the folder or bucket prefix is served, e.g. \
                public_url = "https://cdn.example.org/narrations"), and are otherwise relative \
                to the feed itself, so the folder or bucket served as it is works at once \
                (feedparser, gPodder and browsers follow them; newsboat needs public_url). \
                feed_title ("{publication}" is replaced), feed_image, feed_language and \
                feed_author set the rest. A feed keeps the newest 300 articles.

                  narrate feed --to archive --publication "Daily Post"
                  narrate feed --to /mnt/share --publication "Daily Post" --json
                  narrate feed --to archive --remove 4fj2k9    # the files stay; the feed no longer offers them
                """)

        @OptionGroup var destination: DestinationOptions

        @Option(help: ArgumentHelp(
            "The publication whose feed to show (default: the article's with --remove, else publication in config.toml).", valueName: "NAME"))
        var publication: String?

        @Option(help: ArgumentHelp("Take this article's item out of the feed (its id, or the start of it).", valueName: "ARTICLE"))
        var remove: String?

        @OptionGroup var output: JSONOption

        func run() async throws {
            let settings = try CommandRunner.settings()
            let resolved = try destination.required(settings)
            if let remove {
                try await removeItem(remove, at: resolved, settings: settings)
                return
            }
            guard let publication = publication ?? (settings.publication.isEmpty ? nil : settings.publication) else {
                Console.error("Which publication's feed? Pass --publication NAME, or set publication in \(Settings.fileURL().path).")
                throw ExitCode(64)
            }
            let published = try await CommandRunner.withLibrary(readOnly: true) { (library) async throws(NarrationError) -> PublishedFeed in
                try await library.feed(of: publication, at: resolved)
            }
            if output.json {
                Console.printJSON(FeedJSON(published))
                return
            }
            guard let feed = published.feed else {
                Console.print("There is no feed for \"\(publication)\" at \(resolved.description) yet (no \(published.location)).")
                Console.print("A delivery in a profile that carries \"feed\" starts it.")
                return
            }
            let count = feed.items.count == 1 ? "1 article" : "\(feed.items.count) articles"
            Console.print("\"\(feed.channel.title)\" at \(published.location): \(count).")
            if let selfURL = feed.channel.selfURL { Console.print("Listeners subscribe to \(selfURL)") }
            for item in feed.items {
                var extras: [String] = []
                if item.chapters != nil { extras.append("chapters") }
                if !item.transcripts.isEmpty { extras.append("transcripts") }
                let narrator = item.narrator.isEmpty ? "" : ", read by \(item.narrator)"
                Console.print(
                    "  \(FeedJSON.day(item.published))  \(item.title) (\(Timecode.clock(Double(item.durationSeconds)))\(narrator))"
                        + (extras.isEmpty ? "" : " with \(extras.joined(separator: " and "))"))
                Console.print("      \(item.enclosure.url)")
            }
        }

        private func removeItem(_ text: String, at destination: Destination, settings: Settings) async throws {
            let result = try await CommandRunner.withLibrary(readOnly: true) { (library) async throws(NarrationError) -> (FeedUpdate, Bool, String, String) in
                var guid = text
                var title = text
                var publication = publication
                if let article = try? library.article(text) {
                    guid = article.id.rawValue
                    title = "\"\(article.title)\""
                    publication = publication ?? article.publication
                }
                guard let publication else {
                    throw .usage("No article has the id \"\(text)\" here; pass --publication NAME to take it out of that publication's feed.")
                }
                let (update, removed) = try await library.removeFromFeed(
                    guid, of: publication, at: destination, settings: settings.feedSettings(for: destination))
                return (update, removed, title, guid)
            }
            let (update, removed, title, guid) = result
            if output.json {
                Console.printJSON(FeedJSON(PublishedFeed(location: update.location, feed: update.feed), removed: removed ? guid : nil))
            } else if removed {
                Console.print("Took \(title) out of \(update.location); its files stay where they were delivered.")
            } else {
                Console.print("\(update.location) did not offer \(title); nothing changed.")
            }
        }
    }
}

/// A feed as `narrate feed --json` prints it.
struct FeedJSON: Encodable {
    struct Item: Encodable {
        let guid: String
        let title: String
        let published: Date
        let url: String
        let type: String
        let bytes: Int
        let durationSeconds: Int
        let narrator: String
        let description: String
        let chapters: String?
        let transcripts: [String]
    }

    let location: String
    let exists: Bool
    let title: String?
    let selfURL: String?
    let language: String?
    let items: [Item]
    /// With --remove: the article taken out, or nil when the feed did not offer it.
    let removed: String?

    init(_ published: PublishedFeed, removed: String? = nil) {
        location = published.location
        exists = published.feed != nil
        title = published.feed?.channel.title
        selfURL = published.feed?.channel.selfURL
        language = published.feed?.channel.language
        items = (published.feed?.items ?? []).map {
            Item(
                guid: $0.guid, title: $0.title, published: $0.published, url: $0.enclosure.url, type: $0.enclosure.type, bytes: $0.bytes,
                durationSeconds: $0.durationSeconds, narrator: $0.narrator, description: $0.description, chapters: $0.chapters?.url,
                transcripts: $0.transcripts.map(\.url))
        }
        self.removed = removed
    }

    /// "2026-11-24", in UTC as the feed stores it.
    static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
