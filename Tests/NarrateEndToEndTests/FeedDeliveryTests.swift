import Foundation
import NarrationTestSupport
import Testing

/// Deliveries that carry transcripts and a feed item, read by real podcast clients: the feed of a
/// folder served over loopback HTTP and of a SeaweedFS bucket served by its filer, read by
/// feedparser and podcastparser, its JSON chapters validated, its enclosures downloaded byte for
/// byte, and newsboat's podboat downloading an episode.
@Suite("Podcast feeds delivered and read by podcast clients", .serialized)
struct FeedDeliveryTests {
    static let text = """
        # Budget passes

        The council passed the budget on Tuesday & the vote was close: 12 to 11. 🎧 日本語の段落

        - Bus fares stay the same until March.

        """

    /// A fixture whose config.toml has the publication, a narrator, a folder destination `share`
    /// and a profile `pod` (MP3, untouched samples) that carries transcripts and a feed item.
    private func fixture(share: URL, extra: String = "", carries: String = #""audio", "transcript", "feed""#) throws -> (EndToEndFixture, Narrate) {
        let fixture = try EndToEndFixture()
        let config = fixture.folder.file("config/narrate")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try """
            narrator = "Ann Lee"
            publication = "Daily Post"

            [destinations.share]
            url = "\(share.path)"
            feed_title = "{publication}, read aloud"
            feed_author = "Talking News Leeds"
            \(extra)

            [profiles.pod]
            base = "archive"
            format = "mp3"
            carries = [\(carries)]

            [profiles.plain]
            base = "archive"
            format = "mp3"
            """.write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        var environment = fixture.devices.environment
        environment["XDG_CONFIG_HOME"] = fixture.folder.file("config").path
        environment.merge(ObjectStorageServer.credentialsEnvironment) { $1 }
        return (fixture, Narrate(home: fixture.narrate.home, environment: environment))
    }

    /// A new article with the text, a take per paragraph; returns its id and each chunk's frames.
    private func recordTextArticle(_ fixture: EndToEndFixture, _ narrate: Narrate, takes: [Double] = [0.8, 1.3, 0.9]) throws -> (String, [Int]) {
        let text = fixture.folder.file("budget.md")
        try Self.text.write(to: text, atomically: true, encoding: .utf8)
        let created = try narrate.run("new", "Budget passes", "--text", text.path, "--json")
        try #require(created.status == 0, "\(created.stderr)")
        let object = try #require(try created.json() as? [String: Any])
        let id = try #require(object["id"] as? String)
        for seconds in takes {
            let take = try narrate.run("record", "--device", "vmic", "--duration", "\(seconds)")
            try #require(take.status == 0, "\(take.stderr)")
        }
        let chunks = try #require(try narrate.run("chunks", "--json").json() as? [[String: Any]])
        #expect(chunks.map { $0["paragraph"] as? Int } == [1, 2, 3])
        return (id, chunks.compactMap { $0["frames"] as? Int })
    }

    /// A new article without a text, one take; returns its id.
    private func recordPlainArticle(_ narrate: Narrate, title: String) throws -> String {
        let created = try narrate.run("new", title, "--json")
        try #require(created.status == 0, "\(created.stderr)")
        let object = try #require(try created.json() as? [String: Any])
        let id = try #require(object["id"] as? String)
        try #require(try narrate.run("record", "--device", "vmic", "--duration", "0.7").status == 0)
        return id
    }

    private func sha256(_ file: URL) throws -> String {
        String(try Signals.run("sha256sum", [file.path]).prefix(64))
    }

    /// Each paragraph's boundary in seconds, from the chunks' frames at 44.1 kHz.
    private func boundaries(_ frames: [Int]) -> [Double] {
        frames.reduce(into: [0]) { $0.append($0.last! + $1) }.map { Double($0) / 44_100 }
    }

    private func items(_ read: [String: Any], _ client: String, _ list: String) -> [[String: Any]] {
        ((read[client] as? [String: Any])?[list] as? [[String: Any]]) ?? []
    }

