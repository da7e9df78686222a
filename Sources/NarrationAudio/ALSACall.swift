internal import CALSA
import Glibc
import NarrationCore

/// The one funnel through which every ALSA return code passes.
///
/// ALSA returns a negative errno on failure. `check` turns that into a `NarrationError` whose
/// kind tells the engine what happened (no device, busy, gone) and whose message names the
/// device and the call. `describe` is what the device failed at, for the sentence.
@discardableResult
func check(_ result: CInt, _ describe: @autoclosure () -> String, device: String) throws(NarrationError) -> CInt {
    guard result < 0 else { return result }
    throw ALSAFailure(code: result, call: describe(), device: device).error
}

/// The same for calls that return frame counts (`snd_pcm_sframes_t`).
@discardableResult
func check(_ result: Int, _ describe: @autoclosure () -> String, device: String) throws(NarrationError) -> Int {
    guard result < 0 else { return result }
    throw ALSAFailure(code: CInt(truncatingIfNeeded: result), call: describe(), device: device).error
}

/// An ALSA error code with its context, turned into the error a volunteer reads.
struct ALSAFailure {
    let code: CInt
    let call: String
    let device: String

    var reason: String { String(cString: snd_strerror(code)) }

    var error: NarrationError {
        let opening = call.hasPrefix("open")
        switch -code {
        case ENOENT where opening, ENODEV where opening:
            return NarrationError(
                .deviceNotFound,
                "Cannot open audio device \"\(device)\": no such device.",
                subject: .device(device), cause: .system(errno: -code), remedy: .listDevices)
        case EBUSY where opening, EAGAIN where opening:
            return NarrationError(
                .deviceBusy,
                "Audio device \"\(device)\" is busy: another program is using it.",
                subject: .device(device), cause: .system(errno: -code), remedy: .chooseOtherDevice)
        case ENODEV, EIO, EBADFD, ESHUTDOWN, ENOTTY, ENXIO:
            return NarrationError(
                .deviceFailed,
                "Audio device \"\(device)\" stopped working (\(reason)) while trying to \(call). Check that it is still plugged in.",
                subject: .device(device), cause: .system(errno: -code))
        default:
            return NarrationError(
                .deviceFailed, "Audio device \"\(device)\" failed to \(call): \(reason).", subject: .device(device), cause: .system(errno: -code))
        }
    }
}

/// ALSA prints its own "ALSA lib …" lines on failures; we report each failure once, as a sentence.
let silenceALSAOnce: Void = { _ = narrate_alsa_silence_errors() }()
