"""The network faults of `netfault.py`, each shown on real TCP: a small HTTP server in the fault
namespace, a client (and headless Chromium) on this side. The bandwidth limit gives the rate it
names, loss drops the share it names while TCP still delivers every byte, delay adds both ways to
a round trip, an outage stalls a transfer that then completes, `down()` refuses new connections
until `up()`, `reset_connections()` resets an open one; and Chromium, told to treat the
namespace's plain-http origin as secure, has a secure context there (the Origin Private File
System and its fake microphone), where the web studio served plain http records a take."""

import hashlib
import http.client
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from netfault import DIRECTIONS, Link, NetFault

SEED = int(os.environ.get("NARRATE_NETFAULT_SEED", "34"))
PORT = 8080

# The server run in the namespace: /bytes/N answers N bytes made from the seed N (the client
# makes the same to compare), /ping a few bytes, / a page; keep-alive, no Nagle delay, each
# answer in one write, quiet about connections reset.
SERVER = r'''
import http.server, random, sys

PAGE = b"<!doctype html><html lang=en><title>netfault</title><p id=hello>Served from the namespace</p></html>"

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def do_GET(self):
        if self.path.startswith("/bytes/") and self.path[7:].isdigit():
            body, kind = random.Random(int(self.path[7:])).randbytes(int(self.path[7:])), "application/octet-stream"
        elif self.path == "/ping":
            body, kind = b"pong", "text/plain"
        elif self.path == "/":
            body, kind = PAGE, "text/html"
        else:
            body, kind = b"not here", "text/plain"
        status = "404 Not Found" if body == b"not here" else "200 OK"
        head = f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\nCache-Control: no-store\r\n\r\n"
        self.wfile.write(head.encode() + body)

    def log_message(self, *arguments):
        pass

class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a connection reset on purpose is no error

Server((sys.argv[1], int(sys.argv[2])), Handler).serve_forever()
'''


def expected_bytes(count):
    return random.Random(count).randbytes(count)


def dropped_share(stats, cause):
    """(dropped for CAUSE, received) over both directions."""
    return (sum(stats[d]["dropped"][cause] for d in DIRECTIONS), sum(stats[d]["received"] for d in DIRECTIONS))


class Download:
    """GET /bytes/N from the server in the namespace, read as it comes: the body, and when each
    piece arrived (monotonic seconds, bytes so far)."""

    def __init__(self, net, count, timeout=30):
        self.count = count
        self.timeline = []
        self.body = b""
        self.error = None
        self.started = time.monotonic()
        self.net = net
        self.timeout = timeout

    def run(self):
        connection = http.client.HTTPConnection(self.net.server_address, PORT, timeout=self.timeout)
        try:
            connection.request("GET", f"/bytes/{self.count}")
            response = connection.getresponse()
            pieces, total = [], 0
            while True:
                piece = response.read1(65536)
                if not piece:
                    break
                pieces.append(piece)
                total += len(piece)
                self.timeline.append((time.monotonic(), total))
            self.body = b"".join(pieces)
        finally:
            connection.close()
        self.finished = time.monotonic()
        return self

    def start(self):
        def run():
            try:
                self.run()
            except Exception as error:
                self.error = error
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        return self

    def join(self, timeout):
        self.thread.join(timeout)
        if self.thread.is_alive():
            raise AssertionError(f"The download of {self.count} bytes had not finished after {timeout} s "
                                 f"({self.timeline[-1][1] if self.timeline else 0} bytes arrived)")
        if self.error is not None:
            raise self.error
        return self

    def received_at(self, moment):
        """Bytes arrived by MOMENT (monotonic seconds)."""
        return max([total for at, total in self.timeline if at <= moment], default=0)

    @property
    def seconds(self):
        return self.finished - self.started


