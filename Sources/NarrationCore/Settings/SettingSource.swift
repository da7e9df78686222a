/// Where an effective setting came from: narrate's own default, a line of the configuration file,
/// or an environment variable.
public enum SettingSource: Sendable, Equatable {
    case `default`
    /// The 1-based `line` of the configuration file at `path`.
    case file(path: String, line: Int)
    /// The environment variable `name`.
    case environment(String)
}
