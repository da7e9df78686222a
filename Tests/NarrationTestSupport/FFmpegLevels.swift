public import Foundation

/// A file's levels as ffmpeg measures them, independently of narrate: its noise floor (the
/// quietest of its 0.5 s blocks by `astats`' RMS level, each block measured on its own), its RMS
/// (`astats`' overall RMS level) and its integrated loudness (`ebur128`).
public struct FFmpegLevels: Sendable {
    public let noiseFloor: Double
    public let rms: Double
    public let loudness: Double

    public init(_ file: URL) throws {
        let folder = TemporaryFolder("narrate-ffmpeg")
        let blocks = folder.file("blocks.txt")
        try Signals.run("ffmpeg", [
            "-hide_banner", "-nostats", "-i", file.path, "-af",
            "asetnsamples=n=22050:p=0,astats=metadata=1:reset=1,ametadata=print:key=lavfi.astats.Overall.RMS_level:file=\(blocks.path)",
            "-f", "null", "-",
        ])
        let levels = try String(contentsOf: blocks, encoding: .utf8).split(separator: "\n")
            .compactMap { $0.hasPrefix("lavfi.astats.Overall.RMS_level=") ? Double($0.split(separator: "=")[1]) : nil }
        // The last block is shorter than 0.5 s: left out.
        noiseFloor = levels.dropLast().min() ?? -.infinity
        let overall = try Signals.run("sh", ["-c", "ffmpeg -hide_banner -nostats -i '\(file.path)' -af astats,ebur128 -f null - 2>&1"])
        func last(_ label: String) throws -> Double {
            guard let range = overall.range(of: label, options: .backwards),
                let value = Double(overall[range.upperBound...].prefix { $0 != "\n" }.split(separator: " ").first ?? "")
            else { throw FixtureError("ffmpeg printed no \"\(label)\" for \(file.path)") }
            return value
        }
        rms = try last("RMS level dB:")
        loudness = try last("I:")
    }
}