class LinkModelTests(unittest.TestCase):
    """The relay's decisions, given times (no clock, no packets on a wire)."""

    def test_jitter_never_reorders_a_direction(self):
        link = Link(random.Random(SEED))
        link.faults.delay, link.faults.jitter = 0.5, 0.3
        for i in range(200):  # one packet every 0.1 s: the jitter (±0.3 s) would reorder them
            link.arrive(i.to_bytes(4, "big"), i * 0.1, out=False)
        releases = [at for at, _ in link.queue]
        self.assertEqual(releases, sorted(releases))
        self.assertEqual([int.from_bytes(p, "big") for _, p in link.queue], list(range(200)))
        waits = [at - i * 0.1 for i, at in enumerate(releases)]
        self.assertGreaterEqual(min(waits), 0.2 - 1e-9)
        self.assertLessEqual(max(waits), 0.8 + 1e-9)
        self.assertGreater(max(waits) - min(waits), 0.4, "jitter spread the waits")

    def test_rate_limit_spaces_packets_and_drops_beyond_its_queue(self):
        link = Link(random.Random(SEED))
        link.faults.rate_bits, link.faults.queue_bytes = 1_000_000, 15_000
        for _ in range(20):  # 20 packets of 1500 bytes at once: 10 fit the queue
            link.arrive(bytes(1500), 0.0, out=False)
        self.assertEqual(link.dropped["queue"], 10)
        releases = [at for at, _ in link.queue]
        self.assertAlmostEqual(releases[0], 0.012)
        self.assertAlmostEqual(releases[-1], 0.120)
        self.assertEqual(link.due(0.05, out=False), [bytes(1500)] * 4)  # 12, 24, 36 and 48 ms
        self.assertEqual(len(link.due(0.05, out=True)), 0)
        self.assertEqual(len(link.due(1.0, out=True)), 0)
        self.assertEqual(link.dropped["outage"], 6)


class NetFaultTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if os.geteuid() != 0:
            raise unittest.SkipTest("network namespaces and TUN devices need root")
        cls.folder = tempfile.mkdtemp(prefix="narrate-netfault-")
        script = os.path.join(cls.folder, "server.py")
        with open(script, "w") as f:
            f.write(SERVER)
        cls.net = NetFault(seed=SEED).open()
        try:
            cls.server = cls.net.popen_in_server([sys.executable, script, cls.net.server_address, str(PORT)],
                                                 stdin=subprocess.DEVNULL)
            cls.net.wait_for_port(PORT)
        except BaseException:
            cls.net.close()
            raise
        print(f"\nnetfault: seed {SEED}, server {cls.net.server_address}:{PORT} in {cls.net.namespace}")

    @classmethod
    def tearDownClass(cls):
        cls.net.close()
        shutil.rmtree(cls.folder, ignore_errors=True)
        left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        if cls.net.namespace in left:
            raise AssertionError(f"{cls.net.namespace} is still there after close()")

    def setUp(self):
        self.net.clear()
        self.net.reset_stats()

    def tearDown(self):
        self.net.clear()

    def assertAllBytes(self, download):
        self.assertEqual(len(download.body), download.count)
        self.assertEqual(hashlib.sha256(download.body).hexdigest(), hashlib.sha256(expected_bytes(download.count)).hexdigest(),
                         "the body differs from what the server sent")

    def ping(self, connection):
        connection.request("GET", "/ping")
        response = connection.getresponse()
        self.assertEqual(response.read(), b"pong")

    def test_a_1_mbit_link_carries_125_kB_per_second(self):
        self.net.set(rate_bits=1_000_000)
        download = Download(self.net, 1_000_000).run()
        self.assertAllBytes(download)
        rate = download.count / download.seconds
        stats = self.net.stats()
        print(f"\nnetfault: 1 Mbit/s: 1 MB in {download.seconds:.2f} s = {rate / 1000:.1f} kB/s; "
              f"queue drops {dropped_share(stats, 'queue')[0]} of {dropped_share(stats, 'queue')[1]} packets")
        self.assertGreaterEqual(rate, 125_000 * 0.75)
        self.assertLessEqual(rate, 125_000 * 1.25)

    def test_ten_percent_loss_drops_one_packet_in_ten_and_tcp_delivers_every_byte(self):
        self.net.set(loss=0.1)
        download = Download(self.net, 1_000_000).run()
        self.assertAllBytes(download)
        dropped, received = dropped_share(self.net.stats(), "loss")
        print(f"\nnetfault: 10 % loss: {dropped} of {received} packets dropped ({100 * dropped / received:.1f} %), "
              f"1 MB complete in {download.seconds:.2f} s")
        self.assertGreater(received, 900, "enough packets for the share to mean something")
        self.assertGreaterEqual(dropped / received, 0.07)
        self.assertLessEqual(dropped / received, 0.13)

    def test_half_a_second_of_delay_adds_a_second_to_a_round_trip(self):
        connection = http.client.HTTPConnection(self.net.server_address, PORT, timeout=10)
        try:
            self.ping(connection)  # connected, and the server's thread running
            started = time.monotonic()
            self.ping(connection)
            healthy = time.monotonic() - started
            self.net.set(delay=0.5, jitter=0.05)
            started = time.monotonic()
            self.ping(connection)
            delayed = time.monotonic() - started
        finally:
            connection.close()
        stats = self.net.stats()
        print(f"\nnetfault: round trip {healthy * 1000:.1f} ms healthy, {delayed * 1000:.0f} ms with 0.5 s ± 0.05 s each way")
        self.assertGreaterEqual(delayed - healthy, 0.9)
        self.assertLess(delayed, 2.0)
        self.assertGreaterEqual(stats["to_server"]["delayed"], 1)
        self.assertGreaterEqual(stats["to_host"]["delayed"], 1)

    def test_an_outage_stalls_a_transfer_which_then_completes(self):
        self.net.set(rate_bits=4_000_000)
        download = Download(self.net, 1_000_000).start()
        deadline = time.monotonic() + 10
        while download.received_at(time.monotonic()) < 100_000:
            self.assertLess(time.monotonic(), deadline, "the transfer did not start")
            time.sleep(0.01)
        self.net.outage(3)
        outage_started = time.monotonic()
        download.join(30)
        self.assertAllBytes(download)
        during = download.received_at(outage_started + 2.9) - download.received_at(outage_started + 0.2)
        stats = self.net.stats()
        print(f"\nnetfault: 3 s outage from byte {download.received_at(outage_started)}: "
              f"{during} bytes arrived in it, {stats['to_server']['dropped']['outage'] + stats['to_host']['dropped']['outage']} "
              f"packets dropped, complete {download.finished - outage_started:.1f} s after it began")
        self.assertEqual(during, 0, "nothing arrives during the outage")
        self.assertLess(download.received_at(outage_started + 0.2), download.count, "the outage came mid-transfer")
        self.assertGreaterEqual(download.finished - outage_started, 3.0)
        self.assertGreater(stats["to_host"]["dropped"]["outage"], 0)

    def test_down_refuses_new_connections_until_up(self):
        self.net.down()
        started = time.monotonic()
        with self.assertRaises((TimeoutError, socket.timeout)):
            socket.create_connection((self.net.server_address, PORT), timeout=2).close()
        self.assertGreaterEqual(time.monotonic() - started, 1.9)
        self.assertGreater(self.net.stats()["to_server"]["dropped"]["outage"], 0, "the SYN was dropped")
        self.net.up()
        connection = http.client.HTTPConnection(self.net.server_address, PORT, timeout=2)
        try:
            self.ping(connection)
        finally:
            connection.close()

    def test_reset_connections_resets_an_open_connection(self):
        connection = http.client.HTTPConnection(self.net.server_address, PORT, timeout=5)
        try:
            self.ping(connection)
            # This connection, and any an earlier test left open to the server (kept alive).
            self.assertGreaterEqual(self.net.reset_connections(), 1)
            with self.assertRaises(ConnectionError):
                self.ping(connection)
        finally:
            connection.close()
        fresh = http.client.HTTPConnection(self.net.server_address, PORT, timeout=5)
        try:
            self.ping(fresh)
        finally:
            fresh.close()


