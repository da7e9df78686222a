import Foundation

extension NarrationLibrary {
    /// Starts `narrate ARGUMENTS` (this same executable) in the background at a low priority
    /// (`nice -n 10`), with no input or output, and does not wait for it: work after a take (its
    /// measure and check) that must never delay the stop or the next take. A failure to start it
    /// is not the command's failure: the work is then done when it is first needed.
    /// - Returns: whether it started.
    @discardableResult
    public static func startInBackground(_ arguments: [String]) -> Bool {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        return FileSystem.spawnDetached("/usr/bin/nice", ["nice", "-n", "10", executable] + arguments)
    }
}
