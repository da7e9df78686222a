import Foundation
import Narration
import NarrationCore
import Testing

/// Argon2id through libargon2 with the parameters narrate states.
@Suite("Passphrase hashes: Argon2id, salted, parameters in the stored string")
struct PassphraseHashTests {
    @Test("a hash verifies its passphrase and no other; it carries argon2id, v=19, m=65536, t=3, p=1 and its salt; two hashes of one passphrase differ")
    func standardHash() throws {
        let passphrase = "summer lantern over the weir"
        let first = try PassphraseHash.make(passphrase)
        let second = try PassphraseHash.make(passphrase)
        #expect(first.hasPrefix("$argon2id$v=19$m=65536,t=3,p=1$"), "\(first)")
        let fields = first.split(separator: "$", omittingEmptySubsequences: false)
        // "", "argon2id", "v=19", "m=65536,t=3,p=1", salt (16 bytes: 22 base64 characters), hash (32 bytes: 43).
        #expect(fields.count == 6 && fields[4].count == 22 && fields[5].count == 43, "\(fields)")
        #expect(first != second)
        #expect(fields[4] != second.split(separator: "$")[3])
        #expect(try PassphraseHash.verify(passphrase, against: first))
        #expect(try PassphraseHash.verify(passphrase, against: second))
        #expect(try !PassphraseHash.verify("summer lantern over the weir ", against: first))
        #expect(try !PassphraseHash.verify("Summer lantern over the weir", against: first))
        #expect(try !PassphraseHash.verify("", against: first))
    }

    @Test("a hash made with other parameters verifies with its own; a changed parameter or hash does not")
    func ownParameters() throws {
        let cheap = PassphraseHash.Parameters(iterations: 1, memoryKiB: 64, lanes: 1)
        let hash = try PassphraseHash.make("glimmering harbour", parameters: cheap)
        #expect(hash.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"))
        #expect(try PassphraseHash.verify("glimmering harbour", against: hash))
        #expect(try !PassphraseHash.verify("glimmering harbour", against: hash.replacingOccurrences(of: "t=1", with: "t=2")))
        var tampered = Array(hash)
        tampered[tampered.count - 2] = tampered[tampered.count - 2] == "A" ? "B" : "A"
        #expect(try !PassphraseHash.verify("glimmering harbour", against: String(tampered)))
    }

    @Test("a stored string that is not an Argon2id hash is a damaged catalog, never a match")
    func notAHash() {
        let refusal = NarrationError(.catalogCorrupt, "A stored passphrase hash is not an Argon2id hash narrate writes; reset the account to set a new passphrase.")
        for stored in ["", "plain text", "$2b$12$abcdefghijklmnopqrstuu", "$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaA"] {
            #expect(throws: refusal) { try PassphraseHash.verify("anything at all", against: stored) }
        }
        #expect(throws: NarrationError.self) { try PassphraseHash.verify("anything at all", against: "$argon2id$v=19$m=64,t=1,p=1$!!$??") }
    }
}
