"""Connections that never make a request cannot starve the server: 2,000 idle connections from
this machine (the attacker's 1,100 once spent a login's 1,024 descriptors) leave a real request
answered, a slowloris trickling its request head is closed, and `narrate serve` raised its
open-file limit to the hard limit."""

import base64
import os
import resource
import socket
import time
import unittest

from studio_fixture import StudioTestCase, Studio, _running


def open_files_limits(pid):
    """(soft, hard) "Max open files" of a process, from /proc."""
    with open(f"/proc/{pid}/limits") as f:
        for line in f:
            if line.startswith("Max open files"):
                soft, hard = line.split()[3:5]
                return int(soft), int(hard)
    raise AssertionError(f"/proc/{pid}/limits has no Max open files line")


def closed_by_peer(connection, timeout):
    """Whether the server closes `connection` within `timeout` seconds (EOF or reset)."""
    connection.settimeout(timeout)
    try:
        return connection.recv(1024) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def open_until_quiet(connection, seconds):
    """Whether `connection` is still open after reading all it is sent for `seconds`."""
    connection.settimeout(0.2)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if connection.recv(65536) == b"":
                return False
        except socket.timeout:
            pass
        except ConnectionResetError:
            return False
    return True


class ConnectionTests(StudioTestCase):
    studio_name = "connections"

    @classmethod
    def setUpClass(cls):
        # As a login starts it: a soft limit of 1,024 open files.
        cls.browsers = []
        cls.studio = Studio(cls.studio_name)
        try:
            cls.studio.start(open_files=1024)
            cls.cookie = cls.studio.session_cookie()
        except BaseException:
            cls.tearDownClass()
            raise
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < 4500:  # this test holds 2,000 connections and more
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))

    def connect(self):
        return socket.create_connection((self.studio.host, self.studio.port), timeout=10)

    def real_request(self):
        started = time.monotonic()
        status, _, body = self.studio.request("GET", "/", {"Cookie": self.cookie}, timeout=10)
        return status, body, time.monotonic() - started

    def test_the_server_raised_its_open_file_limit_to_the_hard_limit(self):
        soft, hard = open_files_limits(self.studio.process.pid)
        self.assertEqual(soft, hard, "narrate serve started with 1,024 and keeps it")
        self.assertGreater(soft, 1024)

    def test_2000_idle_connections_leave_a_real_request_answered(self):
        idle = []
        try:
            for _ in range(2000):
                idle.append(self.connect())
            status, body, seconds = self.real_request()
            self.assertEqual(status, 200, "the page with 2,000 idle connections open")
            self.assertIn(b"<html", body)
            self.assertLess(seconds, 5, "the real request took too long")
            print(f"\n2,000 idle connections: a real request answered in {seconds * 1000:.0f} ms")
            # None of them is kept beyond the 10 s a connection has to send its request head.
            started = time.monotonic()
            still_open = [c for c in idle if not closed_by_peer(c, max(0.01, 15 - (time.monotonic() - started)))]
            self.assertEqual(len(still_open), 0, f"{len(still_open)} idle connections were still open after 15 s")
            print(f"2,000 idle connections all closed by the server within {time.monotonic() - started:.1f} s")
        finally:
            for connection in idle:
                connection.close()
        self.assertEqual(self.real_request()[0], 200, "the server answers after the flood")
        self.assertIsNone(self.studio.process.poll(), self.studio.liveness())

    def open_page(self):
        """A page's WebSocket on /live: upgraded, with its first frame from the server read."""
        connection = self.connect()
        key = base64.b64encode(os.urandom(16)).decode()
        connection.sendall((f"GET /live HTTP/1.1\r\nHost: {self.studio.hostport}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                            f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\nOrigin: {self.studio.base}\r\n"
                            f"Cookie: {self.cookie}\r\n\r\n").encode())
        received = b""
        while b"\r\n\r\n" not in received or len(received.split(b"\r\n\r\n", 1)[1]) < 2:
            chunk = connection.recv(65536)
            self.assertNotEqual(chunk, b"", f"the upgrade was closed: {received[:200]!r}")
            received += chunk
        self.assertTrue(received.startswith(b"HTTP/1.1 101"), received[:100])
        return connection

    def test_40_pages_opened_at_once_from_one_address_all_stay_open(self):
        """Open pages say nothing after their upgrade: they are not quiet connections, so 40 of
        them opened within a second from one address (a reverse proxy's) close none of the others."""
        pages = []
        try:
            for _ in range(40):
                pages.append(self.open_page())
            closed = [n for n, page in enumerate(pages) if not open_until_quiet(page, 0.3)]
            self.assertEqual(closed, [], "pages closed by the pages opened after them")
        finally:
            for page in pages:
                page.close()

    def test_a_slowloris_request_head_is_closed(self):
        """A request head trickled a header line a second: closed within the 10 s deadline."""
        connection = self.connect()
        try:
            started = time.monotonic()
            connection.sendall(f"GET / HTTP/1.1\r\nHost: {self.studio.hostport}\r\n".encode())
            closed = False
            for n in range(30):
                if closed_by_peer(connection, 1):
                    closed = True
                    break
                try:
                    connection.sendall(f"X-Slow-{n}: {n}\r\n".encode())
                except (BrokenPipeError, ConnectionResetError):
                    closed = True
                    break
            seconds = time.monotonic() - started
            self.assertTrue(closed, "the slow request head was still open after 30 s")
            self.assertLess(seconds, 14, "closed, but long after the 10 s deadline")
            self.assertGreater(seconds, 8, "closed before its 10 s were up")
            print(f"\nslowloris head closed after {seconds:.1f} s")
        finally:
            connection.close()
        self.assertEqual(self.real_request()[0], 200)

    def test_a_connection_that_made_a_request_is_not_cut_at_10_s(self):
        """The deadline is for the first request head only: a keep-alive connection that has made
        a request may wait for the next one (Hummingbird closes it after 30 s)."""
        connection = self.connect()
        try:
            request = f"GET / HTTP/1.1\r\nHost: {self.studio.hostport}\r\nCookie: {self.cookie}\r\n\r\n".encode()
            connection.sendall(request)
            first = connection.recv(65536)
            self.assertTrue(first.startswith(b"HTTP/1.1 200"), first[:100])
            time.sleep(12)
            connection.sendall(request)
            connection.settimeout(10)
            second = b""
            while b"HTTP/1.1 200" not in second:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                second += chunk
            self.assertIn(b"HTTP/1.1 200", second, "the keep-alive connection was closed after 12 s")
        finally:
            connection.close()


if __name__ == "__main__":
    unittest.main()
