import Foundation

/// The package's targets and what each declares it depends on, as SwiftPM reads Package.swift
/// (`swift package dump-package`), so that the rules are checked against the manifest the build
/// uses, not a copy of it.
struct PackageGraph {
    struct Target {
        let name: String
        /// "regular", "executable", "system", "test".
        let type: String
        /// Its sources' folder, relative to the root.
        let path: String
        /// Target and product names, as Package.swift writes them.
        let dependencies: [String]
    }

    let targets: [Target]

    /// Reads the manifest with the `swift` on PATH; its scratch folder is a temporary one, so
    /// that it never waits for the lock of the build running these tests.
    static func load() throws -> PackageGraph {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-dump-package-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", RepositoryRoot.url.path, "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw DumpFailed(status: process.terminationStatus) }
        return try PackageGraph(json: data)
    }

    struct DumpFailed: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "swift package dump-package ended with status \(status)" }
    }

    init(json: Data) throws {
        let root = try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
        let targets = root["targets"] as? [[String: Any]] ?? []
        self.targets = targets.map { target in
            let name = target["name"] as? String ?? ""
            let type = target["type"] as? String ?? ""
            let path = target["path"] as? String ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
            // Each dependency is {"byName": [name, …]}, {"target": [name, …]} or {"product": [name, package, …]}.
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                dependency.values.first.flatMap { ($0 as? [Any])?.first as? String }
            }
            return Target(name: name, type: type, path: path, dependencies: dependencies)
        }
    }
}
