"""Real network faults between this machine and a server in a network namespace of its own.

The kernels the tests run on have no `netem` qdisc (nor tc classifiers or actions), so the faults
are made in user space, on real IP packets: the server runs in a network namespace made for the
purpose, joined to the host's namespace by a pair of TUN devices, one on each side, with
point-to-point addresses (10.77.N.1 on the host, 10.77.N.2 for the server). A relay thread copies
every IP packet from one TUN device to the other and applies the faults set at that moment:

- loss: each packet dropped with a probability (from a seeded random generator);
- delay: a fixed delay plus an optional jitter (uniform in ±jitter), packets kept in their order
  in each direction (a packet never overtakes the one before it, as on one link);
- a bandwidth limit: packets leave at `rate_bits` bits per second (their whole IP length
  counted), after a queue of at most `queue_bytes`; a packet that finds the queue full is
  dropped, as a router drops it (the queue holds 32 KiB unless `queue_bytes` says otherwise);
- outages: every packet dropped, those already in the queue or under way as well, for some
  seconds (`outage`) or until `up()` (`down`).

The faults apply to both directions unless `direction` names one: `"to_server"` (from the host,
e.g. a browser's upload) or `"to_host"` (the server's answers). They can change while traffic
flows; the packets already queued keep the time they were given.

TCP, the server and the client are the real ones: TCP retransmits what the relay drops, so a
transfer across loss or an outage still delivers every byte (later), and a new connection during
an outage fails to connect.

Usage (as root: namespaces and TUN devices need it):

    from netfault import NetFault

    with NetFault(seed=7) as net:
        server = net.popen_in_server(["python3", "-m", "http.server", "8000", "--bind", net.server_address])
        net.wait_for_port(8000)
        net.set(rate_bits=1_000_000)                 # a 1 Mbit/s link
        net.set(loss=0.1, delay=0.5, jitter=0.1)     # on top: 10 % loss, 0.5 s ± 0.1 s each way
        net.outage(3)                                # nothing passes for 3 s (returns at once)
        net.down(); net.up()                         # nothing passes until up()
        net.reset_connections()                      # every open connection reset (ss -K)
        net.clear()                                  # a perfect link again
        print(net.stats())                           # packets relayed, dropped by cause, delayed

`NetFault.close()` (the end of the `with` block, an exception included) stops the processes it
started in the namespace (and any other process left in it), the relay, both TUN devices and the
namespace. Namespaces named `narrate-net-PID-…` whose process is gone (a run killed before its
clean-up) are removed when the next one starts.

What to know when driving a server through it:
- The TUN devices have an MTU of 1500 bytes and no offloads: TCP segments are at most 1448 bytes
  of payload, and the kernel computes every checksum before the relay sees the packet.
- IPv4 only: IPv6 is switched off on both devices (no stray router solicitations in the counts).
- The relay is a Python thread of the test's process: it passes some tens of MB/s with no limit
  set, and its timing is good to about a millisecond on an idle machine, less under load.
- Only the host's namespace reaches the server (through 10.77.N.2); the server reaches the host at
  10.77.N.1 and its own loopback; there is no route to anything else.
"""

import collections
import ctypes
import fcntl
import itertools
import math
import os
import random
import select
import signal
import socket
import struct
import subprocess
import threading
import time

NAMESPACE_PREFIX = "narrate-net-"
NETNS_FOLDER = "/run/netns"
DIRECTIONS = ("to_server", "to_host")
DROP_CAUSES = ("loss", "outage", "queue", "device")

_TUNSETIFF = 0x400454CA
_IFF_TUN = 0x0001
_IFF_NO_PI = 0x1000
_CLONE_NEWNET = 0x40000000
_MTU = 1500
_names = itertools.count(1)


class NetFaultError(Exception):
    """The namespace, a device or the relay could not be set up (the sentence says which)."""


# ---------------------------------------------------------------------------------------------
# The fault model of one direction (pure: times are given, nothing is read from a clock)


class Faults:
    """The faults set on one direction. `rate_bits` None: no limit; `queue_bytes`: the most the
    link's queue holds before it drops."""

    __slots__ = ("loss", "delay", "jitter", "rate_bits", "queue_bytes")

    def __init__(self):
        self.loss = 0.0
        self.delay = 0.0
        self.jitter = 0.0
        self.rate_bits = None
        self.queue_bytes = 32 * 1024

    def as_dict(self):
        return {name: getattr(self, name) for name in self.__slots__}


