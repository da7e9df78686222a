import Foundation
import NarrationCore
import Testing

@Suite("podcast feeds, pure")
struct FeedDocumentTests {
    static let channel = PodcastFeed.Channel(
        title: "Daily Post, read aloud", link: "./", description: "Daily Post, read aloud by volunteers.", language: "en", author: "Talking News")

    static func item(_ guid: String, at seconds: Double, title: String = "Budget passes") -> PodcastFeed.Item {
        PodcastFeed.Item(
            guid: guid, title: title, description: "The council met.", published: Date(timeIntervalSince1970: seconds),
            enclosure: PodcastFeed.Link(url: "2026-11-24/\(guid).mp3", type: "audio/mpeg"), bytes: 1_000, durationSeconds: 65,
            narrator: "Ann Lee")
    }

    @Test("XML's five special characters are escaped and characters XML 1.0 cannot hold are left out; CJK and emoji stay")
    func escaping() {
        #expect(XMLText.escaped("12 < 13 & \"quotes\" 'too' > 1") == "12 &lt; 13 &amp; &quot;quotes&quot; &#39;too&#39; &gt; 1")
        #expect(XMLText.escaped("bell\u{07}ed\u{1B}[31m tab\there 日本語 🎧") == "belled[31m tab\there 日本語 🎧")
    }

    @Test("dates are RFC 822 in UTC and read back to the second")
    func dates() throws {
        let date = Date(timeIntervalSince1970: 1_795_508_143)
        #expect(FeedDocument.rfc822(date) == "Tue, 24 Nov 2026 08:15:43 +0000")
        #expect(try #require(FeedDocument.date(rfc822: "Tue, 24 Nov 2026 08:15:43 +0000")) == date)
        #expect(FeedDocument.date(rfc822: "yesterday") == nil)
    }

    @Test("without a public URL links are relative to the feed, percent-encoded; with one they are absolute")
    func addresses() {
        let relative = FeedSettings()
        let feedPath = FeedSettings.feedPath(forDeliveryPath: "Daily Post/2026-11-24/Budget passes-ab12.mp3")
        #expect(feedPath == "Daily Post/feed.xml")
        #expect(relative.address(of: "Daily Post/2026-11-24/Budget passes-ab12.mp3", fromFeedAt: feedPath) == "2026-11-24/Budget%20passes-ab12.mp3")
        #expect(relative.address(of: "Other/2026-11-24/x#1?.mp3", fromFeedAt: feedPath) == "../Other/2026-11-24/x%231%3F.mp3")
        #expect(relative.address(of: "Daily Post/d/Café 日本.mp3", fromFeedAt: feedPath) == "d/Caf%C3%A9%20%E6%97%A5%E6%9C%AC.mp3")
        let public_ = FeedSettings(publicURL: "https://cdn.example.org/narrations/")
        #expect(public_.address(of: "Daily Post/2026-11-24/a b.mp3", fromFeedAt: feedPath) == "https://cdn.example.org/narrations/Daily%20Post/2026-11-24/a%20b.mp3")
        let channel = public_.channel(publication: "Daily Post", feedPath: feedPath, defaultLanguage: "cy")
        #expect(channel.selfURL == "https://cdn.example.org/narrations/Daily%20Post/feed.xml")
        #expect(channel.link == "https://cdn.example.org/narrations/Daily%20Post/")
        #expect(channel.language == "cy" && channel.title == "Daily Post" && channel.author == "Daily Post")
        let named = FeedSettings(title: "{publication}, read aloud", language: "en", author: "Talking News").channel(
            publication: "Daily Post", feedPath: feedPath, defaultLanguage: "cy")
        #expect(named.title == "Daily Post, read aloud" && named.language == "en" && named.author == "Talking News" && named.selfURL == nil)
        #expect(named.link == "./")
    }

    @Test("publishing replaces an article's item and keeps its first date; removing takes it out; newest first")
    func publishing() {
        var feed = PodcastFeed(channel: Self.channel).publishing(Self.item("aaaa", at: 100)).publishing(Self.item("bbbb", at: 200))
        #expect(feed.items.map(\.guid) == ["bbbb", "aaaa"])
        feed = feed.publishing(Self.item("aaaa", at: 300, title: "Budget passes, corrected"))
        #expect(feed.items.map(\.guid) == ["bbbb", "aaaa"])
        #expect(feed.items[1].title == "Budget passes, corrected" && feed.items[1].published == Date(timeIntervalSince1970: 100))
        #expect(feed.removing(guid: "bbbb").items.map(\.guid) == ["aaaa"])
        #expect(feed.removing(guid: "zzzz") == feed)
        // Items of the same second are ordered by guid, whichever was published last.
        let same = PodcastFeed(channel: Self.channel).publishing(Self.item("dddd", at: 5)).publishing(Self.item("cccc", at: 5))
        #expect(same.items.map(\.guid) == ["cccc", "dddd"])
    }

