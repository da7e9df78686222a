public import Foundation
public import NarrationCore

extension Settings {
    /// `$XDG_CONFIG_HOME/narrate/config.toml`, else `~/.config/narrate/config.toml`.
    public static func fileURL(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("narrate/config.toml")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".config/narrate/config.toml")
    }

    /// The settings in the configuration file; the defaults if there is none.
    /// - Throws: `usage` naming the file and the line or setting that is wrong.
    public static func load(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(NarrationError) -> Settings {
        let url = fileURL(environment)
        guard FileManager.default.fileExists(atPath: url.path) else { return Settings() }
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            throw NarrationError(.usage, "\(url.path) could not be read as UTF-8 text.")
        }
        return try Settings(parsing: text, file: url.path)
    }
}
