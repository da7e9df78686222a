import ArgumentParser
import Foundation
import Narration
import NarrationCore

/// `--to`, `--endpoint`, `--region`, `--path-style`: where submit and outbox push deliver.
struct DestinationOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A folder, s3://BUCKET/PREFIX, or a name from [destinations] in config.toml (default: destination in config.toml).",
        valueName: "DESTINATION"))
    var to: String?

    @Option(help: ArgumentHelp("The S3 endpoint, e.g. https://s3.example.org or http://127.0.0.1:8333 (default: AWS for the region).", valueName: "URL"))
    var endpoint: String?

    @Option(help: ArgumentHelp("The S3 region (default: AWS_REGION, else us-east-1).", valueName: "REGION"))
    var region: String?

    @Flag(name: .customLong("path-style"), help: "Address the bucket in the path (https://endpoint/bucket/key), as MinIO, Ceph and SeaweedFS usually need.")
    var pathStyle = false

    /// The destination `resolve` finds, for a command that needs one: a mistake, or no
    /// destination named anywhere, is one sentence on stderr and exit status 64 (or the error's).
    func required(_ settings: Settings) throws -> Destination {
        let resolved: Destination?
        do { resolved = try resolve(settings) } catch {
            Console.error(error.sentence)
            throw ExitCode(error.exitStatus)
        }
        guard let resolved else {
            Console.error("No destination: pass --to FOLDER or --to s3://BUCKET/PREFIX, or set destination in \(Settings.fileURL().path).")
            throw ExitCode(64)
        }
        return resolved
    }

    /// `--to` if given, else `fallback` (where a job went last), else the configured destination;
    /// with the S3 options laid over it. Nil when nothing names one.
    func resolve(_ settings: Settings, fallback: Destination? = nil) throws(NarrationError) -> Destination? {
        let environment = ProcessInfo.processInfo.environment
        var destination: Destination
        var fromBareAddress = false
        if let to {
            destination = try settings.destination(named: to)
            fromBareAddress = settings.destinations[to] == nil
        } else if let fallback {
            destination = fallback
        } else if let configured = settings.destination {
            destination = try settings.destination(named: configured)
            fromBareAddress = settings.destinations[configured] == nil
        } else {
            return nil
        }
        let overrides = endpoint != nil || region != nil || pathStyle
        switch destination {
        case .folder(let path):
            guard !overrides else {
                throw .usage("--endpoint, --region and --path-style are for object storage, but the destination is the folder \(path).")
            }
            return destination
        case .s3(let storage):
            let environmentRegion = fromBareAddress ? environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] : nil
            guard overrides || environmentRegion != nil else { return destination }
            let region = region ?? environmentRegion ?? storage.region
            // A new region without a new endpoint moves AWS's default endpoint with it.
            let awsEndpoint = "https://s3.\(storage.region).amazonaws.com"
            let endpoint = endpoint ?? (storage.endpoint == awsEndpoint ? nil : storage.endpoint)
            return .s3(try S3Destination(
                url: storage.description, endpoint: endpoint, region: region, pathStyle: pathStyle || storage.pathStyle,
                credentialsFile: storage.credentialsFile, credentialsProfile: storage.credentialsProfile))
        }
    }
}

/// `--attempts`, `--retry-wait`: how often a delivery that failed for a passing reason is tried again.
struct RetryOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Tries per file when the storage is unreachable or busy or the connection drops; waits double after each.", valueName: "N"))
    var attempts = 4

    @Option(name: .customLong("retry-wait"), parsing: .unconditional, help: ArgumentHelp("Seconds to wait before the first retry (at most 30 between tries).", valueName: "S"))
    var retryWait = 2.0

    func validate() throws {
        guard (1...20).contains(attempts) else { throw ValidationError("--attempts \(attempts) is out of range: give 1 to 20.") }
        guard retryWait >= 0 && retryWait <= 30 else {
            throw ValidationError("--retry-wait \(Console.number(retryWait)) is out of range: give 0 to 30 seconds.")
        }
    }

    var schedule: RetrySchedule { RetrySchedule(attempts: attempts, first: retryWait, limit: max(30, retryWait)) }
}

extension Narrate {
    /// Says on stderr that a delivery failed and when it is tried again.
    static func announceRetry(_ job: OutboxJob) -> (NarrationError, Double) -> Void {
        { error, delay in
            Console.error("\(job.file.lastPathComponent): \(error.sentence) Trying again in \(String(format: "%g", delay)) s.")
        }
    }
}
