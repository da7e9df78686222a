import NarrationCore
import Testing

@Suite("S3 destinations in the settings, and retries")
struct ObjectStorageCoreTests {
    @Test("s3://BUCKET/PREFIX parses into bucket, prefix, endpoint and region")
    func addresses() throws {
        let aws = try S3Destination(url: "s3://radio-archive/narrations/2026/", region: "eu-west-2")
        #expect(aws.bucket == "radio-archive" && aws.prefix == "narrations/2026" && aws.endpoint == "https://s3.eu-west-2.amazonaws.com")
        #expect(aws.key(for: "Daily Post/2026-11-21/a.mp3") == "narrations/2026/Daily Post/2026-11-21/a.mp3")
        let local = try S3Destination(url: "s3://radio", endpoint: "http://127.0.0.1:8333/", pathStyle: true)
        #expect(local.prefix == "" && local.key(for: "x.mp3") == "x.mp3" && local.description == "s3://radio")
        #expect(local.region == "us-east-1")
    }

    @Test("bad addresses, endpoints and regions are refused with the fix", arguments: [
        ("radio/x", nil, nil, "\"radio/x\" is not an S3 address; write it as s3://BUCKET/PREFIX."),
        ("s3://Radio/x", nil, nil, "\"Radio\" in s3://Radio/x is not a bucket name: use 3–63 lowercase letters, digits, dots and hyphens, as in s3://radio-archive/narrations."),
        ("s3://ab", nil, nil, "\"ab\" in s3://ab is not a bucket name: use 3–63 lowercase letters, digits, dots and hyphens, as in s3://radio-archive/narrations."),
        ("s3://radio", "ftp://host", nil, "The endpoint \"ftp://host\" is not a URL like https://s3.example.org or http://127.0.0.1:8333."),
        ("s3://radio", "https://host/path", nil, "The endpoint \"https://host/path\" is not a URL like https://s3.example.org or http://127.0.0.1:8333."),
        ("s3://radio", nil, "eu west", "The region \"eu west\" is not a region name like us-east-1 or eu-west-2."),
    ])
    func badAddresses(url: String, endpoint: String?, region: String?, message: String) {
        #expect(throws: NarrationError(.usage, message)) { try S3Destination(url: url, endpoint: endpoint, region: region) }
    }

    @Test("retries wait twice as long each time, never above the limit, and stop after the attempts")
    func retrySchedule() {
        let schedule = RetrySchedule(attempts: 6, first: 2, limit: 10)
        #expect((1...6).map { schedule.delay(beforeRetry: $0) } == [2, 4, 8, 10, 10, nil])
        #expect(RetrySchedule(attempts: 1).delay(beforeRetry: 1) == nil)
    }

    @Test("destinations in config.toml: named S3 and folder destinations, and what --to resolves to")
    func configuredDestinations() throws {
        let settings = try Settings(parsing: """
            destination = "archive"

            [destinations.archive]
            url = "s3://radio-archive/narrations"
            endpoint = "https://s3.example.org"
            region = "eu-central-1"
            path_style = true
            credentials_file = "~/.config/narrate/credentials"

            [destinations.share]
            url = "/mnt/share"
            """, file: "config.toml")
        let archive = try S3Destination(
            url: "s3://radio-archive/narrations", endpoint: "https://s3.example.org", region: "eu-central-1", pathStyle: true,
            credentialsFile: "~/.config/narrate/credentials")
        #expect(try settings.destination(named: "archive") == .s3(archive))
        #expect(try settings.destination(named: "share") == .folder("/mnt/share"))
        #expect(try settings.destination(named: "/srv/out") == .folder("/srv/out"))
        #expect(try settings.destination(named: "s3://other") == .s3(try S3Destination(url: "s3://other")))
        #expect(throws: NarrationError(.usage, "\"https://x\" is neither a folder nor an s3:// address; object storage is written s3://BUCKET/PREFIX.")) {
            try settings.destination(named: "https://x")
        }
        for (text, message) in [
            ("[destinations.a]\nendpoint = \"https://x\"", "config.toml, line 1: [destinations.a] needs url = \"s3://BUCKET/PREFIX\" or url = \"/path/to/folder\"."),
            ("[destinations.a]\nurl = \"/mnt\"\nregion = \"x\"", "config.toml, line 1: [destinations.a] is a folder, so region mean nothing there."),
            ("[destinations.a]\nurl = \"s3://radio\"\npath_style = \"yes\"", "config.toml, line 3: path_style in [destinations.a] must be true or false."),
            ("[destinations.a]\nurl = \"s3://Radio\"", "config.toml, line 1: [destinations.a]: \"Radio\" in s3://Radio is not a bucket name: use 3–63 lowercase letters, digits, dots and hyphens, as in s3://radio-archive/narrations."),
        ] {
            #expect(throws: NarrationError(.usage, message)) { try Settings(parsing: text, file: "config.toml") }
        }
    }
}
