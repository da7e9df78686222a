import Foundation

/// The AWS shared credentials file format (`~/.aws/credentials`): `[profile]` sections of
/// `aws_access_key_id`, `aws_secret_access_key` and, optionally, `aws_session_token`.
public struct CredentialsFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var accessKeyID: String?
        public var secretAccessKey: String?
        public var sessionToken: String?

        public init(accessKeyID: String? = nil, secretAccessKey: String? = nil, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }
    }

    public private(set) var profiles: [String: Entry] = [:]

    /// Reads the text of a credentials file; lines it does not know are skipped, as AWS's tools do.
    public init(parsing text: String) {
        var section: String?
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                var name = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                if name.hasPrefix("profile ") { name = String(name.dropFirst("profile ".count)).trimmingCharacters(in: .whitespaces) }
                section = name
                continue
            }
            guard let section, let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]).trimmingCharacters(in: .whitespaces).lowercased()
            let value = String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            var entry = profiles[section] ?? Entry()
            switch key {
            case "aws_access_key_id": entry.accessKeyID = value
            case "aws_secret_access_key": entry.secretAccessKey = value
            case "aws_session_token": entry.sessionToken = value
            default: continue
            }
            profiles[section] = entry
        }
    }
}
