public import Foundation
import Glibc
public import NarrationAudio
import NarrationCore

/// ALSA devices made of plugins, for machines without a sound card (see AUDIO-TESTING.md):
/// a `file`-plugin microphone that plays a raw file byte for byte, a speaker that records what
/// it is sent, and an emulated USB microphone and speaker (`Tests/Fixtures/usbaudio.c`) with a
/// fixed format, real-time pacing, and files that make them busy or pull them out.
public struct VirtualDevices: Sendable {
    public let folder: URL
    public let configurationFile: URL
    public let definitions: ALSADefinitions

    /// Writes `source` as the microphone `vmic`'s input; also defines `vspk`, a speaker into
    /// `played.raw`, `rtspk`, the same paced in real time by PulseAudio (when a server is
    /// running), `pacedspk`, the same paced by the emulated USB speaker, and `usbmic` / `usbspk`, a mono 16-bit 44.1–48 kHz microphone and speaker paced in
    /// real time, busy while `busyFile` exists and unplugged once `unplugFile` exists, and
    /// `usbmicfile`, that USB microphone's format and real-time pacing with `source`'s samples
    /// instead of its sine (read as `vmic` reads them: count the frames).
    public init(folder: URL, source: [UInt8]) throws {
        self.folder = folder
        let input = folder.appendingPathComponent("mic-input.raw")
        try Data(source).write(to: input)
        let plugin = try EmulatedMicrophone.library()
        let text = """
            pcm.vmic { type file slave.pcm { type null } file "/dev/null" infile "\(input.path)" format "raw" }
            pcm.vspk { type file slave.pcm { type null } file "\(folder.appendingPathComponent("played.raw").path)" format "raw" }
            pcm.rtspk { type file slave.pcm { type pulse } file "\(folder.appendingPathComponent("played.raw").path)" format "raw" }
            pcm_type.usbaudio { lib "\(plugin.path)" }
            pcm.usbmic {
                type usbaudio channels 1 rate_min 44100 rate_max 48000
                busy_file "\(folder.appendingPathComponent("usb.busy").path)"
                unplug_file "\(folder.appendingPathComponent("usb.unplugged").path)"
            }
            pcm.usbmicfile {
                type file file "/dev/null" infile "\(input.path)" format "raw"
                slave.pcm { type usbaudio channels 1 rate_min 44100 rate_max 48000 }
            }
            pcm.pacedspk {
                type file file "\(folder.appendingPathComponent("played.raw").path)" format "raw"
                slave.pcm { type usbaudio channels 1 rate_min 44100 rate_max 48000 }
            }
            pcm.usbspk {
                type usbaudio channels 1 rate_min 44100 rate_max 48000
                busy_file "\(folder.appendingPathComponent("usb.busy").path)"
                unplug_file "\(folder.appendingPathComponent("usb.unplugged").path)"
            }

            """
        configurationFile = folder.appendingPathComponent("asound-test.conf")
        try text.write(to: configurationFile, atomically: true, encoding: .utf8)
        definitions = ALSADefinitions(text)
    }

    /// Makes `vmic` and `usbmicfile` play `source` from the next time they are opened.
    public func setMicrophoneInput(_ source: [UInt8]) throws {
        try Data(source).write(to: folder.appendingPathComponent("mic-input.raw"))
    }

    /// While this file exists, opening `usbmic` or `usbspk` fails as if another program held it.
    public var busyFile: URL { folder.appendingPathComponent("usb.busy") }
    /// Once this file exists, `usbmic` and `usbspk` are disconnected, as if the cable were pulled.
    public var unplugFile: URL { folder.appendingPathComponent("usb.unplugged") }

    /// What `vspk`, `rtspk` and `pacedspk` were sent, byte for byte.
    public var playedFile: URL { folder.appendingPathComponent("played.raw") }

    /// The environment under which `narrate` sees these devices beside the system's.
    public var environment: [String: String] {
        ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(configurationFile.path)"]
    }
}

/// Builds the emulated USB audio plugin once per test process.
enum EmulatedMicrophone {
    private static let built = Result<URL, any Error> {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/usbaudio.c")
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("narrate-usbaudio-\(getpid())/libasound_module_pcm_usbaudio.so")
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Signals.run("cc", ["-shared", "-fPIC", "-DPIC", "-O2", "-o", output.path, source.path, "-lasound", "-lm"])
        return output
    }

    static func library() throws -> URL { try built.get() }
}
