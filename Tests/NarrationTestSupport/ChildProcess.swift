public import Foundation
import Glibc

/// A child process started with `posix_spawn` and reaped with `waitpid`.
///
/// Foundation's `Process` on Linux can miss a child's exit while another child is alive (the
/// exited one stays a zombie and `waitUntilExit` never returns), which hangs tests that keep a
/// server running; this small owner has no such state to lose.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    /// The read end of the child's stderr, when it was asked for as a pipe.
    public let stderrPipe: FileHandle?
    private var exitStatus: Int32?

    /// Starts `executable` (searched in PATH) with `environment`; stdin is /dev/null, stdout goes
    /// to `stdoutFile` (or /dev/null), stderr to `stderrFile`, or to a pipe when that is nil.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String],
        stdoutFile: URL?, stderrFile: URL?
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutFile?.path ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pipeEnds: [Int32] = [-1, -1]
        if let stderrFile {
            posix_spawn_file_actions_addopen(&actions, 2, stderrFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            guard pipe(&pipeEnds) == 0 else { throw FixtureError("pipe failed") }
            // Close-on-exec, so that children spawned meanwhile by other tests hold no end of it.
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // Test threads (Dispatch's above all) block most signals, and a child inherits the mask:
        // give it an empty mask and default handlers, so that SIGTERM and its own timers work.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        guard result == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            throw FixtureError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        stderrPipe = pipeEnds[0] >= 0 ? FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true) : nil
    }

    /// Waits for the child to end: its exit status, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        exitStatus = code
        return code
    }

    public func signal(_ number: Int32) { kill(pid, number) }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            wait()
        }
    }
}
