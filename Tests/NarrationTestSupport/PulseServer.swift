import Foundation
import Glibc

/// A user-mode PulseAudio server with a null sink: a real-time audio device on a machine with no
/// sound card. ALSA's `default` goes through it (libasound2-plugins); recording with
/// `PULSE_SOURCE=vspk.monitor` captures silence paced in real time.
public final class PulseServer: @unchecked Sendable {
    public let folder: TemporaryFolder
    private let process: ChildProcess

    /// Starts the server and waits until it accepts clients.
    /// - Parameter rewinds: false loads the null sink with `norewinds=1`: its monitor then records
    ///   exactly what was played (a rewinding sink takes back audio its monitor has already handed
    ///   on, about 40 ms each time a stream starts after silence).
    public init(rate: Int = 44_100, channels: Int = 1, rewinds: Bool = true) throws {
        folder = TemporaryFolder("narrate-pulse")
        let socket = folder.file("native").path
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.url.path
        environment["XDG_RUNTIME_DIR"] = folder.url.path
        environment["XDG_CONFIG_HOME"] = folder.url.path
        process = try ChildProcess(
            "pulseaudio",
            [
                "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disallow-exit",
                "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
                "-L", "module-null-sink sink_name=vspk rate=\(rate) channels=\(channels)\(rewinds ? "" : " norewinds=1")",
                "-L", "module-always-sink",
            ],
            environment: environment, stdoutFile: nil, stderrFile: folder.file("pulseaudio.log"))
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if (try? Signals.run("pactl", ["--server", "unix:\(socket)", "info"])) != nil { return }
            usleep(100_000)
        }
        throw FixtureError("PulseAudio did not start within 15 s")
    }

    /// The environment that points ALSA's `default` device at this server's null-sink monitor.
    public var environment: [String: String] {
        [
            "PULSE_SERVER": "unix:\(folder.file("native").path)",
            "PULSE_SOURCE": "vspk.monitor",
            "PULSE_SINK": "vspk",
        ]
    }

    deinit {
        process.signal(SIGTERM)
        process.wait()
    }
}
