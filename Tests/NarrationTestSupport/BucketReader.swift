public import Foundation
import Glibc

/// boto3 kept running for a test that reads a bucket after every step: one Python process for the
/// whole test instead of one per look (boto3 takes about 300 ms to start). It lists a bucket with
/// each object's SHA-256, read from the object's bytes (an object is downloaded once per key,
/// ETag, size and modification time; sidecars included). Requests and answers go through two
/// FIFOs, one JSON object a line.
public final class BucketReader: @unchecked Sendable {
    private let folder = TemporaryFolder("narrate-bucket-reader")
    private let process: ChildProcess
    private let requests: FileHandle
    private let answers: FileHandle
    private var buffer = Data()

    static let script = """
        import hashlib, json, sys
        import boto3
        from botocore.config import Config
        endpoint, requests, answers = sys.argv[1:4]
        s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                          config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))
        known = {}
        with open(requests) as inbox, open(answers, "w") as outbox:
            for line in inbox:
                request = json.loads(line)
                try:
                    objects = []
                    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=request["bucket"], Prefix=request["prefix"]):
                        for item in page.get("Contents", []):
                            identity = (item["Key"], item["ETag"], item["Size"], item["LastModified"].isoformat())
                            if identity not in known:
                                body = s3.get_object(Bucket=request["bucket"], Key=item["Key"])["Body"].read()
                                known[identity] = hashlib.sha256(body).hexdigest()
                            objects.append({"key": item["Key"], "size": item["Size"], "etag": item["ETag"].strip('"'),
                                            "sha256": known[identity]})
                    answer = {"objects": objects}
                except Exception as error:
                    answer = {"error": repr(error)}
                outbox.write(json.dumps(answer) + "\\n")
                outbox.flush()
        """

    /// An object as listed, with the SHA-256 of its bytes.
    public struct Object: Decodable, Sendable {
        public let key: String
        public let size: Int
        public let etag: String
        public let sha256: String
    }

    private struct Answer: Decodable {
        let objects: [Object]?
        let error: String?
    }

    public init(server: ObjectStorageServer) throws {
        let requestsPath = folder.file("requests").path
        let answersPath = folder.file("answers").path
        guard mkfifo(requestsPath, 0o600) == 0, mkfifo(answersPath, 0o600) == 0 else { throw FixtureError("mkfifo failed") }
        var environment = ProcessInfo.processInfo.environment
        environment.merge(ObjectStorageServer.credentialsEnvironment) { $1 }
        process = try ChildProcess(
            "python3", ["-u", "-c", Self.script, server.endpoint, requestsPath, answersPath], environment: environment,
            stdoutFile: nil, stderrFile: folder.file("reader.log"))
        // The reader opens the requests FIFO first, then the answers FIFO: open them in that order.
        // Opening for writing without a reader fails with ENXIO until boto3 has started.
        let deadline = Date().addingTimeInterval(60)
        var descriptor: CInt = -1
        while descriptor < 0 {
            descriptor = open(requestsPath, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor < 0 {
                guard errno == ENXIO, Date() < deadline else {
                    throw FixtureError("the bucket reader did not start: \((try? String(contentsOf: folder.file("reader.log"), encoding: .utf8)) ?? "")")
                }
                usleep(20_000)
            }
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        requests = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let answersDescriptor = open(answersPath, O_RDONLY | O_CLOEXEC)
        guard answersDescriptor >= 0 else { throw FixtureError("cannot open the bucket reader's answers") }
        answers = FileHandle(fileDescriptor: answersDescriptor, closeOnDealloc: true)
    }

    /// Every object in `bucket` whose key starts with `prefix`, with the SHA-256 of its bytes.
    public func objects(in bucket: String, prefix: String = "") throws -> [Object] {
        let request = try JSONSerialization.data(withJSONObject: ["bucket": bucket, "prefix": prefix]) + Data("\n".utf8)
        try requests.write(contentsOf: request)
        while !buffer.contains(10) {
            let more = answers.availableData
            guard !more.isEmpty else {
                throw FixtureError("the bucket reader ended: \((try? String(contentsOf: folder.file("reader.log"), encoding: .utf8)) ?? "")")
            }
            buffer.append(more)
        }
        let newline = buffer.firstIndex(of: 10)!
        let line = buffer[buffer.startIndex..<newline]
        buffer.removeSubrange(buffer.startIndex...newline)
        let answer = try JSONDecoder().decode(Answer.self, from: Data(line))
        guard let objects = answer.objects else { throw FixtureError("listing \(bucket) failed: \(answer.error ?? "?")") }
        return objects
    }

    deinit {
        process.signal(SIGKILL)
        process.wait()
    }
}