class Link:
    """One direction of the emulated link: decides, for each packet arriving at time `now`, to
    drop it (and why) or when to hand it on; counts what it did."""

    def __init__(self, rng):
        self.faults = Faults()
        self.rng = rng
        self.queue = collections.deque()  # (release time, packet), in release order
        self.link_free_at = 0.0           # when the bandwidth limit's serializer is free again
        self.last_release = 0.0           # packets never overtake the one before them
        self.reset_counts()

    def reset_counts(self):
        self.received = 0
        self.relayed = 0
        self.relayed_bytes = 0
        self.delayed = 0
        self.dropped = dict.fromkeys(DROP_CAUSES, 0)

    def arrive(self, packet, now, out):
        """A packet read from the TUN device at `now`; `out`: whether an outage is on."""
        self.received += 1
        faults = self.faults
        if out:
            self.dropped["outage"] += 1
            return
        if faults.loss > 0 and self.rng.random() < faults.loss:
            self.dropped["loss"] += 1
            return
        leaves = now
        if faults.rate_bits:
            start = max(now, self.link_free_at)
            backlog = (start - now) * faults.rate_bits / 8
            if backlog + len(packet) > faults.queue_bytes:
                self.dropped["queue"] += 1
                return
            self.link_free_at = start + len(packet) * 8 / faults.rate_bits
            leaves = self.link_free_at
        delay = faults.delay
        if faults.jitter > 0:
            delay += self.rng.uniform(-faults.jitter, faults.jitter)
        release = max(leaves + max(delay, 0.0), self.last_release)
        self.last_release = release
        if release > now:
            self.delayed += 1
        self.queue.append((release, packet))

    def due(self, now, out):
        """The packets whose time has come, in order; during an outage they are dropped. The
        caller hands them on and counts each with `handed_on`."""
        ready = []
        while self.queue and self.queue[0][0] <= now:
            _, packet = self.queue.popleft()
            if out:
                self.dropped["outage"] += 1
            else:
                ready.append(packet)
        return ready

    def handed_on(self, packet, written):
        """Counts a due packet: written to the other device, or refused by it."""
        if written:
            self.relayed += 1
            self.relayed_bytes += len(packet)
        else:
            self.dropped["device"] += 1

    def next_release(self):
        return self.queue[0][0] if self.queue else None

    def counts(self):
        return {"received": self.received, "relayed": self.relayed, "relayed_bytes": self.relayed_bytes,
                "delayed": self.delayed, "dropped": dict(self.dropped), "queued": len(self.queue)}


# ---------------------------------------------------------------------------------------------
# System calls


_libc = ctypes.CDLL(None, use_errno=True)


def _setns(fd):
    """Moves the calling thread into the network namespace `fd`. The corresponding C function is
    `setns` (Python 3.11's os module has no setns)."""
    if _libc.setns(fd, _CLONE_NEWNET) != 0:
        code = ctypes.get_errno()
        raise NetFaultError(f"Cannot enter the network namespace: {os.strerror(code)}.")


def _open_tun(name):
    """A TUN device NAME (IP packets, no packet-information header) in the calling thread's
    network namespace: its file descriptor, non-blocking."""
    try:
        fd = os.open("/dev/net/tun", os.O_RDWR | os.O_CLOEXEC)
    except OSError as error:
        raise NetFaultError(f"Cannot open /dev/net/tun: {error.strerror}; TUN devices need root and the tun module.") from None
    try:
        fcntl.ioctl(fd, _TUNSETIFF, struct.pack("16sH22x", name.encode(), _IFF_TUN | _IFF_NO_PI))
    except OSError as error:
        os.close(fd)
        raise NetFaultError(f"Cannot create the TUN device {name}: {error.strerror}.") from None
    os.set_blocking(fd, False)
    return fd


def _in_namespace(namespace, work):
    """Runs `work()` on a short-lived thread that has entered the network namespace NAMESPACE
    (setns changes only the calling thread); its result, or its exception raised here."""
    result = {}

    def run():
        try:
            fd = os.open(os.path.join(NETNS_FOLDER, namespace), os.O_RDONLY | os.O_CLOEXEC)
            try:
                _setns(fd)
            finally:
                os.close(fd)
            result["value"] = work()
        except BaseException as error:  # handed to the caller
            result["error"] = error
    thread = threading.Thread(target=run, name=f"netns {namespace}")
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


