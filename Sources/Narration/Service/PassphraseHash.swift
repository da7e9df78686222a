import CArgon2
import Foundation
public import NarrationCore

/// Passphrases hashed with Argon2id (RFC 9106) by Debian's libargon2, the reference
/// implementation; the only code that imports CArgon2.
///
/// Why Argon2id rather than hummingbird-auth's bcrypt: bcrypt reads only the first 72 bytes of
/// a passphrase (a passphrase of ordinary words passes that easily, and the rest would be
/// silently ignored), and it needs little memory, so graphics cards guess it cheaply; Argon2id
/// is memory-hard, RFC 9106's and OWASP's first choice, and libargon2 comes from Debian with its
/// security updates instead of a copy compiled into narrate.
///
/// The stored string is Argon2's own encoding, which carries the version, parameters and salt:
/// `$argon2id$v=19$m=65536,t=3,p=1$SALT$HASH` (base64 without padding). A hash verifies with
/// the parameters it was made with, so stronger parameters later leave older hashes usable.
public enum PassphraseHash {
    /// Argon2id's cost parameters.
    public struct Parameters: Sendable, Equatable {
        /// Passes over the memory (t).
        public var iterations: UInt32
        /// Memory in KiB (m).
        public var memoryKiB: UInt32
        /// Lanes (p), each hashed on its own thread by libargon2.
        public var lanes: UInt32

        public init(iterations: UInt32, memoryKiB: UInt32, lanes: UInt32) {
            self.iterations = iterations
            self.memoryKiB = memoryKiB
            self.lanes = lanes
        }

        /// 64 MiB, 3 passes, 1 lane: RFC 9106's second recommended option with one lane, so that
        /// one sign-in takes one core (about a fifth of a second here) and leaves the others to
        /// the takes being recorded; above OWASP's minimum (19 MiB, 2 passes).
        public static let standard = Parameters(iterations: 3, memoryKiB: 64 * 1024, lanes: 1)
    }

    /// Bytes of random salt (128 bits).
    public static let saltBytes = 16
    /// Bytes of hash output (256 bits).
    public static let hashBytes = 32

    /// The encoded Argon2id hash of `passphrase` with a fresh random salt.
    /// - Throws: `accountRefused` only if libargon2 fails (no memory for its work area).
    public static func make(_ passphrase: String, parameters: Parameters = .standard) throws(NarrationError) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<saltBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let length = argon2_encodedlen(parameters.iterations, parameters.memoryKiB, parameters.lanes, UInt32(saltBytes), UInt32(hashBytes), Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let bytes = Array(passphrase.utf8)
        let status = bytes.withUnsafeBytes { password in
            salt.withUnsafeBytes { saltBuffer in
                argon2id_hash_encoded(
                    parameters.iterations, parameters.memoryKiB, parameters.lanes, password.baseAddress, password.count,
                    saltBuffer.baseAddress, saltBuffer.count, hashBytes, &encoded, length)
            }
        }
        try check(status, "hash a passphrase")
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `passphrase` is the one `encoded` was made from (compared in constant time by
    /// libargon2).
    /// - Throws: `catalogCorrupt` when `encoded` is not an Argon2id hash narrate wrote.
    public static func verify(_ passphrase: String, against encoded: String) throws(NarrationError) -> Bool {
        guard encoded.hasPrefix("$argon2id$") else {
            throw NarrationError(.catalogCorrupt, "A stored passphrase hash is not an Argon2id hash narrate writes; reset the account to set a new passphrase.")
        }
        let bytes = Array(passphrase.utf8)
        let status = bytes.withUnsafeBytes { password in argon2id_verify(encoded, password.baseAddress, password.count) }
        if status == ARGON2_OK.rawValue { return true }
        if status == ARGON2_VERIFY_MISMATCH.rawValue { return false }
        if status == ARGON2_MEMORY_ALLOCATION_ERROR.rawValue { try check(status, "check a passphrase") }
        throw NarrationError(
            .catalogCorrupt,
            "A stored passphrase hash cannot be read (\(String(cString: argon2_error_message(status)))); reset the account to set a new passphrase.")
    }

    /// libargon2's result as an error; the one funnel for its return codes.
    private static func check(_ status: Int32, _ call: String) throws(NarrationError) {
        guard status != ARGON2_OK.rawValue else { return }
        throw NarrationError(.accountRefused, "Could not \(call): \(String(cString: argon2_error_message(status))).")
    }
}
