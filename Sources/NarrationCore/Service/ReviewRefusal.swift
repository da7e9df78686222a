extension NarrationError {
    /// What review refuses when `Permissions.may` says no: one sentence for every such case, so
    /// that no one learns from a refusal what they may not see.
    public static let reviewNotAllowed = NarrationError(
        .accountRefused, "This account may not do that to this article: ask the service's coordinator.")

    /// Sending back an article with no note pinned since it was last sent back.
    public static let noNotesToSendBack = NarrationError(
        .usage, "There is no new note to send back: pin a note on what should be read again first.")

    /// A pickup that is not one of the article's open pickups.
    public static func noOpenPickup(_ id: Int64) -> NarrationError {
        NarrationError(.usage, "Note \(id) is not an open pickup of this article: list the article's notes to see which are.")
    }

    /// An edit number that cannot name an edit of the history.
    public static func noSuchEdit(_ edit: Int) -> NarrationError {
        NarrationError(.usage, "There is no edit \(edit) of this article after it was sent back: give the number its history shows for the take or punch.")
    }
}
