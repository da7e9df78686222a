public import Foundation
public import NarrationCore
import ObjectStorage

extension Settings {
    /// `$XDG_CONFIG_HOME/narrate/config.toml`, else `~/.config/narrate/config.toml`.
    public static func fileURL(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        fileLocation(environment).url
    }

    /// `fileURL`, and the variable that decided it: `XDG_CONFIG_HOME`, or nil for the default.
    public static func fileLocation(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> (url: URL, variable: String?) {
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return (URL(fileURLWithPath: xdg).appendingPathComponent("narrate/config.toml"), "XDG_CONFIG_HOME")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return (URL(fileURLWithPath: home).appendingPathComponent(".config/narrate/config.toml"), nil)
    }

    /// The settings in the configuration file; the defaults if there is none.
    /// - Throws: `usage` naming the file and the line or setting that is wrong.
    public static func load(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(NarrationError) -> Settings {
        let url = fileURL(environment)
        guard let text = try configText(at: url) else { return Settings() }
        return try Settings(parsing: text, file: url.path)
    }

    /// Where the catalog is, from config.toml's `[service]` table: its address and password file,
    /// or nil for the data folder's own catalog. Read even when another setting is wrong (the
    /// command may not need it), but never guessed: a file that is not TOML at all, or a
    /// `catalog` that is not text, throws.
    public static func sharedCatalog(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NarrationError) -> (address: String, passwordFile: String?)? {
        if let settings = try? load(environment) {
            return settings.serviceCatalog.map { ($0, settings.serviceCatalogPasswordFile) }
        }
        let url = fileURL(environment)
        guard let text = try configText(at: url) else { return nil }
        let service = try ConfigParser.parse(text, file: url.path)["service"]?.table
        guard let value = service?["catalog"] else { return nil }
        guard let address = value.string, !address.isEmpty else { _ = try load(environment); return nil }
        return (address, service?["catalog_password_file"]?.string)
    }

    /// The configuration file's text; nil if there is none.
    static func configText(at url: URL) throws(NarrationError) -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            throw NarrationError(.usage, "\(url.path) could not be read as UTF-8 text.")
        }
        return text
    }
}

extension EffectiveSettings {
    /// The settings narrate runs with in `environment`, and where each came from (see
    /// `EffectiveSettings`): config.toml read from its place, the data root and the storage's
    /// answer wait as the code that uses them decides them.
    /// - Throws: `usage` for a config.toml that `Settings.load` refuses, in the same words;
    ///   `dataRootNotWritable` for a relative `NARRATE_HOME`.
    public static func load(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(NarrationError) -> EffectiveSettings {
        let (url, variable) = Settings.fileLocation(environment)
        let text = try Settings.configText(at: url)
        let root = try DataRoot.fromEnvironment(environment)
        let home = environment["HOME"] ?? NSHomeDirectory()
        return try EffectiveSettings(
            configText: text, configFile: Place(path: url.path, variable: variable),
            dataRoot: Place(path: root.url.path, variable: root.variable), storageAnswerWait: S3Client.answerWait(environment: environment),
            environment: environment, home: home, fileExists: { FileManager.default.fileExists(atPath: $0) })
    }
}

extension Settings {
    /// Whether something is at config.toml's place: a file, or a link (dangling or not), which
    /// counts as there, so that nothing is written over it unasked.
    public static func fileIsPresent(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        (try? FileSystem.linkStatus(of: fileURL(environment).path)) != nil
    }

    /// Writes `text` as config.toml at its place, creating its folder: a temporary file beside
    /// it, synced and renamed over whatever was there (a link there is replaced, never written
    /// through). The caller decides whether an existing file may be replaced (`fileIsPresent`).
    /// - Returns: where the file now is.
    /// - Throws: `fileSystem` when the folder or the file cannot be made; `diskFull`.
    @discardableResult
    public static func writeFile(_ text: String, _ environment: [String: String] = ProcessInfo.processInfo.environment) throws(NarrationError) -> URL {
        let url = fileURL(environment)
        try FileSystem.createDirectory(url.deletingLastPathComponent())
        try FileSystem.writeAtomically(Data(text.utf8), to: url)
        return url
    }
}
