internal import CALSA
import Glibc
import NarrationCore

/// Extra ALSA PCM definitions (configuration text such as `pcm.vmic { type file … }`) layered over
/// the system's configuration for the devices this process opens.
///
/// The normal ways to add devices (`~/.asoundrc`, `ALSA_CONFIG_PATH`) are per process; this lets
/// one process open devices of its own definition, e.g. a virtual microphone in a test.
public struct ALSADefinitions: Sendable {
    public let text: String

    public init(_ text: String) { self.text = text }

    /// The system configuration with `text` loaded over it. The caller owns the returned tree
    /// and frees it with `snd_config_delete` once the PCM that used it is closed.
    /// The corresponding C functions are `snd_config_update_ref`, `snd_config_copy` and `snd_config_load`.
    func makeConfiguration(device: String) throws(NarrationError) -> OpaquePointer {
        var system: OpaquePointer?
        try check(snd_config_update_ref(&system), "read the ALSA configuration", device: device)
        defer { snd_config_unref(system) }
        var copy: OpaquePointer?
        try check(snd_config_copy(&copy, system), "copy the ALSA configuration", device: device)
        guard let copy else { preconditionFailure("snd_config_copy succeeded without a tree") }
        var input: OpaquePointer?
        let opened = text.withCString { snd_input_buffer_open(&input, $0, Int(strlen($0))) }
        do {
            try check(opened, "read the device definitions", device: device)
            defer { snd_input_close(input) }
            try check(snd_config_load(copy, input), "load the device definitions", device: device)
        } catch {
            snd_config_delete(copy)
            throw error
        }
        return copy
    }
}

