internal import CSndFile
import Glibc
public import NarrationCore

/// An audio file open for reading: the single owner of its `SNDFILE`.
///
/// Samples come out as left-justified `Int32`s (see `AudioFormat`), whatever the file's depth.
/// Floating-point and lossy codings (float WAV, Vorbis, Opus, MP3) are read as doubles and
/// rounded to `Int32`, holding a sample beyond full scale at full scale: libsndfile's own
/// conversion of them to integers wraps such a sample to the other sign, and reads a float WAV
/// as silence unless it scales the whole file to its peak.
public final class SoundFileReader: @unchecked Sendable {
    public let path: String
    /// The rate and channels; `bitsPerSample` is the file's integer depth (8, 16, 20, 24 or 32),
    /// or 32 for floating-point and lossy codings, whose samples come out at full `Int32` resolution.
    public let format: AudioFormat
    /// How the file holds its samples: container and coding.
    public let encoding: SoundFileEncoding
    public let frames: FrameCount
    private var file: OpaquePointer?
    /// Room for doubles when the coding is read through them (see the type's summary).
    private var decoded: [Double] = []

    /// Opens `path`. The corresponding C function is `sf_open`.
    /// - Throws: `chunkFileMissing` if there is no file, `fileCorrupt` if libsndfile cannot read it.
    public init(path: String) throws(NarrationError) {
        self.path = path
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            if access(path, F_OK) != 0 {
                throw NarrationError(.chunkFileMissing, "The audio file \(path) is missing.")
            }
            throw NarrationError(.fileCorrupt, "Cannot read \(path): \(String(cString: sf_strerror(nil))).")
        }
        self.file = file
        self.encoding = SoundFileEncoding(format: info.format, file: file)
        self.format = AudioFormat(sampleRate: Int(info.samplerate), channels: Int(info.channels), bitsPerSample: encoding.bitsPerSample ?? 32)
        self.frames = Int(info.frames)
    }

    /// Reads up to `frames` frames into `samples`.
    /// - Returns: frames read; 0 at the end. The corresponding C function is `sf_readf_int`.
    public func read(into samples: UnsafeMutableBufferPointer<Int32>, frames: FrameCount) throws(NarrationError) -> FrameCount {
        guard let file else { preconditionFailure("read after close") }
        precondition(samples.count >= frames * format.channels, "read needs room for the frames asked for")
        let read: sf_count_t
        if encoding.bitsPerSample == nil {
            let count = frames * format.channels
            if decoded.count < count { decoded = [Double](repeating: 0, count: count) }
            read = decoded.withUnsafeMutableBufferPointer { sf_readf_double(file, $0.baseAddress, sf_count_t(frames)) }
            for index in 0..<(Int(read) * format.channels) { samples[index] = Self.saturated(decoded[index]) }
        } else {
            read = sf_readf_int(file, samples.baseAddress, sf_count_t(frames))
        }
        if read < frames, sf_error(file) != 0 {
            throw NarrationError(.fileCorrupt, "Cannot read \(path): \(String(cString: sf_strerror(file))).")
        }
        return Int(read)
    }

    /// Moves to frame `frame` (sample-exact for WAV). The corresponding C function is `sf_seek`.
    public func seek(to frame: FrameCount) throws(NarrationError) {
        guard let file else { preconditionFailure("seek after close") }
        guard sf_seek(file, sf_count_t(frame), SEEK_SET) == sf_count_t(frame) else {
            throw NarrationError(.fileCorrupt, "Cannot seek to frame \(frame) of \(path): \(String(cString: sf_strerror(file))).")
        }
    }

    /// Reads the whole file (for tests and short files).
    public func readAll() throws(NarrationError) -> [Int32] {
        var samples = [Int32](repeating: 0, count: frames * format.channels)
        var total = 0
        try samples.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
            while total < frames {
                let slice = UnsafeMutableBufferPointer(rebasing: buffer[(total * format.channels)...])
                let read = try self.read(into: slice, frames: frames - total)
                if read == 0 { break }
                total += read
            }
        }
        return Array(samples[0..<(total * format.channels)])
    }

    /// A sample read as a double (full scale ±1) as a left-justified `Int32`: rounded to the
    /// nearest, beyond full scale held at full scale, NaN as silence.
    static func saturated(_ value: Double) -> Int32 {
        let scaled = (value * 2_147_483_648).rounded()
        if scaled >= 2_147_483_647 { return .max }
        if scaled <= -2_147_483_648 { return .min }
        return scaled.isNaN ? 0 : Int32(scaled)
    }

    /// Closes the file. The corresponding C function is `sf_close`.
    public func close() {
        if let file { sf_close(file) }
        file = nil
    }

    deinit { close() }
}

