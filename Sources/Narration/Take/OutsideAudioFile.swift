public import Foundation
import NarrationAudio
public import NarrationCore

/// An audio file from outside (to import or to check), looked at before and after libsndfile
/// opens it: an MP3 must be an unbroken chain of frames, whole (libmpg123 would otherwise print
/// its own lines while it resyncs over junk and decode noise from it, or read a cut file as a
/// shorter one), and a WAV or AIFF must hold the frames its header claims.
///
/// Problems are the end of a sentence that starts with the file's name, for the caller to frame:
/// "is an MP3 cut short: …; copy or export it again".
public struct OutsideAudioFile: Sendable {
    /// The MP3's frames and bitrate, when it is MPEG audio.
    public let mpeg: MPEGAudioStream.Summary?
    private let lengths: PCMFileLength.Lengths?

    /// Looks at the file's bytes (mapped, so a large file is not read into memory).
    /// - Throws: the problem, for an MPEG file that is not a whole chain of frames; a system
    ///   error's words when the file cannot be mapped.
    public init(_ url: URL) throws(Problem) {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw Problem("cannot be opened (\((error as NSError).localizedDescription)); check its permissions")
        }
        switch MPEGAudioStream.inspect(data) {
        case .notMPEG:
            mpeg = nil
        case .whole(let summary):
            mpeg = summary
        case .junk(let offset, let size):
            throw Problem(
                "is not an audio file narrate can read: it starts as MP3 audio but byte \(offset) of \(size) is not (a damaged file, or not audio); give a WAV, FLAC, Ogg Vorbis or Opus, MP3 or AIFF file")
        case .truncated(let offset, let needed, let held):
            throw Problem(
                "is an MP3 cut short: its last frame, at byte \(offset), needs \(needed) bytes and the file ends \(held) bytes into it; copy or export it again")
        case .shorterThanItsTag(let frames, let tagged):
            throw Problem("is an MP3 cut short: it holds \(frames) of the \(tagged) frames its header counts; copy or export it again")
        }
        lengths = PCMFileLength.inspect(data)
    }

    /// The problem of a WAV or AIFF file whose header claims more frames than it holds, with both
    /// lengths at `rate`, the file's rate as libsndfile read it.
    public func lengthProblem(rate: Int) -> Problem? {
        guard let lengths, lengths.claimed > lengths.held, rate > 0 else { return nil }
        let claimed = Timecode.precise(Double(lengths.claimed) / Double(rate)), held = Timecode.precise(Double(lengths.held) / Double(rate))
        return Problem("is cut short: its header claims \(claimed) (\(lengths.claimed) frames) but the file holds \(held) (\(lengths.held) frames); copy or export it again")
    }

    /// What is wrong with a file, as the end of a sentence that starts with its name.
    public struct Problem: Error, Sendable, Equatable {
        public let what: String

        init(_ what: String) { self.what = what }
    }
}
