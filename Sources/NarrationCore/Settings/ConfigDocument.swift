/// What `ConfigParser` read from a configuration file, with where each setting is written.
///
/// `values` is exactly what `ConfigParser.parse` returns; `lines` has the 1-based line of every
/// `key = value` and every `[table]` header, by its full key path (`["profiles", "org", "bitrate"]`),
/// so a front end can say "config.toml line 12" for any setting.
public struct ConfigDocument: Sendable, Equatable {
    public var values: [String: ConfigValue]
    public var lines: [[String]: Int]

    public init(values: [String: ConfigValue] = [:], lines: [[String]: Int] = [:]) {
        self.values = values
        self.lines = lines
    }

    /// The line that sets `path` (a key or a table header); nil when the file does not write it.
    public func line(of path: String...) -> Int? { lines[path] }
}
