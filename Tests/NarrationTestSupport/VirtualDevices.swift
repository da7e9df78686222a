public import Foundation
public import NarrationAudio
public import NarrationCore

/// ALSA devices made of plugins, for machines without a sound card (see AUDIO-TESTING.md):
/// a `file`-plugin microphone that plays a raw file byte for byte, and a mono-only microphone.
public struct VirtualDevices: Sendable {
    public let folder: URL
    public let configurationFile: URL
    public let definitions: ALSADefinitions

    /// Writes `source` as the microphone `vmic`'s input; also defines `monomic`, which only does
    /// one channel (a `route` plugin with a one-row table), and `vspk`, a speaker into `played.raw`.
    public init(folder: URL, source: [UInt8]) throws {
        self.folder = folder
        let input = folder.appendingPathComponent("mic-input.raw")
        try Data(source).write(to: input)
        let text = """
            pcm.vmic { type file slave.pcm { type null } file "/dev/null" infile "\(input.path)" format "raw" }
            pcm.vspk { type file slave.pcm { type null } file "\(folder.appendingPathComponent("played.raw").path)" format "raw" }
            pcm.monomic { type route slave { pcm { type null } channels 1 } ttable.0.0 1 }

            """
        configurationFile = folder.appendingPathComponent("asound-test.conf")
        try text.write(to: configurationFile, atomically: true, encoding: .utf8)
        definitions = ALSADefinitions(text)
    }

    /// The environment under which `narrate` sees these devices beside the system's.
    public var environment: [String: String] {
        ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(configurationFile.path)"]
    }
}
