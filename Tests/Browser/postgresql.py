"""A PostgreSQL server of a test's or the bench's own (Debian's postgresql): initdb into a folder,
reached through its Unix socket, which lets the system user in without a password. As root its
programs run as the postgres user, as initdb requires. `stop()` then `start()` restarts it on the
same data."""

import os
import signal
import socket
import subprocess
import time


class PostgreSQL:
    def __init__(self, folder):
        versions = os.listdir("/usr/lib/postgresql") if os.path.isdir("/usr/lib/postgresql") else []
        bins = sorted(d for d in (os.path.join("/usr/lib/postgresql", v, "bin") for v in versions) if os.path.exists(os.path.join(d, "initdb")))
        if not bins:
            raise RuntimeError("PostgreSQL's programs are not in /usr/lib/postgresql/*/bin: install postgresql.")
        self.bin, self.folder = bins[-1], folder
        self.socket = os.path.join(folder, "socket")
        self.data = os.path.join(folder, "data")
        os.makedirs(self.socket, exist_ok=True)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        if os.getuid() == 0:
            import pwd
            owner = pwd.getpwnam("postgres")
            for path in (folder, self.socket):
                os.chown(path, owner.pw_uid, owner.pw_gid)
        self.run("initdb", "-D", self.data, "-U", "narrate", "-E", "UTF8", "--auth-local=trust", "--no-sync", "--no-instructions")
        self.process = None
        self.start()
        self.run("createdb", "-h", self.socket, "-p", str(self.port), "-U", "narrate", "narrate")
        self.address = "postgresql://narrate@/narrate?host=%s&port=%d" % (self.socket, self.port)

    def start(self):
        """Starts the server on its data and waits until it takes connections."""
        with open(os.path.join(self.folder, "postgres.log"), "a") as log:
            self.process = subprocess.Popen(self.as_postgres(os.path.join(self.bin, "postgres"), "-D", self.data, "-p", str(self.port),
                                                             "-k", self.socket, "-c", "listen_addresses="),
                                            stdout=subprocess.DEVNULL, stderr=log)
        for _ in range(600):
            if subprocess.run(self.as_postgres(os.path.join(self.bin, "pg_isready"), "-q", "-h", self.socket, "-p", str(self.port), "-U", "narrate",
                                               "-d", "postgres")).returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError("PostgreSQL did not take connections within 60 s: see " + os.path.join(self.folder, "postgres.log"))

    def as_postgres(self, program, *args):
        return (["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", program] if os.getuid() == 0 else [program]) + list(args)

    def run(self, name, *args):
        result = subprocess.run(self.as_postgres(os.path.join(self.bin, name), *args), capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError("%s exited %d: %s" % (name, result.returncode, result.stderr.strip()))

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # a fast shutdown: connections are ended
            self.process.wait(60)
