public import NarrationCore

/// Something that takes a stream of interleaved, left-justified samples and makes a file of
/// them: a WAV or FLAC file through libsndfile, or an MP3 through LAME.
public protocol AudioSink: AnyObject {
    /// Appends whole frames.
    func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError)
    /// Finishes the file (final headers, encoder flush) and forces it to disk.
    func close() throws(NarrationError)
}

extension SoundFileWriter: AudioSink {}
