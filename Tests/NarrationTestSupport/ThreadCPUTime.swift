import Glibc

/// The processor time the calling thread has spent (`CLOCK_THREAD_CPUTIME_ID`): a bound on a
/// reader's own cost that holds whether or not other tests load every core meanwhile.
public enum ThreadCPUTime {
    public static var now: Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// The processor time `work` took on this thread.
    public static func measure<E: Error>(_ work: () throws(E) -> Void) throws(E) -> Duration {
        let started = now
        try work()
        return now - started
    }
}
