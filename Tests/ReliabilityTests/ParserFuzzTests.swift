import Foundation
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTerminal
import NarrationText
import NarrationTestSupport
import ObjectStorage
import Testing

/// Every parser of outside input, fed valid input damaged at random (cut short, bytes changed,
/// runs repeated or dropped, noise appended): it must refuse with a reason or return something
/// consistent, never trap. Seeded (`NARRATE_FUZZ_SEED` replays a run); a trap here kills the
/// test process, which fails the run and prints the seed above it. (A take's WAV header is not
/// parsed at all: recovery compares it with the one its format dictates, see `TakeHeader`, and
/// `RecoveryFuzzTests` damages real takes.)
@Suite("Fuzzing the parsers of outside input")
struct ParserFuzzTests {
    static let rounds = 20_000

    @Test("config.toml")
    func configFile() {
        var random = SeededGenerator(default: 0x544F_4D4C)
        let valid = Array("""
            # Daily Post volunteers
            narrator = "Ann Lee"
            publication = "Daily Post"
            device = "default"
            profile = "org"
            destination = "archive"

            [profiles.org]
            base = "podcast"
            format = "mp3"
            bitrate = 96
            loudness = -18.5
            carries = ["audio", "transcript", 'feed']

            [destinations.archive]
            url = "s3://radio/narrations"
            endpoint = "https://s3.example.org"
            region = "eu-1"
            path_style = true
            public_url = "https://cdn.example.org/narrations"
            feed_title = "{publication}, read aloud"
            """.utf8)
        var refused = 0
        for _ in 0..<Self.rounds {
            let text = String(decoding: random.mutate(valid), as: UTF8.self)
            do {
                let settings = try Settings(parsing: text, file: "config.toml")
                _ = try? settings.deliveryProfile(named: settings.profile)
                if let destination = settings.destination { _ = try? settings.destination(named: destination) }
            } catch {
                refused += 1
                #expect(error.message.contains("config.toml") || error.message.hasPrefix("There is no "), "\(error.message)")
            }
        }
        print("figure: \(Self.rounds) damaged config files (seed \(random.seed)): \(refused) refused naming the file or the fix")
    }

    @Test("an article's text: plain, Markdown and HTML")
    func articleTexts() {
        var random = SeededGenerator(default: 0x5445_5854)
        let samples: [(ScriptFormat, [UInt8])] = [
            (.plain, Array("The Harbour Reopens\r\n\r\nAfter three years of repairs, the harbour opened.\nFishermen lined the quay.\n\nCafé owners — and 港 — are pleased.\n".utf8)),
            (.markdown, Array("# The Harbour\n\nAfter *three years*, the [harbour](https://x.org) opened.\n\n- Ferries\n- `Dock Road`\n\n> A quote\n\n![boat](b.jpg)\n".utf8)),
            (.html, Array("<html><head><meta charset=\"utf-8\"><script>var a = '<p>x</p>';</script></head><body><nav><a>Menu</a></nav><article><h1>Harbour</h1><p>After <em>three</em> years &amp; more.</p><figure><img src=b><figcaption>Boat</figcaption></figure><ul><li>One</li><li>Two</li></ul></article></body></html>".utf8)),
        ]
        var refused = 0
        var read = 0
        for round in 0..<Self.rounds / 4 {
            let (format, valid) = samples[round % samples.count]
            do {
                let paragraphs = try ScriptReader.read(random.mutate(valid), format: format, name: "article.\(format.rawValue)")
                read += 1
                #expect(!paragraphs.isEmpty)
                #expect(paragraphs.allSatisfy { !$0.text.isEmpty && $0.text == $0.text.trimmingCharacters(in: .whitespacesAndNewlines) })
            } catch {
                refused += 1
                #expect(error.kind == .textUnreadable && error.message.hasPrefix("\"article."), "\(error.message)")
            }
        }
        print("figure: \(Self.rounds / 4) damaged texts (seed \(random.seed)): \(read) read into paragraphs, \(refused) refused naming the file")
    }

