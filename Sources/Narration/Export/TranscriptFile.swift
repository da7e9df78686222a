public import Foundation
public import NarrationCore

extension NarrationLibrary {
    /// Writes the transcript of an export (see `Transcript`) to `destination`, atomically.
    /// - Throws: `textUnreadable` when the export read no paragraph (the article has no text);
    ///   `fileSystem`/`diskFull` for the destination, which is then left untouched.
    public func writeTranscript(of plan: ExportPlan, as format: Transcript.Format, to destination: URL) throws(NarrationError) {
        guard let transcript = plan.transcript else {
            throw NarrationError(
                .textUnreadable, "\"\(plan.tags.title)\" has no text, so there is no transcript to write.", remedy: .attachText)
        }
        try FileSystem.writeAtomically(Data(transcript.text(format).utf8), to: destination)
    }
}
