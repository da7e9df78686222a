import Foundation
import ObjectStorage
import Testing

@Suite("An S3 client's life")
struct S3ClientLifeTests {
    /// Before, a client let go without `shutdown()` (a delivery that threw past its clean-up)
    /// trapped the process in a debug build: async-http-client's check of a client freed running.
    @Test("a client let go without shutdown shuts itself down, and the process goes on")
    func letGoWithoutShutdown() async throws {
        weak var released: S3Client?
        do {
            let client = S3Client(
                bucket: S3Bucket(name: "radio", endpoint: "http://127.0.0.1:9", region: "us-east-1", pathStyle: true),
                credentials: S3Credentials(accessKeyID: "key", secretAccessKey: "secret"))
            released = client
        }
        #expect(released == nil)
        // A second client, shut down as it should be, then let go: nothing happens twice.
        let client = S3Client(
            bucket: S3Bucket(name: "radio", endpoint: "http://127.0.0.1:9", region: "us-east-1", pathStyle: true),
            credentials: S3Credentials(accessKeyID: "key", secretAccessKey: "secret"))
        await client.shutdown()
        await client.shutdown()
        #expect(client.bucket.name == "radio")
    }
}
