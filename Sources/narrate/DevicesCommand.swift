import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate devices`: the ALSA PCMs to pass to --device.
    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the audio devices to pass to --device (\"default\" follows the system's choice).")

        @OptionGroup var output: JSONOption

        struct DeviceJSON: Encodable {
            let name: String
            let description: String
            let capture: Bool
            let playback: Bool
        }

        func run() throws {
            let devices: [AudioDevice]
            do {
                devices = try NarrationLibrary.audioDevices()
            } catch {
                Console.error(error.sentence)
                throw ExitCode(error.exitStatus)
            }
            if output.json {
                Console.printJSON(devices.map {
                    DeviceJSON(name: $0.name, description: $0.description, capture: $0.canCapture, playback: $0.canPlay)
                })
                return
            }
            guard !devices.isEmpty else {
                Console.print("No audio devices found. Is a microphone plugged in, and is the user in the \"audio\" group?")
                return
            }
            for device in devices {
                let direction = device.canCapture && device.canPlay ? "in/out" : device.canCapture ? "in    " : "out   "
                Console.print("\(direction)  \(device.name)\(device.description.isEmpty ? "" : "  — \(device.description)")")
            }
        }
    }
}
