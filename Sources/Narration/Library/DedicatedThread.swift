import Foundation

/// A thread of its own, for the few loops that must not be pool work, each started with the
/// reason it is not: real-time audio (a take's capture and its writer, playback), and code that
/// blocks for as long as the world takes (the terminal's key reader, a microphone test on a
/// device that may never answer).
///
/// Every other piece of blocking work goes through `BlockingWork` (or `ParallelWork`); apart
/// from the `WorkerPool` behind those, this is the only code that makes threads.
public enum DedicatedThread {
    /// Why a loop has a thread of its own rather than a pool thread.
    public enum Reason: Sendable {
        /// It moves audio at the device's pace (capture, playback, or the writer that keeps up
        /// with capture): it must run the moment a period is due, never queue behind other work.
        case realTimeAudio
        /// It blocks for as long as the world takes (keys on a terminal, a device that may never
        /// answer): it would hold a pool thread for an unbounded time, or for ever.
        case blocksIndefinitely
    }

    /// Starts `body` on a new thread named `name` (as `ps -L`, `top -H` and a debugger show it;
    /// Linux keeps the first 15 bytes), which ends when `body` returns. Whoever needs to know
    /// when that is signals it from `body`. `reason` is for the reader: the thread is the same.
    public static func start(named name: String, because reason: Reason, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}
