/// What a passphrase must be before it is hashed and kept: long enough, not too long, and not
/// made of what guessers try first.
///
/// Length counts characters as a person sees them. The plain-words refusal takes out digits,
/// spaces and symbols, the account's own name and the most-guessed words (`guessedWords`): at
/// least 6 letters must remain, and the whole passphrase must have at least 5 different
/// characters. "summer lantern over the weir" passes; "Password 2026!!", "ann.lee ann.lee",
/// "correct horse battery staple" and "aaaaaaaaaaaaaaa" do not.
public enum PassphraseRule {
    public static let minimumLength = 12
    /// Long enough for any sentence; the bound keeps a request's size and hashing work small.
    public static let maximumLength = 256

    /// The rule in words, for the page where a person chooses a passphrase.
    public static let summary =
        "At least \(minimumLength) characters. A few ordinary words of your own, with spaces, make a good one; not your name, and not mostly digits, symbols or common words such as password."

    /// Words and phrases guessers try first, in lowercase letters only.
    static let guessedWords = [
        "correcthorsebatterystaple", "passphrase", "password", "passwort", "motdepasse", "letmein", "welcome", "qwertyuiop",
        "qwerty", "azerty", "asdfgh", "zxcvbn", "iloveyou", "changeme", "trustno", "secret", "narrate", "narrator", "volunteer",
        "admin", "administrator", "coordinator", "proof", "listener", "reading", "service", "abcdefghijklmnopqrstuvwxyz", "abcdef",
        "abc", "monkey", "dragon", "football", "sunshine", "princess", "master", "login", "hello", "test",
    ]

    /// Checks `passphrase` for the account `name`.
    /// - Throws: `usage` saying what is wrong and what makes a good one; the passphrase itself
    ///   is never repeated in the sentence.
    public static func check(_ passphrase: String, for name: AccountName) throws(NarrationError) {
        let count = passphrase.count
        guard count >= minimumLength else {
            throw .usage(
                "A passphrase needs at least \(minimumLength) characters; this one has \(count). A few ordinary words of your own, with spaces, make a good one.")
        }
        guard count <= maximumLength else {
            throw .usage("A passphrase may have at most \(maximumLength) characters; this one has \(count).")
        }
        guard !passphrase.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .usage("A passphrase cannot hold control characters such as a line break or a tab.")
        }
        guard Set(passphrase.lowercased()).count >= 5, plainLetters(of: passphrase, name: name).count >= 6 else {
            throw .usage(
                "That passphrase is too easy to guess: it is mostly the account's name, digits, symbols or words guessers try first. A few ordinary words of your own, with spaces, make a good one.")
        }
    }

    /// The letters left once digits, symbols, the account's name and the guessed words are taken out.
    static func plainLetters(of passphrase: String, name: AccountName) -> String {
        var letters = String(passphrase.lowercased().filter(\.isLetter))
        let nameLetters = String(name.rawValue.filter(\.isLetter))
        let words = (nameLetters.count >= 3 ? [nameLetters] : []) + guessedWords
        for word in words.sorted(by: { $0.count > $1.count }) {
            letters = letters.replacingAll(word)
        }
        return letters
    }
}

extension String {
    /// This text without any occurrence of `word`.
    fileprivate func replacingAll(_ word: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: word) {
            result += rest[..<range.lowerBound]
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
