import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Capturing from ALSA devices")
struct CaptureDeviceTests {
    /// Reads exactly `frames` frames from the device, as the recorder does.
    private func capture(_ device: CaptureDevice, frames: FrameCount) throws -> [Int32] {
        var samples = [Int32](repeating: 0, count: frames * device.format.channels)
        var captured = 0
        try device.start()
        try samples.withUnsafeMutableBufferPointer { buffer in
            while captured < frames {
                let slice = UnsafeMutableBufferPointer(rebasing: buffer[(captured * device.format.channels)...])
                captured += try device.read(into: slice, frames: frames - captured)
            }
        }
        return samples
    }

    @Test("the virtual microphone delivers speech sample for sample", arguments: [
        AudioFormat.speech,
        AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 16),
        AudioFormat(sampleRate: 22_050, channels: 1, bitsPerSample: 24),
        AudioFormat(sampleRate: 16_000, channels: 2, bitsPerSample: 24),
    ])
    func bitExact(format: AudioFormat) throws {
        let folder = TemporaryFolder()
        let source = try Signals.speech(format, seconds: 2)
        let devices = try VirtualDevices(folder: folder.url, source: source)
        let device = try CaptureDevice(name: "vmic", format: format, definitions: devices.definitions)
        defer { try? device.close() }
        let frames = format.frames(forSeconds: 1.5) + 7
        let captured = try capture(device, frames: frames)
        let expected = Signals.samples(Array(source.prefix(frames * format.bytesPerFrame)), bitsPerSample: format.bitsPerSample)
        #expect(captured.count == expected.count)
        #expect(captured == expected)
        #expect(device.overruns == 0)
    }

    @Test("an unknown device is named, with the way to list devices")
    func unknownDevice() {
        #expect(throws: NarrationError(
            .deviceNotFound,
            "Cannot open audio device \"no-such-mic\": no such device.", remedy: .listDevices)) {
            try CaptureDevice(name: "no-such-mic", format: .speech)
        }
    }

    @Test("a format the microphone cannot do is refused, saying what it supports", arguments: [
        (AudioFormat(sampleRate: 44_100, channels: 2, bitsPerSample: 16), "2 channels"),
        (AudioFormat(sampleRate: 22_050, channels: 1, bitsPerSample: 16), "22050 Hz"),
        (AudioFormat(sampleRate: 48_000, channels: 1, bitsPerSample: 24), "24-bit samples"),
    ])
    func unsupportedFormat(format: AudioFormat, what: String) throws {
        let folder = TemporaryFolder()
        let devices = try VirtualDevices(folder: folder.url, source: [0, 0])
        #expect(throws: NarrationError(
            .deviceUnsupportedFormat,
            "Audio device \"usbmic\" cannot record \(what); it supports 16-bit, 1 channel, 44100–48000 Hz.",
            remedy: .chooseSupportedFormat)) {
            try CaptureDevice(name: "usbmic", format: format, definitions: devices.definitions)
        }
    }

    @Test("a microphone another program holds is reported busy")
    func busy() throws {
        let folder = TemporaryFolder()
        let devices = try VirtualDevices(folder: folder.url, source: [0, 0])
        try Data().write(to: devices.busyFile)
        #expect(throws: NarrationError(
            .deviceBusy,
            "Audio device \"usbmic\" is busy: another program is using it.", remedy: .chooseOtherDevice)) {
            try CaptureDevice(name: "usbmic", format: .speech, definitions: devices.definitions)
        }
    }

    @Test("a pulled microphone ends reading with deviceFailed; what was read stays")
    func unplugged() throws {
        let folder = TemporaryFolder()
        let devices = try VirtualDevices(folder: folder.url, source: [0, 0])
        let device = try CaptureDevice(name: "usbmic", format: .speech, definitions: devices.definitions)
        defer { try? device.close() }
        var block = [Int32](repeating: 0, count: device.periodFrames)
        try device.start()
        var captured = 0
        while captured < 4_410 {
            captured += try block.withUnsafeMutableBufferPointer { try device.read(into: $0, frames: device.periodFrames) }
        }
        #expect(block.contains { $0 != 0 })
        try Data().write(to: devices.unplugFile)
        #expect {
            for _ in 0..<100 { _ = try block.withUnsafeMutableBufferPointer { try device.read(into: $0, frames: device.periodFrames) } }
        } throws: { error in
            (error as? NarrationError)?.kind == .deviceFailed
                && (error as? NarrationError)?.message.hasPrefix("Audio device \"usbmic\" stopped working") == true
        }
        #expect(device.overruns == 0)
    }

    @Test("a device dropped without close() is closed by its owner going away, and opens again at once")
    func droppedUnclosed() throws {
        let folder = TemporaryFolder()
        let devices = try VirtualDevices(folder: folder.url, source: [0, 0])
        do {
            let dropped = try CaptureDevice(name: "usbmic", format: .speech, definitions: devices.definitions)
            try dropped.start()
        }
        let device = try CaptureDevice(name: "usbmic", format: .speech, definitions: devices.definitions)
        defer { try? device.close() }
        let samples = try capture(device, frames: 4_410)
        #expect(samples.count == 4_410)
        #expect(abs(Double(samples.map { abs($0) }.max() ?? 0) / Double(Int32.max) - 0.25) < 0.01, "the emulated microphone's sine peaks at -12 dBFS")
    }

    @Test("the device list includes the system's default device")
    func deviceList() throws {
        let devices = try DeviceCatalog.pcmDevices()
        #expect(devices.contains { $0.name == "default" || $0.name == "null" })
    }
}
