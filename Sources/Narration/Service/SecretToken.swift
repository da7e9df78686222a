import Crypto
import Foundation

/// The secrets in invitation links and session cookies: 256 random bits from the system's
/// CSPRNG (`SystemRandomNumberGenerator`, which is `getrandom(2)` on Linux), written as 43
/// characters of base64url. Only a secret's SHA-256 is ever stored: it is as random as the key
/// itself, so a fast hash is enough, and a copy of the catalog opens no one's account.
enum SecretToken {
    static let length = 43

    /// A new secret.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Whether `text` has a secret's shape (checked before anything is looked up).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// The hash kept in place of `token`: SHA-256, as 64 hexadecimal digits.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