    @Test("S3's XML error bodies and listings")
    func s3Answers() {
        var random = SeededGenerator(default: 0x5333_584D)
        let bodies = [
            #"<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match &amp; so on</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>"#,
            #"<ListPartsResult><UploadId>abc</UploadId><Part><PartNumber>1</PartNumber><ETag>&quot;a1&quot;</ETag><Size>8388608</Size></Part><Part><PartNumber>2</PartNumber><ETag>&#34;b2&#x22;</ETag></Part></ListPartsResult>"#,
            #"<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k é</Key><UploadId>VXBsb2FkIElE</UploadId></InitiateMultipartUploadResult>"#,
        ].map { Array($0.utf8) }
        for _ in 0..<Self.rounds {
            let text = String(decoding: random.mutate(bodies.randomElement(using: &random)!), as: UTF8.self)
            let document = S3XML(text)
            for part in document.elements(named: "Part") {
                _ = part.value(of: "PartNumber")
                _ = part.value(of: "ETag")
            }
            for name in ["Code", "Message", "UploadId", "Key"] {
                if let value = document.value(of: name) { #expect(value.count <= text.count) }
            }
        }
        print("figure: \(Self.rounds) damaged S3 answers (seed \(random.seed)) read without a trap")
    }

    @Test("ID3 tags read back from MP3 files")
    func id3Tags() {
        var random = SeededGenerator(default: 0x4944_3300)
        var tag = ID3Tag()
        tag.addText("TIT2", "Hafen & Haus 港口 café")
        tag.addComment("Narrated by Zoë.")
        tag.addUserText(description: "NARRATE_ARTICLE_ID", value: "ab12cd34")
        let tags = ExportTags(title: "t", narrator: "", publication: "", date: "", comment: "", articleID: "ab12cd34")
        tag.addChapters(ExportPlan(format: .speech, chunkFrames: [44_100, 22_050, 1_000], tags: tags).chapters, rate: 44_100)
        let valid = tag.bytes
        var refused = 0
        for _ in 0..<Self.rounds {
            let bytes = random.mutate(valid)
            do {
                let read = try ID3TagReader(bytes)
                #expect(read.size <= bytes.count)
                _ = read.text("TIT2")
                _ = read.userText("NARRATE_ARTICLE_ID")
                #expect(read.chapters.count <= 3 + read.frames.count)
            } catch {
                refused += 1
                #expect(error.kind == .fileCorrupt)
            }
        }
        print("figure: \(Self.rounds) damaged ID3 tags (seed \(random.seed)): \(refused) refused with a reason")
    }

    @Test("a destination's podcast feed.xml, read back before a delivery changes it")
    func podcastFeeds() {
        var random = SeededGenerator(default: 0x4645_4544)
        var item = PodcastFeed.Item(
            guid: "ab12cd34", title: "Rates & <fares> 日本語 🎧", description: "The council met.", published: Date(timeIntervalSince1970: 1_795_508_143),
            enclosure: PodcastFeed.Link(url: "2026-11-24/Rates%20-ab12cd34.mp3", type: "audio/mpeg"), bytes: 104_862, durationSeconds: 65,
            narrator: "Ann Lee", chapters: PodcastFeed.Link(url: "2026-11-24/Rates.chapters.json", type: FeedDocument.chaptersType),
            transcripts: [PodcastFeed.Link(url: "2026-11-24/Rates.vtt", type: "text/vtt")])
        var feed = PodcastFeed(channel: PodcastFeed.Channel(
            title: "Daily Post", selfURL: "https://cdn.example.org/Daily%20Post/feed.xml", link: "./", description: "Read aloud.", language: "en",
            author: "Talking News", imageURL: "https://cdn.example.org/cover.jpg"))
        feed = feed.publishing(item)
        item.guid = "ef56gh78"
        feed = feed.publishing(item)
        let valid = Array(FeedDocument.xml(feed).utf8)
        var refused = 0
        for _ in 0..<Self.rounds / 4 {
            let bytes = random.mutate(valid)
            do throws(NarrationError) {
                let read = try FeedPublisher.read(Data(bytes), location: "feed.xml")
                #expect(read.items.count <= 2 + bytes.count / 100)
                // What was read writes out again and reads back the same.
                #expect(try FeedPublisher.read(Data(FeedDocument.xml(read).utf8), location: "again") == read)
            } catch {
                refused += 1
                #expect(error.kind == .feedUnreadable && error.message.hasPrefix("feed.xml is not a feed narrate can change: "), "\(error.message)")
            }
        }
        print("figure: \(Self.rounds / 4) damaged feeds (seed \(random.seed)): \(refused) refused and left as they were")
    }

    @Test("credentials files and the terminal's key sequences")
    func credentialsAndKeys() {
        var random = SeededGenerator(default: 0x4B45_5953)
        let credentials = Array("[default]\naws_access_key_id = AKIA\naws_secret_access_key = s3cr3t\n\n[profile radio]\naws_access_key_id=x\n# note\n".utf8)
        let keys: [UInt8] = [0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x36, 0x7E, 0x1B, 0x4F, 0x48, 0xE6, 0xB8, 0xAF, 0x0D, 0x20, 0x7F, 0x03]
        for _ in 0..<Self.rounds {
            let file = CredentialsFile(parsing: String(decoding: random.mutate(credentials), as: UTF8.self))
            #expect(file.profiles.keys.allSatisfy { !$0.contains("\n") })
            var decoder = KeyDecoder()
            for byte in random.mutate(keys) { _ = decoder.feed(byte) }
            _ = decoder.flush()
        }
        print("figure: \(Self.rounds) damaged credentials files and key sequences (seed \(random.seed)) read without a trap")
    }
}
