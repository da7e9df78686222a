import ObjectStorage
import Testing

@Suite("S3 bucket addresses, answers, upload plans and credentials files")
struct ObjectStorageFormatTests {
    @Test("path-style and virtual-host addresses differ only in where the bucket goes")
    func addresses() {
        let aws = S3Bucket(name: "radio-archive", endpoint: "https://s3.eu-west-2.amazonaws.com", region: "eu-west-2", pathStyle: false)
        #expect(aws.address(ofKey: "p/a b.mp3") == ("https", "radio-archive.s3.eu-west-2.amazonaws.com", "/p/a b.mp3"))
        let local = S3Bucket(name: "radio", endpoint: "http://127.0.0.1:8333", region: "us-east-1", pathStyle: true)
        #expect(local.address(ofKey: "x.mp3") == ("http", "127.0.0.1:8333", "/radio/x.mp3"))
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
}
