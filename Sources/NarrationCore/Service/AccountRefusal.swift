public import Foundation

extension NarrationError {
    /// No account has the name `name`.
    public static func unknownAccount(_ name: String) -> NarrationError {
        NarrationError(.unknownAccount, "No account is named \"\(Role.quoted(name))\".")
    }

    /// An invitation that is not genuine, or not for the account it is used for: the two are
    /// one sentence, so that a guesser learns nothing of which accounts or secrets exist.
    public static let invitationNotValid = NarrationError(
        .accountRefused, "This invitation link is not valid: ask the service's administrator for a new one.")

    public static let invitationUsed = NarrationError(
        .accountRefused, "This invitation link has been used already: ask the service's administrator for a new one.")

    public static func invitationExpired(on date: Date) -> NarrationError {
        NarrationError(
            .accountRefused,
            "This invitation link expired on \(AccountTime.utc(date)): ask the service's administrator for a new one.")
    }

    public static func accountDisabled(_ name: AccountName) -> NarrationError {
        NarrationError(.accountRefused, "The account \"\(name)\" is disabled: ask the service's administrator to enable it.")
    }

    /// A wrong name or passphrase: one sentence for both, so that sign-in tells no one which names exist.
    public static let signInWrong = NarrationError(.accountRefused, "The name or the passphrase is wrong.")

    public static func signInWait(until date: Date) -> NarrationError {
        NarrationError(
            .accountRefused,
            "Too many wrong passphrases for this account or from this address: try again after \(AccountTime.utc(date)).")
    }

    /// A session that is unknown, ended, idle too long or too old: sign in again.
    public static let sessionEnded = NarrationError(.accountRefused, "This session has ended: sign in again.")
}

/// Times as account messages and listings show them: UTC to the minute, "2026-12-03 10:00 UTC".
public enum AccountTime {
    public static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d UTC", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }
}
