import Foundation
import NarrationAudio
import NarrationCore
import Synchronization

/// The checkup's sound: the devices ALSA offers, whether the chosen microphone opens in the
/// article's format, and a level test of a few seconds on it.
enum SoundCheck {
    /// The sound cards, and the audio devices that can record as `narrate devices` lists them.
    /// Without a card the devices are only ALSA's virtual ones: a warning, not a problem, since a
    /// Bluetooth or network microphone reaches narrate through "default" with no card at all.
    static func devices() -> DoctorFinding {
        let devices: [AudioDevice]
        do {
            devices = try NarrationLibrary.audioDevices()
        } catch {
            return DoctorFinding(.devices, .warning, error)
        }
        let recording = devices.filter(\.canCapture).map(\.name)
        let cards = NarrationLibrary.soundCards()
        guard !cards.isEmpty else {
            return DoctorFinding(
                .devices, .warning, "no sound card found" + (recording.isEmpty ? "" : "; only virtual devices: " + listed(recording)),
                advice: "Plug the USB microphone in. A Bluetooth or network microphone needs no card: it is reached through \"default\".")
        }
        let named = cards.map { "\($0.name) (card \($0.index))" }
        guard !recording.isEmpty else {
            return DoctorFinding(
                .devices, .warning, "\(listed(named)), but no device that can record",
                advice: "Plug the microphone in, and check that your user is in the \"audio\" group (a device given by name may still open).")
        }
        return DoctorFinding(
            .devices, .ok, "\(cards.count == 1 ? "1 sound card" : "\(cards.count) sound cards"): \(listed(named)); \(recording.count == 1 ? "1 device" : "\(recording.count) devices") can record")
    }

    private static func listed(_ names: [String]) -> String {
        names.prefix(6).joined(separator: ", ") + (names.count > 6 ? " and \(names.count - 6) more" : "")
    }

    /// What the microphone test found: whether the device opened, and what it heard.
    struct MicrophoneResult: Sendable {
        var opened: DoctorFinding
        var level: DoctorFinding?
        var measurement: LevelMeasurement?
    }

    /// How far a device may fall behind before the test gives up on it: a device that opens but
    /// delivers nothing must not hang the checkup.
    static let graceSeconds = 10.0