    @Test("the RSS names the namespaces and carries enclosure, duration, narrator, chapters and transcripts")
    func document() {
        var item = Self.item("aaaa", at: 1_795_508_143, title: "Rates & <fares>")
        item.chapters = PodcastFeed.Link(url: "2026-11-24/aaaa.chapters.json", type: FeedDocument.chaptersType)
        item.transcripts = [PodcastFeed.Link(url: "2026-11-24/aaaa.vtt", type: "text/vtt")]
        let xml = FeedDocument.xml(PodcastFeed(channel: Self.channel, items: [item]))
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0""#))
        #expect(xml.contains("<title>Rates &amp; &lt;fares&gt;</title>"))
        #expect(xml.contains(#"<guid isPermaLink="false">aaaa</guid>"#))
        #expect(xml.contains("<pubDate>Tue, 24 Nov 2026 08:15:43 +0000</pubDate>"))
        #expect(xml.contains(#"<enclosure url="2026-11-24/aaaa.mp3" length="1000" type="audio/mpeg"/>"#))
        #expect(xml.contains("<itunes:duration>65</itunes:duration>"))
        #expect(xml.contains(#"<podcast:person role="narrator" group="cast">Ann Lee</podcast:person>"#))
        #expect(xml.contains(#"<podcast:chapters url="2026-11-24/aaaa.chapters.json" type="application/json+chapters"/>"#))
        #expect(xml.contains(#"<podcast:transcript url="2026-11-24/aaaa.vtt" type="text/vtt" language="en" rel="captions"/>"#))
        #expect(!xml.contains("atom:link"))  // no public URL, no self link
    }

    @Test("JSON chapters hold each chapter's exact start and end in seconds, from the frames")
    func chapters() throws {
        let tags = ExportTags(title: "Budget", narrator: "Ann Lee", publication: "Daily Post", date: "2026-11-24", comment: "", articleID: "ab12")
        let plan = ExportPlan(format: AudioFormat(sampleRate: 44_100, channels: 1, bitsPerSample: 16), chunkFrames: [44_100, 22_051], tags: tags)
        let list = ChapterList(plan: plan, fileName: "Budget-ab12.mp3")
        #expect(list.version == "1.2.0" && list.title == "Budget" && list.author == "Ann Lee" && list.podcastName == "Daily Post")
        #expect(list.chapters.map(\.startTime) == [0, 1])
        #expect(list.chapters.map(\.endTime) == [1, 66_151.0 / 44_100])
        #expect(list.chapters.map(\.title) == ["Part 1", "Part 2"])
        let object = try #require(try JSONSerialization.jsonObject(with: list.json) as? [String: Any])
        #expect(Set(object.keys) == ["version", "title", "author", "podcastName", "fileName", "chapters"])
    }

    @Test("a delivered sidecar makes its item: first paragraph as description, chapters and transcripts beside the audio")
    func deliveredItem() {
        var sidecar = Sidecar(
            articleId: "ab12", title: "Budget", publication: "Daily Post", narrator: "Ann Lee", date: "2026-11-24", duration: 64.2,
            file: "Budget-ab12.mp3", format: "mp3", profile: "pod", bytes: 12_345, sha256: "00", chunks: [], recordingSeconds: 64.2,
            queuedAt: Date(timeIntervalSince1970: 0))
        sidecar.paragraphs = [
            Sidecar.ParagraphEntry(number: 1, kind: "heading", text: "Budget", start: 0, end: 1),
            Sidecar.ParagraphEntry(number: 2, kind: "paragraph", text: "The council met.", start: 1, end: 64.2),
        ]
        sidecar.files = [
            Sidecar.FileEntry(name: "Budget-ab12.vtt", role: "transcript", type: "text/vtt", bytes: 1, sha256: "1"),
            Sidecar.FileEntry(name: "Budget-ab12.chapters.json", role: "chapters", type: FeedDocument.chaptersType, bytes: 1, sha256: "2"),
        ]
        let item = PodcastFeed.Item(
            sidecar: sidecar, deliveryPath: "Daily Post/2026-11-24/Budget-ab12.mp3", feedPath: "Daily Post/feed.xml", settings: FeedSettings(),
            published: Date(timeIntervalSince1970: 10))
        #expect(item.guid == "ab12" && item.description == "The council met." && item.durationSeconds == 65 && item.bytes == 12_345)
        #expect(item.enclosure == PodcastFeed.Link(url: "2026-11-24/Budget-ab12.mp3", type: "audio/mpeg"))
        #expect(item.chapters?.url == "2026-11-24/Budget-ab12.chapters.json")
        #expect(item.transcripts == [PodcastFeed.Link(url: "2026-11-24/Budget-ab12.vtt", type: "text/vtt")])
        sidecar.paragraphs = nil
        let untexted = PodcastFeed.Item(
            sidecar: sidecar, deliveryPath: "Daily Post/2026-11-24/Budget-ab12.mp3", feedPath: "Daily Post/feed.xml", settings: FeedSettings(),
            published: Date(timeIntervalSince1970: 10))
        #expect(untexted.description == "Narrated by Ann Lee.")
    }

