import Foundation
import Glibc
import Narration
import NarrationCore
import NarrationTestSupport
import ObjectStorage
import Testing

/// The checks a credentials file must pass before its keys are used, each refusal one sentence
/// naming the file and the fix.
@Suite("A credentials file is used only when just its owner can read or change it")
struct CredentialFileTests {
    /// A private folder holding a private credentials file with the key pair FILEKEY / filesecret.
    private struct Keys {
        let folder = TemporaryFolder("narrate-credentials")
        var file: URL { folder.file("credentials") }
        var storage: S3Destination { get throws { try S3Destination(url: "s3://radio", credentialsFile: file.path) } }

        init() throws {
            chmod(folder.url.path, 0o700)
            try "[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = filesecret\n".write(to: file, atomically: false, encoding: .utf8)
            chmod(file.path, 0o600)
        }

        func credentials() throws -> S3Credentials { try CredentialSource.credentials(for: try storage, environment: [:]) }
    }

    @Test("a private file of the user's in a private folder gives its keys, also through a symbolic link")
    func privateFile() throws {
        let keys = try Keys()
        #expect(try keys.credentials() == S3Credentials(accessKeyID: "FILEKEY", secretAccessKey: "filesecret"))
        let link = keys.folder.file("link")
        #expect(symlink(keys.file.path, link.path) == 0)
        let linked = try S3Destination(url: "s3://radio", credentialsFile: link.path)
        #expect(try CredentialSource.credentials(for: linked, environment: [:]) == S3Credentials(accessKeyID: "FILEKEY", secretAccessKey: "filesecret"))
    }

    @Test("mode 640 is refused: its group can read it")
    func groupReadable() throws {
        let keys = try Keys()
        chmod(keys.file.path, 0o640)
        #expect(throws: NarrationError(
            .credentials,
            "The credentials file \(keys.file.path) can be read by others (mode 640); narrate uses it only when just you can: chmod 600 \(keys.file.path)")) {
            try keys.credentials()
        }
    }

    @Test("mode 620 is refused: its group can change it")
    func groupWritable() throws {
        let keys = try Keys()
        chmod(keys.file.path, 0o620)
        #expect(throws: NarrationError(
            .credentials,
            "The credentials file \(keys.file.path) can be changed or run by others (mode 620); narrate uses it only when just you can: chmod 600 \(keys.file.path)")) {
            try keys.credentials()
        }
    }

    @Test("a file owned by another user is refused, even with mode 600", .enabled(if: getuid() == 0, "giving a file to another user needs root"))
    func otherOwner() throws {
        let keys = try Keys()
        #expect(chown(keys.file.path, 65534, 65534) == 0)
        #expect(throws: NarrationError(
            .credentials,
            "The credentials file \(keys.file.path) is owned by another user (uid 65534); narrate uses only a file of your own: copy the keys into one and chmod 600 it.")) {
            try keys.credentials()
        }
    }

    @Test("a file in a folder that others can write is refused: they could replace it")
    func openFolder() throws {
        let keys = try Keys()
        chmod(keys.folder.url.path, 0o777)
        #expect(throws: NarrationError(
            .credentials,
            "The folder \(keys.folder.url.path) that holds the credentials file \(keys.file.path) can be written by others (mode 777), who could replace the file; make it yours alone: chmod go-w \(keys.folder.url.path)")) {
            try keys.credentials()
        }
        // A sticky folder of the user's or root's (as /tmp is) lets no one else rename or remove the file.
        chmod(keys.folder.url.path, 0o1777)
        #expect(try keys.credentials() == S3Credentials(accessKeyID: "FILEKEY", secretAccessKey: "filesecret"))
    }

    @Test("the folder checked is the one the file really is in, after symbolic links")
    func linkIntoOpenFolder() throws {
        let keys = try Keys()
        let open = TemporaryFolder("narrate-open-folder")
        chmod(open.url.path, 0o777)
        let real = open.file("credentials")
        try FileManager.default.copyItem(at: keys.file, to: real)
        chmod(real.path, 0o600)
        try FileManager.default.removeItem(at: keys.file)
        #expect(symlink(real.path, keys.file.path) == 0)
        #expect(throws: NarrationError(
            .credentials,
            "The folder \(open.url.path) that holds the credentials file \(keys.file.path) can be written by others (mode 777), who could replace the file; make it yours alone: chmod go-w \(open.url.path)")) {
            try keys.credentials()
        }
    }

    @Test("a FIFO or a folder in the file's place is refused at once, not waited on")
    func notAFile() throws {
        let keys = try Keys()
        try FileManager.default.removeItem(at: keys.file)
        #expect(mkfifo(keys.file.path, 0o600) == 0)
        #expect(throws: NarrationError(
            .credentials,
            "The credentials file \(keys.file.path) is a FIFO (named pipe), not a file; point credentials_file or AWS_SHARED_CREDENTIALS_FILE at the file that holds the keys.")) {
            try keys.credentials()
        }
        try FileManager.default.removeItem(at: keys.file)
        try FileManager.default.createDirectory(at: keys.file, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect(throws: NarrationError(
            .credentials,
            "The credentials file \(keys.file.path) is a folder, not a file; point credentials_file or AWS_SHARED_CREDENTIALS_FILE at the file that holds the keys.")) {
            try keys.credentials()
        }
    }
}
