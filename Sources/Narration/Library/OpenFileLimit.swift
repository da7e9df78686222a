/// How many files and connections this process may hold open at once.
public enum OpenFileLimit {
    /// Raises the limit as far as the system allows an unprivileged process (the soft limit to the
    /// hard limit), as a server does before it takes connections.
    /// - Returns: the limit now, or nil when it cannot be read.
    @discardableResult
    public static func raiseToHardLimit() -> UInt64? { FileSystem.raiseOpenFileLimit() }
}