def _ip(*args, check=True):
    result = subprocess.run(["ip", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise NetFaultError(f"'ip {' '.join(args)}' failed: {result.stderr.strip() or result.returncode}.")
    return result


def _disable_ipv6(device):
    with open(f"/proc/sys/net/ipv6/conf/{device}/disable_ipv6", "w") as f:
        f.write("1")


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _kill_namespace_processes(namespace):
    """SIGKILL to every process still in NAMESPACE (a server that ignored SIGTERM, a child of one)."""
    listed = _ip("netns", "pids", namespace, check=False)
    for word in listed.stdout.split():
        if word.isdigit():
            try:
                os.kill(int(word), signal.SIGKILL)
            except ProcessLookupError:
                pass


def remove_leftover_namespaces():
    """Removes the namespaces named `narrate-net-PID-…` whose process PID is gone (a run killed
    before its clean-up) with whatever still runs in them. The names removed."""
    removed = []
    try:
        names = os.listdir(NETNS_FOLDER)
    except FileNotFoundError:
        return removed
    for name in names:
        if not name.startswith(NAMESPACE_PREFIX):
            continue
        owner = name[len(NAMESPACE_PREFIX):].split("-", 1)[0]
        if owner.isdigit() and _pid_alive(int(owner)):
            continue
        _kill_namespace_processes(name)
        if _ip("netns", "del", name, check=False).returncode == 0:
            removed.append(name)
    return removed


def _free_subnet():
    """A third octet N with no 10.77.N.* address on the host yet, starting from one the process id picks."""
    used = set()
    for line in _ip("-o", "-4", "addr", "show").stdout.splitlines():
        for word in line.split():
            if word.startswith("10.77."):
                parts = word.split("/")[0].split(".")
                if len(parts) == 4 and parts[2].isdigit():
                    used.add(int(parts[2]))
    start = os.getpid() % 250
    for step in range(250):
        candidate = 1 + (start + step) % 250
        if candidate not in used:
            return candidate
    raise NetFaultError("Every 10.77.N.0 subnet (N 1 to 250) is in use on this machine: remove leftover TUN devices.")


# ---------------------------------------------------------------------------------------------
# The namespace, the devices and the relay


class NetFault:
    """A server namespace joined to this one through a faulty link (see the module's text)."""

    def __init__(self, seed=0, subnet=None):
        """`seed`: the random generator's seed (loss and jitter), so a run can be repeated;
        `subnet`: the N of 10.77.N.0/24 (by default a free one)."""
        self.seed = seed
        self.subnet = subnet
        self._number = next(_names)
        self.namespace = f"{NAMESPACE_PREFIX}{os.getpid()}-{self._number}"
        self.host_device = None
        self.server_device = None
        self.host_address = None
        self.server_address = None
        self._processes = []
        self._fds = []
        self._thread = None
        self._lock = threading.Lock()
        self._outage_until = 0.0
        rng = random.Random(seed)
        self._links = {direction: Link(random.Random(rng.random())) for direction in DIRECTIONS}
        self._wake_read = self._wake_write = None
        self._stopping = False
        self._relay_error = None
        self._namespace_made = False

    # Setting up and tearing down

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()
        return False

    def open(self):
        """Makes the namespace, the two TUN devices with their addresses, and starts the relay."""
        if os.geteuid() != 0:
            raise NetFaultError("NetFault needs root: network namespaces and TUN devices are made as root.")
        remove_leftover_namespaces()
        try:
            self._open()
        except BaseException:
            self.close()
            raise
        return self

    def _open(self):
        n = self.subnet if self.subnet is not None else _free_subnet()
        if not 1 <= n <= 254:
            raise NetFaultError(f"The subnet 10.77.{n}.0 is not one of 10.77.1.0 to 10.77.254.0.")
        self.host_address, self.server_address = f"10.77.{n}.1", f"10.77.{n}.2"
        tag = f"{os.getpid()}-{self._number}"[-11:]
        self.host_device, self.server_device = f"nfh{tag}", f"nfs{tag}"
        _ip("netns", "add", self.namespace)
        self._namespace_made = True
        _ip("-n", self.namespace, "link", "set", "lo", "up")

        host_fd = _open_tun(self.host_device)
        self._fds.append(host_fd)
        _disable_ipv6(self.host_device)
        _ip("link", "set", self.host_device, "mtu", str(_MTU))
        _ip("addr", "add", self.host_address, "peer", f"{self.server_address}/32", "dev", self.host_device)
        _ip("link", "set", self.host_device, "up")

        def server_side():
            fd = _open_tun(self.server_device)
            try:
                _disable_ipv6(self.server_device)
            except OSError:
                os.close(fd)
                raise
            return fd
        server_fd = _in_namespace(self.namespace, server_side)
        self._fds.append(server_fd)
        _ip("-n", self.namespace, "link", "set", self.server_device, "mtu", str(_MTU))
        _ip("-n", self.namespace, "addr", "add", self.server_address, "peer", f"{self.host_address}/32", "dev", self.server_device)
        _ip("-n", self.namespace, "link", "set", self.server_device, "up")

        self._wake_read, self._wake_write = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        self._ends = {"to_server": (host_fd, server_fd), "to_host": (server_fd, host_fd)}
        self._thread = threading.Thread(target=self._relay, name=f"relay {self.namespace}", daemon=True)
        self._thread.start()

    def close(self):
        """Stops every process started in the namespace (SIGTERM, then SIGKILL after 5 s), the
        relay, the devices and the namespace. Safe to call twice."""
        for process in self._processes:
            if process.poll() is None:
                process.terminate()
        for process in self._processes:
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._processes = []
        if self._thread is not None:
            self._stopping = True
            os.write(self._wake_write, b"x")
            self._thread.join(5)
            self._thread = None
        for fd in self._fds + [self._wake_read, self._wake_write]:
            if fd is not None:
                os.close(fd)
        self._fds = []
        self._wake_read = self._wake_write = None
        if self._namespace_made:
            _kill_namespace_processes(self.namespace)
            _ip("netns", "del", self.namespace, check=False)
            self._namespace_made = False

    # The server side

    def server_command(self, argv):
        """ARGV as a command that runs inside the server's namespace (`ip netns exec`, which
        execs ARGV: the process id stays the command's own)."""
        return ["ip", "netns", "exec", self.namespace, *argv]

    def popen_in_server(self, argv, **popen_arguments):
        """Starts ARGV inside the server's namespace (`subprocess.Popen`'s arguments beside);
        it is stopped by `close()` if it still runs."""
        process = subprocess.Popen(self.server_command(argv), **popen_arguments)
        self._processes.append(process)
        return process

    def wait_for_port(self, port, timeout=10):
        """Waits until a TCP connection from this side to the server's PORT succeeds."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection((self.server_address, port), timeout=1).close()
                return
            except OSError as error:
                if time.monotonic() > deadline:
                    raise NetFaultError(f"Nothing answered on {self.server_address}:{port} within {timeout} s ({error}).") from None
                time.sleep(0.05)

    # The faults

    def set(self, direction=None, **faults):
        """Changes the faults named (loss, delay, jitter, rate_bits, queue_bytes), the others kept,
        on both directions or on `direction` ("to_server" or "to_host"). Loss is a probability
        (0 to 1), delay and jitter seconds (0 to 10), rate_bits bits per second (None: no limit),
        queue_bytes at least one full packet."""
        checks = {
            "loss": lambda v: 0 <= v <= 1,
            "delay": lambda v: 0 <= v <= 10,
            "jitter": lambda v: 0 <= v <= 10,
            "rate_bits": lambda v: 1000 <= v <= 10 ** 11,
            "queue_bytes": lambda v: _MTU <= v <= 1 << 30,
        }
        for name, value in faults.items():
            if name not in checks:
                raise TypeError(f"NetFault.set: unknown fault {name!r}; the faults are {', '.join(checks)}.")
            if value is None and name == "rate_bits":
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"NetFault.set: {name} must be a finite number, not {value!r}.")
            if not checks[name](value):
                raise ValueError(f"NetFault.set: {name} = {value!r} is out of range.")
        with self._lock:
            for link in self._chosen(direction):
                for name, value in faults.items():
                    setattr(link.faults, name, value)
        self._wake()

    def clear(self):
        """A perfect link again: no loss, delay, limit or outage (queued packets still leave as planned)."""
        with self._lock:
            for link in self._links.values():
                link.faults = Faults()
            self._outage_until = 0.0
        self._wake()

    def outage(self, seconds):
        """Drops every packet, from now for SECONDS (returns at once)."""
        if not isinstance(seconds, (int, float)) or not 0 <= seconds <= 3600:
            raise ValueError(f"NetFault.outage: {seconds!r} is not a number of seconds from 0 to 3600.")
        with self._lock:
            self._outage_until = time.monotonic() + seconds
        self._wake()

    def down(self):
        """Drops every packet until `up()`."""
        with self._lock:
            self._outage_until = math.inf

    def up(self):
        """Ends an outage (`down()` or `outage()`)."""
        with self._lock:
            self._outage_until = 0.0
        self._wake()

    def reset_connections(self):
        """Aborts every TCP connection between the server's namespace and this side (`ss -K`, the
        server's end sending a reset), as when a server or a middlebox forgets them: the client
        learns at once (the reset, unless an outage drops it) or on its next packet. The number of
        connections aborted."""
        result = subprocess.run(self.server_command(["ss", "-K", "-t", "-n", "dst", self.host_address]),
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise NetFaultError(f"'ss -K' in {self.namespace} failed: {result.stderr.strip() or result.returncode} "
                                "(the kernel needs CONFIG_INET_DIAG_DESTROY).")
        return sum(1 for line in result.stdout.splitlines()[1:] if line.strip())

    def faults(self):
        """The faults set now: {direction: {loss, delay, jitter, rate_bits, queue_bytes}, "outage": bool}."""
        with self._lock:
            result = {direction: link.faults.as_dict() for direction, link in self._links.items()}
            result["outage"] = time.monotonic() < self._outage_until
        return result

    def stats(self):
        """What the relay did, per direction: {received, relayed, relayed_bytes, delayed (held
        back by delay or the bandwidth limit), dropped: {loss, outage, queue, device (refused by
        the TUN device it was written to)}, queued}."""
        self._check_relay()
        with self._lock:
            return {direction: link.counts() for direction, link in self._links.items()}

    def reset_stats(self):
        """Counts from zero again (the faults and the queued packets stay)."""
        with self._lock:
            for link in self._links.values():
                link.reset_counts()

    def _chosen(self, direction):
        if direction is None:
            return list(self._links.values())
        if direction not in self._links:
            raise ValueError(f"NetFault: direction {direction!r} is not one of {', '.join(DIRECTIONS)}.")
        return [self._links[direction]]

    def _wake(self):
        if self._wake_write is not None:
            try:
                os.write(self._wake_write, b"x")
            except BlockingIOError:
                pass  # already awake

    def _check_relay(self):
        if self._relay_error is not None:
            raise NetFaultError(f"The relay stopped: {self._relay_error!r}.")

    # The relay

    def _relay(self):
        try:
            self._relay_loop()
        except BaseException as error:  # shown by stats()
            self._relay_error = error

    def _relay_loop(self):
        sources = {self._ends[d][0]: d for d in DIRECTIONS}
        watched = [*sources, self._wake_read]
        while not self._stopping:
            with self._lock:
                releases = [t for t in (link.next_release() for link in self._links.values()) if t is not None]
            timeout = max(0.0, min(releases) - time.monotonic()) if releases else None
            readable, _, _ = select.select(watched, [], [], timeout)
            if self._wake_read in readable:
                try:
                    os.read(self._wake_read, 4096)
                except BlockingIOError:
                    pass
            arrived = []
            for fd in readable:
                if fd in sources:
                    for _ in range(256):  # a burst, not forever
                        try:
                            packet = os.read(fd, 65536)
                        except BlockingIOError:
                            break
                        arrived.append((sources[fd], packet))
            with self._lock:
                now = time.monotonic()
                out = now < self._outage_until
                for direction, packet in arrived:
                    self._links[direction].arrive(packet, now, out)
                outgoing = [(d, self._links[d].due(now, out)) for d in DIRECTIONS]
            for direction, packets in outgoing:
                destination = self._ends[direction][1]
                written = []
                for packet in packets:
                    try:
                        os.write(destination, packet)
                        written.append(True)
                    except OSError:
                        written.append(False)  # the device refused it (as a full interface queue would): lost
                with self._lock:
                    for packet, ok in zip(packets, written):
                        self._links[direction].handed_on(packet, ok)
