/// What narrate found at a name where it writes (or reads back) a file of its own that is not
/// one: narrate never opens it, and leaves it and whatever it points at as they are.
///
/// A symbolic link planted there (in an article folder, the outbox, or a destination folder
/// others can write) would otherwise make narrate truncate or overwrite its target, or read
/// someone else's file as its own (a feed's items).
public enum ForeignFile: Sendable, Equatable {
    /// A symbolic link.
    case symbolicLink
    /// A regular file another user owns, at the name of one of narrate's temporary files.
    case otherUsersFile
    /// Not a regular file with one name: a folder, a FIFO, a device, a socket, or a hard link
    /// to a file that has other names.
    case notRegularFile

    /// "a symbolic link, and narrate never writes through one".
    func phrase(doing verb: String) -> String {
        switch self {
        case .symbolicLink: "it is a symbolic link, and narrate never \(verb)s through one"
        case .otherUsersFile: "it is another user's file, not one narrate made"
        case .notRegularFile: "it is not a regular file narrate made"
        }
    }
}

extension NarrationError {
    /// The refusal for `path`, which holds `found` where narrate writes a file of its own
    /// (`verb` "write"), or reads back one it wrote (`verb` "read"): nothing was written through
    /// it. "Cannot write …/space.reserve: it is a symbolic link, and narrate never writes through
    /// one; remove it, then try again."
    public static func foreignFile(_ path: String, _ found: ForeignFile, doing verb: String = "write") -> NarrationError {
        NarrationError(.fileSystem, "Cannot \(verb) \(path): \(found.phrase(doing: verb)); remove it, then try again.", subject: .file(path))
    }
}
