public import Foundation
public import NarrationCore

extension ExportPlan {
    /// Writes the transcript of this export (see `Transcript`) to `destination`, atomically.
    /// Needs no library: the plan holds every paragraph's text and time.
    /// - Throws: `textUnreadable` when the export read no paragraph (the article has no text);
    ///   `fileSystem`/`diskFull` for the destination, which is then left untouched.
    public func writeTranscript(as format: Transcript.Format, to destination: URL) throws(NarrationError) {
        guard let transcript else {
            throw NarrationError(
                .textUnreadable, "\"\(tags.title)\" has no text, so there is no transcript to write.", remedy: .attachText)
        }
        try FileSystem.writeAtomically(Data(transcript.text(format).utf8), to: destination)
    }
}
