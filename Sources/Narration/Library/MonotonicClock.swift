import Glibc

/// Seconds on `CLOCK_MONOTONIC`: the clock that timestamps capture, comparable across processes.
public enum MonotonicClock {
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
