import Narration

/// The speech the demo's virtual microphone speaks: three paragraphs, built into the binary so
/// the demo runs anywhere narrate does, with no speech synthesiser installed.
///
/// Made with espeak-ng (voice en, 160 words a minute), resampled to the article's 44 100 Hz mono
/// and 3 dB quieter, stored as Ogg Vorbis (about 24 KB each; libsndfile decodes them):
///
///     espeak-ng -s 160 -w paragraph-1.wav "…" && sox paragraph-1.wav -r 44100 -C -1 paragraph-1.ogg gain -3
enum DemoSpeech {
    static let paragraphs = [
        Demo.Paragraph(text: "This is the narrate demo. A volunteer reads an article aloud, one paragraph at a time.", audio: PackageResources.paragraph_1_ogg),
        Demo.Paragraph(text: "Each time they press record and then stop, the paragraph becomes one chunk of the article.", audio: PackageResources.paragraph_2_ogg),
        Demo.Paragraph(text: "When the article is done, narrate joins the chunks into one tagged file for listeners.", audio: PackageResources.paragraph_3_ogg),
    ]
}
