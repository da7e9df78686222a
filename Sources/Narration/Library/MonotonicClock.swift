/// Seconds on `CLOCK_MONOTONIC`: the clock that timestamps capture, comparable across processes.
public enum MonotonicClock {
    public static func now() -> Double { FileSystem.monotonicSeconds() }
}
