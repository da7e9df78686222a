public import Foundation
public import NarrationCore
import Glibc

/// A temporary folder for one test, removed when the value is deinitialised.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init(_ label: String = "narrate-test") {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        url = path
    }

    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Test signals, as the raw little-endian PCM an ALSA `file`-plugin microphone plays.
public enum Signals {
    /// `count` 16-bit samples of white noise, the same for the same seed in every run.
    public static func noise(_ count: Int, seed: UInt64) -> [Int16] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in Int16.random(in: .min ... .max, using: &generator) }
    }

    /// 16-bit little-endian bytes of `samples`, as a page sends a take's pieces.
    public static func littleEndian(_ samples: [Int16]) -> [UInt8] {
        samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }

    /// Speech from espeak-ng, converted by sox to `format` (raw, little-endian), at least
    /// `seconds` long (repeated as needed). Generated once per format and cached. Without
    /// dither (`-D`), so that the same format gives the same samples in every run.
    public static func speech(_ format: AudioFormat, seconds: Double = 8) throws -> [UInt8] {
        let key = "\(format.sampleRate)-\(format.channels)-\(format.bitsPerSample)-\(seconds)"
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let folder = TemporaryFolder("narrate-speech")
        let wav = folder.file("speech.wav").path
        let raw = folder.file("speech.raw").path
        try run("espeak-ng", ["-w", wav, "Volunteers read the news aloud for listeners who cannot read print. Every chunk is kept, sample by sample."])
        try run("sox", [wav, "-r", "\(format.sampleRate)", "-c", "\(format.channels)", "-b", "\(format.bitsPerSample)",
                        "-e", "signed-integer", "-L", "-t", "raw", "-D", raw])
        let once = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let needed = format.frames(forSeconds: seconds) * format.bytesPerFrame
        var bytes = once
        while bytes.count < needed { bytes += once }
        cache.withLock { $0[key] = bytes }
        return bytes
    }

    /// espeak-ng reading exactly `text` (voice `voice`, `wordsPerMinute`), converted by sox to
    /// `format` as raw little-endian PCM: speech whose words are known.
    public static func spoken(_ text: String, format: AudioFormat = .speech, voice: String = "en-us", wordsPerMinute: Int = 170) throws -> [UInt8] {
        let folder = TemporaryFolder("narrate-spoken")
        let wav = folder.file("spoken.wav").path
        let raw = folder.file("spoken.raw").path
        try run("espeak-ng", ["-v", voice, "-s", "\(wordsPerMinute)", "-w", wav, text])
        try run("sox", [wav, "-r", "\(format.sampleRate)", "-c", "\(format.channels)", "-b", "\(format.bitsPerSample)",
                        "-e", "signed-integer", "-L", "-t", "raw", "-D", raw])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// A 16-bit sine of `frequency` Hz whose peak is `peakDBFS`, as raw little-endian mono PCM.
    public static func sine(frequency: Double, peakDBFS: Double, seconds: Double, sampleRate: Int = 44_100) -> [UInt8] {
        let amplitude = pow(10, peakDBFS / 20) * 32_768
        let count = Int(seconds * Double(sampleRate))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 2)
        for index in 0..<count {
            // A phase offset of a quarter period puts the crest exactly on a sample.
            let value = Int16((amplitude * cos(2 * Double.pi * frequency * Double(index) / Double(sampleRate))).rounded())
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        return bytes
    }

    /// White noise at about -10 dBFS from a fixed seed, as raw little-endian mono 16-bit PCM.
    /// Every 8-sample stretch occurs once, so played audio can be traced back to where it came from.
    public static func noise(seconds: Double, seed: UInt64, sampleRate: Int = 44_100) -> [UInt8] {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        var bytes: [UInt8] = []
        let count = Int(seconds * Double(sampleRate))
        bytes.reserveCapacity(count * 2)
        for _ in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Int16(truncatingIfNeeded: Int64(bitPattern: state >> 33) % 20_000 - 10_000)
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        return bytes
    }

    /// Raw little-endian PCM bytes as the engine's left-justified `Int32` samples.
    public static func samples(_ bytes: [UInt8], bitsPerSample: Int) -> [Int32] {
        let width = bitsPerSample / 8
        return stride(from: 0, to: bytes.count - width + 1, by: width).map { offset in
            var value: UInt32 = 0
            for byte in 0..<width { value |= UInt32(bytes[offset + byte]) << (8 * UInt32(byte) + UInt32(32 - bitsPerSample)) }
            return Int32(bitPattern: value)
        }
    }

    private static let cache = NSLockedDictionary()

    /// Runs a tool to the end. - Returns: what it printed. - Throws: when it fails, with its output.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let folder = TemporaryFolder("narrate-run")
        let output = folder.file("output")
        let child = try ChildProcess(
            tool, arguments, environment: ProcessInfo.processInfo.environment, stdoutFile: output, stderrFile: folder.file("errors"))
        let status = child.wait()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let errors = (try? String(contentsOf: folder.file("errors"), encoding: .utf8)) ?? ""
            throw FixtureError("\(tool) \(arguments.joined(separator: " ")) failed (\(status)): \(text)\(errors)")
        }
        return text
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A lock-protected cache of generated signals.
final class NSLockedDictionary: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String: [UInt8]] = [:]

    func withLock<T>(_ body: (inout [String: [UInt8]]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&storage)
    }
}