    @Test("a folder's feed over loopback HTTP: feedparser and podcastparser read both articles, chapters validate on the paragraphs' boundaries, every file downloads byte for byte; --remove takes one out")
    func folderFeed() throws {
        let share = TemporaryFolder("narrate-share")
        let (fixture, narrate) = try fixture(share: share.url, carries: #""audio", "transcript", "feed", "epub", "daisy""#)
        let (budget, frames) = try recordTextArticle(fixture, narrate)
        let submitted = try narrate.run("submit", "--profile", "pod", "--to", "share")
        try #require(submitted.status == 0, "\(submitted.stderr)")
        let date = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let stem = "Budget passes-\(budget)"
        #expect(submitted.stdout == """
            Delivered \(stem).mp3 to \(share.url.path)/Daily Post/\(date)/\(stem).mp3 (SHA-256 checked).
            With it: \(stem).vtt, \(stem).srt, \(stem).chapters.json, \(stem).epub, \(stem).daisy.zip.
            Its podcast feed: \(share.url.path)/Daily Post/feed.xml ("narrate feed" shows it).

            """)
        // Every file the job carries arrived as the sidecar lists it, SHA-256 for SHA-256.
        let delivered = share.url.appendingPathComponent("Daily Post/\(date)")
        let sidecar = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: delivered.appendingPathComponent("\(stem).json"))) as? [String: Any])
        #expect(sidecar["carries"] as? [String] == ["audio", "transcript", "feed", "epub", "daisy"])
        let listed = try #require(sidecar["files"] as? [[String: Any]])
        #expect(listed.compactMap { $0["role"] as? String } == ["transcript", "transcript", "chapters", "epub", "daisy"])
        #expect(listed.compactMap { $0["type"] as? String } == ["text/vtt", "application/srt", "application/json+chapters", "application/epub+zip", "application/zip"])
        for file in listed {
            let name = try #require(file["name"] as? String)
            #expect(file["sha256"] as? String == (try sha256(delivered.appendingPathComponent(name))), "\(name)")
        }
        #expect(try Signals.run("unzip", ["-l", delivered.appendingPathComponent("\(stem).daisy.zip").path]).contains("ncc.html"))
        let bus = try recordPlainArticle(narrate, title: "Bus timetable")
        #expect(try narrate.run("submit", "--profile", "pod", "--to", "share").status == 0)
        // Delivered again unchanged: the same item, not a second one.
        #expect(try narrate.run("submit", "--profile", "pod", "--to", "share", "--article", budget).status == 0)

        let server = try StaticFileServer(serving: share.url)
        let feedURL = server.url + "Daily%20Post/feed.xml"
        let read = try FeedClients.read(feedURL)
        let parsed = try #require(read["feedparser"] as? [String: Any])
        #expect(parsed["bozo"] as? Bool == false, "\(parsed["bozo_exception"] ?? "")")
        #expect(parsed["title"] as? String == "Daily Post, read aloud" && parsed["author"] as? String == "Talking News Leeds")
        #expect(parsed["language"] as? String == "en")
        let entries = items(read, "feedparser", "items")
        #expect(entries.compactMap { $0["guid"] as? String }.sorted() == [budget, bus].sorted())  // one item each, none twice
        let folder = share.url.appendingPathComponent("Daily Post/\(date)")
        for entry in entries {
            let guid = entry["guid"] as? String ?? ""
            let name = guid == budget ? "\(stem).mp3" : "Bus timetable-\(bus).mp3"
            let enclosure = try #require(entry["enclosure"] as? [String: Any])
            let file = folder.appendingPathComponent(name)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
            #expect(enclosure["type"] as? String == "audio/mpeg" && enclosure["length"] as? Int == size && enclosure["bytes"] as? Int == size)
            #expect(enclosure["sha256"] as? String == (try sha256(file)))
            #expect(entry["author"] as? String == "Ann Lee")
        }
        let budgetEntry = try #require(entries.first { $0["guid"] as? String == budget })
        #expect(budgetEntry["title"] as? String == "Budget passes")
        #expect(budgetEntry["description"] as? String == "The council passed the budget on Tuesday & the vote was close: 12 to 11. 🎧 日本語の段落")
        #expect(budgetEntry["duration"] as? String == String(Int((Double(frames.reduce(0, +)) / 44_100).rounded(.up))))
        #expect(try #require(entries.first { $0["guid"] as? String == bus })["description"] as? String == "Narrated by Ann Lee.")

        let episodes = items(read, "podcastparser", "episodes")
        #expect(Set(episodes.compactMap { $0["guid"] as? String }) == [budget, bus])
        for episode in episodes {
            let enclosure = try #require((episode["enclosures"] as? [[String: Any]])?.first)
            let entry = try #require(entries.first { $0["guid"] as? String == episode["guid"] as? String })
            #expect(enclosure["url"] as? String == (entry["enclosure"] as? [String: Any])?["url"] as? String)
            #expect(enclosure["sha256"] as? String == (entry["enclosure"] as? [String: Any])?["sha256"] as? String)
        }

        // Podcasting 2.0: chapters on the paragraphs' exact boundaries, transcripts to the millisecond.
        let podcast = try #require(read["podcast"] as? [String: [String: Any]])
        let chapters = try #require(podcast[budget]?["chapters"] as? [String: Any])
        #expect(chapters["type"] as? String == "application/json+chapters")
        #expect(chapters["errors"] as? [String] == [] && chapters["ascending"] as? Bool == true)
        let document = try #require((chapters["document"] as? [String: Any])?["chapters"] as? [[String: Any]])
        let edges = boundaries(frames)
        #expect(document.compactMap { $0["startTime"] as? Double } == Array(edges.dropLast()))
        #expect(document.compactMap { $0["endTime"] as? Double } == Array(edges.dropFirst()))
        #expect(document.compactMap { $0["title"] as? String } == ["Budget passes", "The council passed the budget on…", "Bus fares stay the same until…"])
        let transcripts = try #require(podcast[budget]?["transcripts"] as? [[String: Any]])
        #expect(transcripts.map { $0["type"] as? String } == ["text/vtt", "application/srt"])
        #expect(transcripts.first?["first_line"] as? String == "WEBVTT")
        let milliseconds = edges.map { ($0 * 1_000).rounded() / 1_000 }
        for transcript in transcripts {
            let cues = try #require(transcript["cues"] as? [[Double]])
            #expect(cues == zip(milliseconds, milliseconds.dropFirst()).map { [$0, $1] })
            #expect(transcript["text"] as? String == (try String(contentsOf: folder.appendingPathComponent(URL(fileURLWithPath: transcript["url"] as? String ?? "").lastPathComponent.removingPercentEncoding ?? ""), encoding: .utf8)))
        }
        #expect((podcast[budget]?["person"] as? [String: String]) == ["role": "narrator", "name": "Ann Lee"])
        let busChapters = try #require(podcast[bus]?["chapters"] as? [String: Any])
        #expect(busChapters["errors"] as? [String] == [] && (podcast[bus]?["transcripts"] as? [Any])?.isEmpty == true)

        // narrate feed shows it; --remove takes the bus timetable out and leaves its files.
        let shown = try narrate.run("feed", "--to", "share", "--json")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect((try #require(try shown.json() as? [String: Any])["items"] as? [Any])?.count == 2)
        let removed = try narrate.run("feed", "--to", "share", "--remove", bus)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout == "Took \"Bus timetable\" out of \(share.url.path)/Daily Post/feed.xml; its files stay where they were delivered.\n")
        #expect(Set(items(try FeedClients.read(feedURL), "feedparser", "items").compactMap { $0["guid"] as? String }) == [budget])
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Bus timetable-\(bus).mp3").path))
        let again = try narrate.run("feed", "--to", "share", "--remove", bus)
        #expect(again.stdout == "\(share.url.path)/Daily Post/feed.xml did not offer \"Bus timetable\"; nothing changed.\n")

        // Delivered again in a profile that carries the audio alone: what the earlier delivery
        // carried beside it goes, and the feed no longer offers the article.
        let plain = try narrate.run("submit", "--profile", "plain", "--to", "share", "--article", budget)
        #expect(plain.status == 0, "\(plain.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(stem) }.sorted()
        #expect(left == ["\(stem).json", "\(stem).mp3"])
        let emptied = try #require(try narrate.run("feed", "--to", "share", "--json").json() as? [String: Any])
        #expect((emptied["items"] as? [Any])?.isEmpty == true)
    }

    @Test("a feed.xml narrate cannot read is left as it is: the files are delivered and the job stays delivered with the error; outbox push updates the feed once it is readable")
    func unreadableFeed() throws {
        let share = TemporaryFolder("narrate-share")
        let (fixture, narrate) = try fixture(share: share.url)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the data root
        let bus = try recordPlainArticle(narrate, title: "Bus timetable")
        let feedFile = share.url.appendingPathComponent("Daily Post/feed.xml")
        try FileManager.default.createDirectory(at: feedFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let foreign = Data("<html><body>Our podcast is elsewhere</body></html>\n".utf8)
        try foreign.write(to: feedFile)

        let submitted = try narrate.run("submit", "--profile", "pod", "--to", "share")
        #expect(submitted.status == 1)
        let date = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        #expect(submitted.stderr == """
            Bus timetable-\(bus).mp3 was delivered to \(share.url.path), but its podcast feed was not updated: \(feedFile.path) is not a feed narrate can change: it is not an RSS feed (no <rss><channel>). It was left as it is; move it away, and deliver again to start a new feed. The file stays in the outbox; "narrate outbox push" tries again.

            """)
        #expect(try Data(contentsOf: feedFile) == foreign)
        #expect(FileManager.default.fileExists(atPath: share.url.appendingPathComponent("Daily Post/\(date)/Bus timetable-\(bus).mp3").path))
        let job = try #require((try narrate.run("outbox", "list", "--json").json() as? [[String: Any]])?.first)
        #expect(job["state"] as? String == "delivered")
        #expect((job["lastError"] as? String)?.hasPrefix("Bus timetable-\(bus).mp3 was delivered to") == true)

        try FileManager.default.removeItem(at: feedFile)
        let pushed = try narrate.run("outbox", "push")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let feed = try #require(try narrate.run("feed", "--to", "share", "--json").json() as? [String: Any])
        #expect((feed["items"] as? [[String: Any]])?.compactMap { $0["guid"] as? String } == [bus])
        let after = try #require((try narrate.run("outbox", "list", "--json").json() as? [[String: Any]])?.first)
        #expect(after["state"] as? String == "delivered" && after["lastError"] as? String == nil, "\(after)")
    }

    @Test("two submits racing to a SeaweedFS bucket's feed leave both items; each object is verified; the filer serves it to feedparser and podcastparser")
    func objectStorageFeed() throws {
        let server = try ObjectStorageServer(buckets: ["radio"])
        let share = TemporaryFolder("narrate-share")
        let (fixture, narrate) = try fixture(share: share.url, extra: """

            [destinations.bucket]
            url = "s3://radio/narrations"
            endpoint = "\(server.endpoint)"
            path_style = true
            feed_title = "{publication}, read aloud"
            """)
        let (budget, frames) = try recordTextArticle(fixture, narrate, takes: [0.6, 0.9, 0.5])
        try #require(try narrate.run("queue", "--profile", "pod").status == 0)
        let bus = try recordPlainArticle(narrate, title: "Bus timetable")
        try #require(try narrate.run("queue", "--profile", "pod").status == 0)
        let racers = try [budget, bus].map { try narrate.start(["submit", "--to", "bucket", "--article", $0]) }
        let results = racers.map { $0.wait() }
        #expect(results.map(\.status) == [0, 0], "\(results.map(\.stderr))")

        let date = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let folder = "narrations/Daily Post/\(date)/"
        let objects = try server.objects(in: "radio")
        let stem = "Budget passes-\(budget)"
        #expect(Set(objects.map(\.key)) == Set([
            "narrations/Daily Post/feed.xml",
            folder + "\(stem).mp3", folder + "\(stem).json", folder + "\(stem).vtt", folder + "\(stem).srt", folder + "\(stem).chapters.json",
            folder + "Bus timetable-\(bus).mp3", folder + "Bus timetable-\(bus).json", folder + "Bus timetable-\(bus).chapters.json",
        ]))
        let vtt = try #require(objects.first { $0.key.hasSuffix(".vtt") })
        #expect(vtt.contentType == "text/vtt" && vtt.metadata["sha256"]?.count == 64)
        #expect(objects.first { $0.key.hasSuffix("feed.xml") }?.contentType == "application/rss+xml; charset=utf-8")

        let read = try FeedClients.read(server.filerURL + "/buckets/radio/narrations/Daily%20Post/feed.xml")
        #expect((read["feedparser"] as? [String: Any])?["bozo"] as? Bool == false)
        let entries = items(read, "feedparser", "items")
        #expect(Set(entries.compactMap { $0["guid"] as? String }) == [budget, bus])
        for entry in entries {
            let enclosure = try #require(entry["enclosure"] as? [String: Any])
            let key = folder + (entry["guid"] as? String == budget ? "\(stem).mp3" : "Bus timetable-\(bus).mp3")
            let stored = try server.contents(of: key, in: "radio")
            #expect(enclosure["bytes"] as? Int == stored.count && enclosure["length"] as? Int == stored.count)
        }
        #expect(Set(items(read, "podcastparser", "episodes").compactMap { $0["guid"] as? String }) == [budget, bus])
        let chapters = try #require((read["podcast"] as? [String: [String: Any]])?[budget]?["chapters"] as? [String: Any])
        #expect(chapters["errors"] as? [String] == [])
        let document = try #require((chapters["document"] as? [String: Any])?["chapters"] as? [[String: Any]])
        #expect(document.compactMap { $0["startTime"] as? Double } == Array(boundaries(frames).dropLast()))

        let shown = try narrate.run("feed", "--to", "bucket")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("\"Daily Post, read aloud\" at s3://radio/narrations/Daily Post/feed.xml: 2 articles.\n"))
    }

    @Test("newsboat reloads a feed with a public URL and podboat downloads the episode byte for byte")
    func podboatDownloads() throws {
        let share = TemporaryFolder("narrate-share")
        let server = try StaticFileServer(serving: share.url)
        let (fixture, narrate) = try fixture(share: share.url, extra: "public_url = \"\(server.url.dropLast())\"")
        let (budget, _) = try recordTextArticle(fixture, narrate, takes: [0.5, 0.6, 0.5])
        try #require(try narrate.run("submit", "--profile", "pod", "--to", "share").status == 0)

        let home = fixture.folder.file("newsboat")
        let downloads = home.appendingPathComponent("downloads")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        try "\(server.url)Daily%20Post/feed.xml\n".write(to: home.appendingPathComponent("urls"), atomically: true, encoding: .utf8)
        try """
            podcast-auto-enqueue yes
            download-path "\(downloads.path)/"
            """.write(to: home.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        let queue = home.appendingPathComponent("queue")
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path]
        try Signals.run("env", ["HOME=\(home.path)", "XDG_CONFIG_HOME=\(home.path)", "XDG_DATA_HOME=\(home.path)",
            "newsboat", "-u", home.appendingPathComponent("urls").path, "-c", home.appendingPathComponent("cache.db").path,
            "-C", home.appendingPathComponent("config").path, "-x", "reload"])
        // newsboat writes the enqueued episode to its queue file, in its data folder.
        let queued = try #require(FileManager.default.enumerator(atPath: home.path)?.compactMap { $0 as? String }.first { $0.hasSuffix("/queue") || $0 == "queue" })
        try FileManager.default.copyItem(at: home.appendingPathComponent(queued), to: queue)
        let line = try String(contentsOf: queue, encoding: .utf8)
        let date = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        #expect(line.hasPrefix("\(server.url)Daily%20Post/\(date)/Budget%20passes-\(budget).mp3 "), "\(line)")

        let podboat = try TmuxSession(
            "podboat -C \(home.appendingPathComponent("config").path) -q \(queue.path) -a", environment: environment, width: 120, height: 12)
        let delivered = share.url.appendingPathComponent("Daily Post/\(date)/Budget passes-\(budget).mp3")
        let expected = try Data(contentsOf: delivered)
        var downloaded: Data?
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let files = (try? FileManager.default.contentsOfDirectory(at: downloads, includingPropertiesForKeys: nil)) ?? []
            if let file = files.first, let data = try? Data(contentsOf: file), data.count == expected.count {
                downloaded = data
                break
            }
            usleep(200_000)
        }
        let screen = (try? podboat.screen()) ?? ""
        #expect(downloaded == expected, "podboat's screen: \(screen)")
        #expect(screen.contains("1 total"), "\(screen)")
    }
}