class ChromiumThroughNetFaultTests(unittest.TestCase):
    """Headless Chromium on this side opens a page served plain-http from the namespace."""

    @classmethod
    def setUpClass(cls):
        if os.geteuid() != 0:
            raise unittest.SkipTest("network namespaces and TUN devices need root")
        from studio_fixture import Browser, speech_file
        cls.Browser, cls.speech = Browser, speech_file()
        cls.folder = tempfile.mkdtemp(prefix="narrate-netfault-chromium-")
        script = os.path.join(cls.folder, "server.py")
        with open(script, "w") as f:
            f.write(SERVER)
        cls.net = NetFault(seed=SEED).open()
        cls.browsers = []
        try:
            cls.net.popen_in_server([sys.executable, script, cls.net.server_address, str(PORT)], stdin=subprocess.DEVNULL)
            cls.net.wait_for_port(PORT)
        except BaseException:
            cls.net.close()
            raise
        cls.origin = f"http://{cls.net.server_address}:{PORT}"

    @classmethod
    def tearDownClass(cls):
        for browser in cls.browsers:
            browser.quit()
        cls.net.close()
        shutil.rmtree(cls.folder, ignore_errors=True)

    def browser(self, arguments=()):
        browser = self.Browser(self.folder, self.speech, arguments)
        self.browsers.append(browser)
        return browser

    # What the page can do: a secure context, a file written to and read back from the Origin
    # Private File System, and the fake microphone's speech (its loudest sample).
    PROBE = """
        const done = arguments[arguments.length - 1];
        (async () => {
          const result = {secure: window.isSecureContext, opfs: !!(navigator.storage && navigator.storage.getDirectory),
                          microphone: !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia)};
          if (result.opfs) {
            const root = await navigator.storage.getDirectory();
            const handle = await root.getFileHandle('piece-1', {create: true});
            const writable = await handle.createWritable();
            await writable.write(new Uint8Array([1, 2, 3, 4]));
            await writable.close();
            result.opfsBytes = Array.from(new Uint8Array(await (await handle.getFile()).arrayBuffer()));
          }
          if (result.microphone) {
            const stream = await navigator.mediaDevices.getUserMedia({audio: true});
            const context = new AudioContext();
            const analyser = context.createAnalyser();
            analyser.fftSize = 2048;
            context.createMediaStreamSource(stream).connect(analyser);
            const samples = new Float32Array(analyser.fftSize);
            let peak = 0;
            for (let i = 0; i < 40 && peak < 0.05; i++) {
              await new Promise(r => setTimeout(r, 50));
              analyser.getFloatTimeDomainData(samples);
              for (const s of samples) peak = Math.max(peak, Math.abs(s));
            }
            result.track = stream.getAudioTracks()[0].readyState;
            result.peak = peak;
            stream.getTracks().forEach(t => t.stop());
            await context.close();
          }
          return result;
        })().then(done, e => done({error: String(e)}));
    """

    def open(self, browser):
        before = self.net.stats()["to_server"]["relayed"]
        browser.driver.get(self.origin + "/")
        browser.wait_js("return document.getElementById('hello') !== null", "the page from the namespace")
        self.assertGreater(self.net.stats()["to_server"]["relayed"], before, "the page came through the relay")
        return browser.driver.execute_async_script(self.PROBE)

    def test_plain_http_origin_treated_as_secure_has_opfs_and_the_microphone(self):
        result = self.open(self.browser([f"--unsafely-treat-insecure-origin-as-secure={self.origin}"]))
        print(f"\nnetfault: Chromium at {self.origin} with the origin treated as secure: {result}")
        self.assertEqual(result.get("error"), None)
        self.assertTrue(result["secure"])
        self.assertEqual(result["opfsBytes"], [1, 2, 3, 4])
        self.assertEqual(result["track"], "live")
        self.assertGreater(result["peak"], 0.05, "the fake microphone's speech reached the page")

    def test_plain_http_origin_alone_is_not_a_secure_context(self):
        result = self.open(self.browser())
        print(f"\nnetfault: Chromium at {self.origin} without the flag: {result}")
        self.assertEqual(result, {"secure": False, "opfs": False, "microphone": False})

    def test_the_web_studio_served_plain_http_in_the_namespace_records_through_loss_and_delay(self):
        from studio_fixture import BINARY, Studio
        if not os.path.exists(BINARY):
            self.skipTest(f"{BINARY} is not built")
        studio = Studio("netfault")
        try:
            studio.start(listen=f"{self.net.server_address}:0", extra=("--allow-plain-http",),
                         command_prefix=self.net.server_command([]))
            self.assertTrue(studio.base.startswith(f"http://{self.net.server_address}:"), studio.base)
            page = self.browser([f"--unsafely-treat-insecure-origin-as-secure={studio.base}"])
            page.studio = studio
            page.open(studio)
            self.assertEqual(page.js("return [isSecureContext, typeof navigator.storage.getDirectory, "
                                     "typeof navigator.mediaDevices.getUserMedia]"), [True, "function", "function"])
            page.show_new_article_form()
            page.el("form-title").send_keys("Read across a poor network")
            page.click("form-create")
            page.wait(lambda d: page.visible("record-section"), "the studio")
            page.click("mic-browser")
            page.wait_js("return state.microphone === 'browser'", "the studio to switch to the browser's microphone", 20)
            self.net.reset_stats()
            self.net.set(delay=0.1, jitter=0.02, loss=0.05)
            page.click("record")
            started = time.monotonic()
            page.wait_recording(2.5, 20)
            page.click("record")
            clicked = time.monotonic() - started
            page.wait_chunk_count(1, 20)
            page.wait_ready(20)
            self.net.clear()
            chunks = studio.chunks()
            dropped, received = dropped_share(self.net.stats(), "loss")
            print(f"\nnetfault: narrate serve at {studio.base} in the namespace, 0.1 s delay and 5 % loss: "
                  f"a take of {chunks[0]['duration']:.2f} s ({clicked:.2f} s between the clicks), "
                  f"{dropped} of {received} packets dropped")
            self.assertEqual(len(chunks), 1)
            self.assertGreaterEqual(chunks[0]["duration"], 2.5)
            self.assertGreater(dropped, 0)
        finally:
            self.net.clear()
            status = studio.stop()
            studio.remove()
        self.assertEqual(status, 0, "narrate serve's exit status after SIGINT")


if __name__ == "__main__":
    unittest.main()
