import NarrationCore
import Testing

@Suite("S3 addresses, answers, upload plans and retries")
struct ObjectStorageCoreTests {
    @Test("s3://BUCKET/PREFIX parses; path-style and virtual-host addresses differ only in where the bucket goes")
    func addresses() throws {
        let aws = try S3Destination(url: "s3://radio-archive/narrations/2026/", region: "eu-west-2")
        #expect(aws.bucket == "radio-archive" && aws.prefix == "narrations/2026" && aws.endpoint == "https://s3.eu-west-2.amazonaws.com")
        #expect(aws.key(for: "Daily Post/2026-11-21/a.mp3") == "narrations/2026/Daily Post/2026-11-21/a.mp3")
        #expect(aws.address(ofKey: "p/a b.mp3") == ("https", "radio-archive.s3.eu-west-2.amazonaws.com", "/p/a b.mp3"))
        let local = try S3Destination(url: "s3://radio", endpoint: "http://127.0.0.1:8333/", pathStyle: true)
        #expect(local.prefix == "" && local.key(for: "x.mp3") == "x.mp3" && local.description == "s3://radio")
        #expect(local.address(ofKey: "x.mp3") == ("http", "127.0.0.1:8333", "/radio/x.mp3"))
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

    @Test("S3's XML answers: error code and message with entities, an upload id, the parts of a listing")
    func xml() {
        let error = S3XML("""
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>SignatureDoesNotMatch</Code><Message>The request &amp; its &quot;signature&quot; &#x2014; differ&#46;</Message></Error>
            """)
        #expect(error.value(of: "Code") == "SignatureDoesNotMatch")
        #expect(error.value(of: "Message") == "The request & its \"signature\" — differ.")
        #expect(error.value(of: "RequestId") == nil)
        let started = S3XML("<InitiateMultipartUploadResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Bucket>radio</Bucket><UploadId>abc_1</UploadId></InitiateMultipartUploadResult>")
        #expect(started.value(of: "UploadId") == "abc_1" && started.value(of: "Upload") == nil)
        let listing = S3XML("""
            <ListPartsResult><IsTruncated>false</IsTruncated><Part><PartNumber>1</PartNumber><ETag>&quot;aa&quot;</ETag><Size>8388608</Size></Part>\
            <Part><PartNumber>2</PartNumber><ETag>"bb"</ETag><Size>5</Size></Part><Owner/></ListPartsResult>
            """)
        let parts = listing.elements(named: "Part")
        #expect(parts.map { $0.value(of: "PartNumber") } == ["1", "2"])
        #expect(parts.map { $0.value(of: "ETag") } == ["\"aa\"", "\"bb\""])
        #expect(listing.elements(named: "Owner").count == 1 && listing.value(of: "IsTruncated") == "false")
    }

    @Test("random and truncated XML never traps the reader")
    func xmlFuzz() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["<", ">", "/", "Code", "Part", "<Code>", "</Code>", "<Part>", "</Part>", "&", "&amp;", "&#", "&#x", "110000;", ";", " ", "\"", "é", "<Code/>", "<Codex>"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let document = S3XML(text)
            for part in document.elements(named: "Part") { _ = part.value(of: "Code") }
            if let code = document.value(of: "Code") { #expect(code.count <= text.count) }
        }
    }

    @Test("files up to 8 MiB go in one PUT; larger ones in 8 MiB parts; a huge one in at most 10 000 parts")
    func uploadPlans() {
        let mebibyte = 1_048_576
        #expect(UploadPlan(bytes: 0).parts == [0..<0] && !UploadPlan(bytes: 8 * mebibyte).isMultipart)
        let three = UploadPlan(bytes: 20 * mebibyte + 1)
        #expect(three.isMultipart && three.parts == [0..<8 * mebibyte, 8 * mebibyte..<16 * mebibyte, 16 * mebibyte..<20 * mebibyte + 1])
        let huge = UploadPlan(bytes: 100_000 * mebibyte)
        #expect(huge.partSize == 10 * mebibyte && huge.parts.count == 10_000 && huge.parts.last?.upperBound == 100_000 * mebibyte)
    }

    @Test("retries wait twice as long each time, never above the limit, and stop after the attempts")
    func retrySchedule() {
        let schedule = RetrySchedule(attempts: 6, first: 2, limit: 10)
        #expect((1...6).map { schedule.delay(beforeRetry: $0) } == [2, 4, 8, 10, 10, nil])
        #expect(RetrySchedule(attempts: 1).delay(beforeRetry: 1) == nil)
    }

    @Test("a credentials file: profiles, the 'profile' prefix, comments and spaces")
    func credentialsFile() {
        let file = CredentialsFile(parsing: """
            # shared by the office
            [default]
            aws_access_key_id = AKIDEXAMPLE
            aws_secret_access_key=wJalr/K7MDENG+bPxRfiCY
            [profile radio]
              aws_access_key_id = RADIO
            ; no secret here
            region = eu-west-1
            """)
        #expect(file.profiles["default"] == .init(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalr/K7MDENG+bPxRfiCY", sessionToken: nil))
        #expect(file.profiles["radio"] == .init(accessKeyID: "RADIO", secretAccessKey: nil, sessionToken: nil))
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
            ("[destinations.a]\nendpoint = \"https://x\"", "config.toml: [destinations.a] needs url = \"s3://BUCKET/PREFIX\" or url = \"/path/to/folder\"."),
            ("[destinations.a]\nurl = \"/mnt\"\nregion = \"x\"", "config.toml: [destinations.a] is a folder, so region mean nothing there."),
            ("[destinations.a]\nurl = \"s3://radio\"\npath_style = \"yes\"", "config.toml: path_style in [destinations.a] must be true or false."),
            ("[destinations.a]\nurl = \"s3://Radio\"", "config.toml: [destinations.a]: \"Radio\" in s3://Radio is not a bucket name: use 3–63 lowercase letters, digits, dots and hyphens, as in s3://radio-archive/narrations."),
        ] {
            #expect(throws: NarrationError(.usage, message)) { try Settings(parsing: text, file: "config.toml") }
        }
    }
}