    @Test("an item's files are named after the audio file's stem")
    func fileNames() {
        #expect(DeliveryItem.fileNames(stem: "Budget-ab12") == [
            "Budget-ab12.vtt", "Budget-ab12.srt", "Budget-ab12.chapters.json", "Budget-ab12.epub", "Budget-ab12.daisy.zip",
        ])
    }
}

@Suite("config.toml: what a delivery carries, and feeds")
struct FeedSettingsTests {
    @Test("a profile's carries and a destination's feed settings, for a folder and for object storage")
    func parses() throws {
        let text = """
            language = "cy"
            [destinations.share]
            url = "/srv/share"
            feed_title = "{publication}, read aloud"
            [destinations.archive]
            url = "s3://radio/narrations"
            public_url = "https://cdn.example.org/narrations"
            feed_language = "en"
            feed_author = "Talking News"
            feed_image = "https://cdn.example.org/cover.jpg"
            [profiles.pod]
            base = "podcast"
            carries = ["audio", "transcript", "feed", "epub",]   # a trailing comma is fine
            """
        let settings = try Settings(parsing: text, file: "config.toml")
        #expect(try settings.deliveryProfile(named: "pod").carries == [.audio, .transcript, .feed, .epub])
        #expect(DeliveryProfile.podcast.carries == [.audio])
        let share = settings.feedSettings(for: try settings.destination(named: "share"))
        #expect(share == FeedSettings(title: "{publication}, read aloud", language: "cy"))
        let archive = settings.feedSettings(for: try settings.destination(named: "archive"))
        #expect(archive == FeedSettings(
            publicURL: "https://cdn.example.org/narrations", imageURL: "https://cdn.example.org/cover.jpg", language: "en", author: "Talking News"))
        #expect(settings.feedSettings(for: .folder("/elsewhere")) == FeedSettings(language: "cy"))
    }

    @Test("mistakes in carries and feed settings are refused with the line or setting and the fix", arguments: [
        ("[profiles.pod]\ncarries = [\"audio\", \"podcast\"]",
         "config.toml, line 2: carries in [profiles.pod] names \"podcast\", which a delivery cannot carry (known: \"audio\", \"transcript\", \"feed\", \"epub\", \"daisy\")."),
        ("[profiles.pod]\ncarries = \"feed\"",
         "config.toml, line 2: carries in [profiles.pod] must be a list of names in quotes, e.g. [\"audio\", \"transcript\", \"feed\"]."),
        ("[profiles.pod]\ncarries = [\"audio\", 3]",
         "config.toml, line 2: carries in [profiles.pod] must be a list of names in quotes, e.g. [\"audio\", \"transcript\", \"feed\"]."),
        ("[profiles.pod]\ncarries = [\"audio\",, \"feed\"]", "config.toml, line 2: an array has an empty element between two commas. Fix the line or remove it."),
        ("[profiles.pod]\ncarries = [\"audio\", [\"feed\"]]", "config.toml, line 2: an array inside an array is not understood. Fix the line or remove it."),
        ("[profiles.pod]\ncarries = [\"audio\"", "config.toml, line 2: an array is written on one line, e.g. [\"audio\", \"feed\"]. Fix the line or remove it."),
        ("[destinations.share]\nurl = \"/srv\"\npublic_url = \"cdn.example.org\"",
         "config.toml, line 3: public_url in [destinations.share] must start with https:// or http:// (where listeners fetch the files)."),
        ("[destinations.share]\nurl = \"/srv\"\nfeed_title = 3", "config.toml, line 3: feed_title in [destinations.share] must be a string in quotes."),
    ])
    func refuses(text: String, message: String) {
        #expect(throws: NarrationError.usage(message)) { try Settings(parsing: text, file: "config.toml") }
    }
}
