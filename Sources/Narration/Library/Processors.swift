import Foundation

/// The processors this process may run on.
enum Processors {
    /// CPUs in the process's affinity mask, which `taskset` and a container's CPU set restrict
    /// (Foundation's `activeProcessorCount` counts the machine's, whatever the mask): read from
    /// `Cpus_allowed` in /proc/self/status, as glibc's `sched_getaffinity`, which Swift's Glibc
    /// module leaves out, would give it. At least 1.
    static var available: Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
        else { return max(1, ProcessInfo.processInfo.activeProcessorCount) }
        let mask = line.dropFirst("Cpus_allowed:".count).filter(\.isHexDigit)
        let count = mask.reduce(0) { $0 + ($1.hexDigitValue ?? 0).nonzeroBitCount }
        return max(1, count)
    }
}