    /// Opens `device` for capture in `format` and, with `seconds`, listens that long on a thread of
    /// its own, measuring what comes (`LevelTestMeter`). `onListening` is called once the first
    /// read has returned sound, for the front end to ask for a sentence: not at `start()`, when
    /// a device may still be waking up.
    ///
    /// A device that does not open or answer within `seconds + graceSeconds` is reported as
    /// stuck; its thread (a `DedicatedThread`, since it may never return) is left blocked in ALSA (closing a device another thread reads from is
    /// not safe), which the end of the process ends.
    static func microphone(
        device: String, format: AudioFormat, formatOrigin: String, seconds: Double?, onListening: @escaping @Sendable () -> Void
    ) async -> MicrophoneResult {
        let state = ListeningState()
        let limit = (seconds ?? 0) + graceSeconds
        let outcome: Outcome? = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome?, Never>) in
            // The deadline is a task asleep on the clock, cancelled when the device answers first.
            let deadline = Task {
                try? await Task.sleep(for: .seconds(limit))
                if !Task.isCancelled, state.claimAnswer() { continuation.resume(returning: nil) }
            }
            DedicatedThread.start(named: "narrate-doctor-microphone", because: .blocksIndefinitely) {
                let outcome = listen(device: device, format: format, seconds: seconds, state: state, onListening: onListening)
                if state.claimAnswer() {
                    deadline.cancel()
                    continuation.resume(returning: outcome)
                }
            }
        }
        let opened = "\"\(device)\" opens for recording in \(format) (\(formatOrigin))"
        guard let outcome else {
            switch state.progress.withLock({ $0 }) {
            case .opening:
                return MicrophoneResult(
                    opened: DoctorFinding(
                        .microphone, .problem, "\"\(device)\" did not answer: it was still opening after \(Int(limit)) s",
                        advice: "Unplug the microphone and plug it in again, or restart the computer."))
            case .waitingForSound:
                return MicrophoneResult(
                    opened: DoctorFinding(.microphone, .ok, opened),
                    level: DoctorFinding(
                        .level, .problem, "the microphone opened but sent no sound in \(Int(limit)) s",
                        advice: "Unplug the microphone and plug it in again, or restart the computer."))
            case .listening(let frames):
                return MicrophoneResult(
                    opened: DoctorFinding(.microphone, .ok, opened),
                    level: DoctorFinding(
                        .level, .problem, "the microphone stopped sending sound after \(String(format: "%.1f", format.seconds(frames))) s",
                        advice: "Unplug the microphone and plug it in again; if it goes on, try another USB port or another microphone."))
            }
        }
        switch outcome {
        case .notOpened(let error):
            return MicrophoneResult(opened: DoctorFinding(.microphone, .problem, error))
        case .opened(let measured):
            guard let measured else { return MicrophoneResult(opened: DoctorFinding(.microphone, .ok, opened)) }
            switch measured {
            case .success(let measurement):
                return MicrophoneResult(
                    opened: DoctorFinding(.microphone, .ok, opened), level: LevelAdvice.finding(measurement), measurement: measurement)
            case .failure(let error):
                return MicrophoneResult(opened: DoctorFinding(.microphone, .ok, opened), level: DoctorFinding(.level, .problem, error))
            }
        }
    }

    /// How far the capture thread has come, for a report when it does not come back.
    private enum Progress: Sendable {
        case opening
        /// Opened and started; no read has returned sound yet.
        case waitingForSound
        case listening(frames: FrameCount)
    }

    /// What the capture thread and the timeout share: how far capture has come, and which of
    /// the two answers the waiting task (the first to claim it).
    private final class ListeningState: Sendable {
        let progress = Mutex(Progress.opening)
        private let answered = Atomic<Bool>(false)

        /// True for the first caller only.
        func claimAnswer() -> Bool {
            !answered.exchange(true, ordering: .acquiringAndReleasing)
        }
    }

    private enum Outcome: Sendable {
        case notOpened(NarrationError)
        /// Opened; what the level test measured, or why it failed; nil without a level test.
        case opened(Result<LevelMeasurement, NarrationError>?)
    }

    /// The capture thread's work: open, listen for exactly `seconds` (a `file` device's input
    /// must not be read past its end), close.
    private static func listen(
        device name: String, format: AudioFormat, seconds: Double?, state: ListeningState, onListening: @Sendable () -> Void
    ) -> Outcome {
        let device: CaptureDevice
        do {
            device = try CaptureDevice(name: name, format: format)
        } catch {
            return .notOpened(error)
        }
        guard let seconds else {
            try? device.close()
            return .opened(nil)
        }
        let wanted = format.frames(forSeconds: seconds)
        var meter = LevelTestMeter(format: format)
        let buffer = UnsafeMutableBufferPointer<Int32>.allocate(capacity: device.periodFrames * format.channels)
        defer { buffer.deallocate() }
        var frames: FrameCount = 0
        do throws(NarrationError) {
            try device.start()
            state.progress.withLock { $0 = .waitingForSound }
            while frames < wanted {
                let read = try device.read(into: buffer, frames: min(wanted - frames, device.periodFrames))
                meter.add(UnsafeBufferPointer(rebasing: buffer[0..<(read * format.channels)]))
                // Sound flows: now is the time to ask for a sentence.
                if frames == 0 && read > 0 { onListening() }
                frames += read
                state.progress.withLock { $0 = .listening(frames: frames) }
            }
        } catch {
            try? device.close()
            return .opened(.failure(error))
        }
        try? device.close()
        return .opened(.success(meter.measurement))
    }
}