/// How an audio file holds its samples, as libsndfile reports it: "WAV 16-bit", "FLAC 24-bit",
/// "WAV 32-bit float", "MP3", "Ogg Vorbis", "Ogg Opus".
public struct SoundFileEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The container: "WAV", "FLAC", "Ogg", "AIFF", … ("MP3" for an MPEG audio stream).
    public let container: String
    /// The coding within it: "16-bit", "32-bit float", "Vorbis", "Opus", "MP3", …
    public let coding: String
    /// The depth of an integer coding (PCM, FLAC, ALAC, and codings that decode to 16 bits such
    /// as A-law or ADPCM); nil for floating-point and lossy codings.
    public let bitsPerSample: Int?

    public var description: String { container == coding ? container : "\(container) \(coding)" }

    /// From `SF_INFO.format`; libsndfile's own names for containers and codings this does not know.
    /// The corresponding C function is `sf_command(SFC_GET_FORMAT_INFO)`.
    init(format: CInt, file: OpaquePointer) {
        let type = format & CInt(SF_FORMAT_TYPEMASK)
        let subtype = format & CInt(SF_FORMAT_SUBMASK)
        func libraryName(_ code: CInt) -> String {
            var info = SF_FORMAT_INFO()
            info.format = code
            guard sf_command(file, CInt(SFC_GET_FORMAT_INFO), &info, CInt(MemoryLayout<SF_FORMAT_INFO>.size)) == 0, let name = info.name else {
                return "0x" + String(code, radix: 16, uppercase: true)
            }
            return String(cString: name)
        }
        let containers: [Int: String] = [
            SF_FORMAT_WAV: "WAV", SF_FORMAT_WAVEX: "WAV", SF_FORMAT_RF64: "RF64", SF_FORMAT_W64: "Wave64", SF_FORMAT_AIFF: "AIFF",
            SF_FORMAT_AU: "AU", SF_FORMAT_CAF: "CAF", SF_FORMAT_FLAC: "FLAC", SF_FORMAT_OGG: "Ogg", SF_FORMAT_MPEG: "MP3",
        ]
        let integers: [Int: Int] = [
            SF_FORMAT_PCM_S8: 8, SF_FORMAT_PCM_U8: 8, SF_FORMAT_PCM_16: 16, SF_FORMAT_PCM_24: 24, SF_FORMAT_PCM_32: 32,
            SF_FORMAT_ALAC_16: 16, SF_FORMAT_ALAC_20: 20, SF_FORMAT_ALAC_24: 24, SF_FORMAT_ALAC_32: 32,
        ]
        let lossy: [Int: String] = [
            SF_FORMAT_FLOAT: "32-bit float", SF_FORMAT_DOUBLE: "64-bit float", SF_FORMAT_VORBIS: "Vorbis", SF_FORMAT_OPUS: "Opus",
            SF_FORMAT_MPEG_LAYER_I: "MP1", SF_FORMAT_MPEG_LAYER_II: "MP2", SF_FORMAT_MPEG_LAYER_III: "MP3",
        ]
        container = containers[Int(type)] ?? libraryName(type)
        if let bits = integers[Int(subtype)] {
            bitsPerSample = bits
            coding = (SF_FORMAT_ALAC_16...SF_FORMAT_ALAC_32).contains(Int(subtype)) ? "ALAC \(bits)-bit" : "\(bits)-bit"
        } else if let name = lossy[Int(subtype)] {
            bitsPerSample = nil
            coding = name
        } else {
            // A-law, µ-law, ADPCM, GSM and the like: libsndfile decodes them to 16-bit integers.
            bitsPerSample = 16
            coding = libraryName(subtype)
        }
    }
}
