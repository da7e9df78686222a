import Foundation
import Glibc
@testable import Narration
import NarrationCore
import NarrationTestSupport
import ObjectStorage
import Testing

@Suite("Prune after delivery; where S3 credentials come from")
struct PruneAndCredentialsTests {
    @Test("prune refuses before a confirmed delivery and after any later edit; then removes chunks and trash, keeping the export")
    func prune() async throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Budget", publication: "Post", narrator: "Ann", format: .speech)
        try fixture.record(article, seconds: 0.5)
        try fixture.record(article, seconds: 0.5, placement: .replace(ChunkIndex(1)))  // the first take goes to the trash
        await #expect(throws: NarrationError(
            .usage,
            "Article \"Budget\" (\(article.id)) has no confirmed delivery of its chunks as they are: it has not been queued yet. Prune removes recordings only after one.",
            remedy: .submitFirst)) {
            try await fixture.library.prune(article)
        }
        let job = try fixture.library.queue(article, profile: .archive).job
        await #expect { try await fixture.library.prune(article) } throws: {
            ($0 as? NarrationError)?.message.contains("its export is still in the outbox (0 attempts)") == true
        }
        let share = fixture.folder.file("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let delivered = try await fixture.library.deliver(job, toFolder: share)

        // A take after the delivery withdraws it: prune refuses until the article is delivered again.
        try fixture.record(article, seconds: 0.3)
        await #expect(throws: NarrationError(
            .usage,
            "Article \"Budget\" (\(article.id)) has no confirmed delivery of its chunks as they are: it changed after its last export, which was withdrawn. Prune removes recordings only after one.",
            remedy: .submitFirst)) {
            try await fixture.library.prune(article)
        }
        _ = try fixture.library.deleteChunk(at: ChunkIndex(2), of: article)
        let trash = fixture.library.root.trashURL(article.id)
        #expect(try FileManager.default.contentsOfDirectory(atPath: trash.path).count == 2)  // the replaced take and the deleted one
        let again = try await fixture.library.deliver(try fixture.library.queue(article, profile: .archive).job, toFolder: share)
        #expect(again.remotePath == delivered.remotePath)

        // A delivered file that was changed at the destination is not a confirmed delivery.
        let remote = URL(fileURLWithPath: try #require(again.remotePath))
        let original = try Data(contentsOf: remote)
        try Data(original.reversed()).write(to: remote)
        await #expect { try await fixture.library.prune(article) } throws: {
            ($0 as? NarrationError)?.message == "The delivery of \"Budget\" could not be confirmed, so no recording was removed: the delivered file \(remote.path) holds other bytes than were delivered. Submit the article again, then prune."
        }
        try original.write(to: remote)

        let dryRun = try await fixture.library.prune(article, dryRun: true)
        #expect(dryRun.chunks == 1 && FileManager.default.fileExists(atPath: trash.path) && dryRun.deliveredTo == remote.path)
        let result = try await fixture.library.prune(article)
        #expect(result == dryRun)
        #expect(result.bytes == 44 + 22_050 * 2 + 44 + 22_050 * 2 + 44 + 13_230 * 2)
        #expect(!FileManager.default.fileExists(atPath: trash.path) && !FileManager.default.fileExists(atPath: fixture.library.root.chunksURL(article.id).path))
        #expect(try fixture.library.chunkEntries(of: article).isEmpty && fixture.library.article(article.id.rawValue).state == .pruned)
        #expect(FileManager.default.fileExists(atPath: again.file.path))
        #expect(try fixture.library.prunableArticles().isEmpty)
        let pruned = try fixture.library.article(article.id.rawValue)
        #expect(throws: NarrationError(
            .emptyArticle,
            "\"Budget\" has no chunks: its recordings were removed by prune after delivery, so there is nothing to export.",
            remedy: .showDeliveredFile)) {
            try fixture.library.export(pruned, to: fixture.folder.file("again.flac"), settings: ExportSettings(profile: .archive))
        }
    }

    @Test("credentials: the environment first, then an owner-only file and its profile; each shortfall said")
    func credentials() throws {
        let folder = TemporaryFolder("narrate-credentials")
        let file = folder.file("credentials")
        try "[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = filesecret\n[profile radio]\naws_access_key_id = RADIOKEY\naws_secret_access_key = radiosecret\naws_session_token = tok\n"
            .write(to: file, atomically: false, encoding: .utf8)
        chmod(file.path, 0o600)
        let storage = try S3Destination(url: "s3://radio", credentialsFile: file.path)
        let environment = ["AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "envsecret", "HOME": folder.url.path]
        #expect(try CredentialSource.credentials(for: storage, environment: environment) == S3Credentials(accessKeyID: "ENVKEY", secretAccessKey: "envsecret"))
        #expect(try CredentialSource.credentials(for: storage, environment: [:]) == S3Credentials(accessKeyID: "FILEKEY", secretAccessKey: "filesecret"))
        #expect(try CredentialSource.credentials(for: storage, environment: ["AWS_PROFILE": "radio"])
            == S3Credentials(accessKeyID: "RADIOKEY", secretAccessKey: "radiosecret", sessionToken: "tok"))
        #expect(throws: NarrationError(.credentials, "The credentials file \(file.path) has no [other] section with aws_access_key_id and aws_secret_access_key.")) {
            try CredentialSource.credentials(for: storage, environment: ["AWS_PROFILE": "other"])
        }
        #expect(throws: NarrationError(.credentials, "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not; set both, or neither to use a credentials file.")) {
            try CredentialSource.credentials(for: storage, environment: ["AWS_ACCESS_KEY_ID": "x"])
        }
        chmod(file.path, 0o640)
        #expect(throws: NarrationError(
            .credentials, "The credentials file \(file.path) can be read by others (mode 640); narrate uses it only when just you can: chmod 600 \(file.path)")) {
            try CredentialSource.credentials(for: storage, environment: [:])
        }
        let fallback = try S3Destination(url: "s3://radio")
        #expect(throws: NarrationError(
            .credentials, "No credentials for s3://radio: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write them to \(folder.url.path)/.aws/credentials (readable by you only: chmod 600).")) {
            try CredentialSource.credentials(for: fallback, environment: ["HOME": folder.url.path])
        }
    }
}
