import Foundation
import ObjectStorage
import Testing

/// The examples AWS publishes for Signature Version 4 with S3 ("Examples: Signature Calculations
/// in AWS Signature Version 4", header-based authentication), checked step by step.
@Suite("AWS Signature Version 4")
struct SigV4SignerTests {
    let signer = SigV4Signer(
        credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1")
    static let timestamp = "20130524T000000Z"

    struct Example: Sendable, CustomTestStringConvertible {
        let name: String
        let request: SignableRequest
        let stringToSignHash: String
        let signedHeaders: String
        let signature: String
        var testDescription: String { name }
    }

    static let host = "examplebucket.s3.amazonaws.com"
    static let examples = [
        Example(
            name: "GET Object with a range",
            request: SignableRequest(
                method: "GET", path: "/test.txt",
                headers: ["Host": host, "Range": "bytes=0-9", "x-amz-content-sha256": SigV4Signer.emptyPayloadHash, "x-amz-date": timestamp],
                payloadHash: SigV4Signer.emptyPayloadHash),
            stringToSignHash: "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972",
            signedHeaders: "host;range;x-amz-content-sha256;x-amz-date",
            signature: "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"),
        Example(
            name: "PUT Object with a $ in the key",
            request: SignableRequest(
                method: "PUT", path: "/test$file.text",
                headers: [
                    "Host": host, "Date": "Fri, 24 May 2013 00:00:00 GMT", "x-amz-date": timestamp,
                    "x-amz-storage-class": "REDUCED_REDUNDANCY",
                    "x-amz-content-sha256": "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072",
                ],
                payloadHash: SigV4Signer.sha256Hex(Data("Welcome to Amazon S3.".utf8))),
            stringToSignHash: "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d",
            signedHeaders: "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
            signature: "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"),
        Example(
            name: "GET Bucket lifecycle",
            request: SignableRequest(
                method: "GET", path: "/", query: [("lifecycle", "")],
                headers: ["Host": host, "x-amz-date": timestamp, "x-amz-content-sha256": SigV4Signer.emptyPayloadHash],
                payloadHash: SigV4Signer.emptyPayloadHash),
            stringToSignHash: "9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca",
            signedHeaders: "host;x-amz-content-sha256;x-amz-date",
            signature: "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"),
        Example(
            name: "GET Bucket (list objects), parameters given out of order",
            request: SignableRequest(
                method: "GET", path: "/", query: [("prefix", "J"), ("max-keys", "2")],
                headers: ["Host": host, "x-amz-date": timestamp, "x-amz-content-sha256": SigV4Signer.emptyPayloadHash],
                payloadHash: SigV4Signer.emptyPayloadHash),
            stringToSignHash: "df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7",
            signedHeaders: "host;x-amz-content-sha256;x-amz-date",
            signature: "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"),
    ]

    @Test("each published example: canonical request, string to sign, signature and header", arguments: examples)
    func published(example: Example) {
        let toSign = signer.stringToSign(for: example.request, timestamp: Self.timestamp)
        #expect(toSign == "AWS4-HMAC-SHA256\n\(Self.timestamp)\n20130524/us-east-1/s3/aws4_request\n\(example.stringToSignHash)")
        #expect(signer.signature(for: example.request, timestamp: Self.timestamp) == example.signature)
        #expect(signer.authorization(for: example.request, timestamp: Self.timestamp)
            == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=\(example.signedHeaders),Signature=\(example.signature)")
    }

    @Test("the canonical request of the PUT example encodes the $ and lists headers in order")
    func canonicalPut() {
        let canonical = signer.canonicalRequest(Self.examples[1].request)
        #expect(canonical == """
            PUT
            /test%24file.text

            date:Fri, 24 May 2013 00:00:00 GMT
            host:examplebucket.s3.amazonaws.com
            x-amz-content-sha256:44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072
            x-amz-date:20130524T000000Z
            x-amz-storage-class:REDUCED_REDUNDANCY

            date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class
            44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072
            """)
    }

    @Test("signingHeaders adds the date, the payload hash and a matching Authorization")
    func signingHeaders() throws {
        let date = try #require(ISO8601DateFormatter().date(from: "2013-05-24T00:00:00Z"))
        let request = SignableRequest(
            method: "GET", path: "/test.txt", headers: ["Host": Self.host, "Range": "bytes=0-9"], payloadHash: SigV4Signer.emptyPayloadHash)
        let added = signer.signingHeaders(for: request, at: date)
        #expect(added["x-amz-date"] == Self.timestamp)
        #expect(added["x-amz-content-sha256"] == SigV4Signer.emptyPayloadHash)
        #expect(added["Authorization"]?.hasSuffix("Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41") == true)
    }
}
