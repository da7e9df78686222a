"""Numbers from outside, against a real `narrate serve`: Range headers and `/audio?from=` over
HTTP, every numeric field of the page's WebSocket messages. Huge, negative, NaN, infinite, 1e300,
-0, 2^63-1, 2^64 and empty values: each is answered (a status, or an error message with a
sentence), the server stays up and answers a normal request afterwards, and every recording is
byte-identical. No browser is needed: the page's messages are sent as a page sends them."""

import base64
import glob
import hashlib
import json
import os
import socket
import struct
import unittest
import wave

from studio_fixture import Studio

HUGE = ["9223372036854775807", "18446744073709551616", "99999999999999999999", "-9223372036854775808",
        "-5", "-0", "1e300", "nan", "inf", "-inf", "", "0x10"]


class PageSocket:
    """A WebSocket to /live as the page opens it (the session cookie and the studio's Origin):
    masked text frames out, frames in."""

    def __init__(self, studio, cookie):
        self.socket = socket.create_connection((studio.host, studio.port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET /live HTTP/1.1\r\nHost: {studio.hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {studio.base}\r\nCookie: {cookie}\r\n\r\n")
        self.socket.sendall(request.encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            piece = self.socket.recv(4096)
            if not piece:
                raise AssertionError(f"the upgrade was closed: {answer!r}")
            answer += piece
        head, self.buffer = answer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise AssertionError(f"the upgrade was refused: {head!r}")

    def send(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        else:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        self.socket.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read(self, count):
        while len(self.buffer) < count:
            piece = self.socket.recv(65536)
            if not piece:
                raise ConnectionError("the server closed the WebSocket")
            self.buffer += piece
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def messages(self, seconds):
        """The text messages that arrive within `seconds`, parsed."""
        self.socket.settimeout(seconds)
        found = []
        try:
            while True:
                first, second = self._read(2)
                length = second & 0x7F
                if length == 126:
                    length = struct.unpack(">H", self._read(2))[0]
                elif length == 127:
                    length = struct.unpack(">Q", self._read(8))[0]
                payload = self._read(length)
                if first & 0x0F == 1:
                    found.append(json.loads(payload))
        except socket.timeout:
            pass
        return found

    def close(self):
        self.socket.close()


class NumbersFromOutsideTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.studio = Studio("numbers")
        made = cls.studio.narrate("new", "Numbers from outside")
        assert made.returncode == 0, made.stderr
        tone = os.path.join(cls.studio.folder, "tone.wav")
        with wave.open(tone, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(44100)
            w.writeframes(b"".join(struct.pack("<h", 3000 if (i // 50) % 2 else -3000) for i in range(44100)))
        for _ in range(2):
            imported = cls.studio.narrate("import", tone)
            assert imported.returncode == 0, imported.stderr
        cls.studio.start()
        cls.cookie = cls.studio.session_cookie()

    @classmethod
    def tearDownClass(cls):
        cls.studio.stop()
        cls.studio.remove()

    def recordings(self):
        def digest(path):
            with open(path, "rb") as f:
                return hashlib.sha256(f.read()).hexdigest()
        return {path: digest(path)
                for path in glob.glob(os.path.join(self.studio.home, "articles", "*", "chunks", "*.wav"))}

    def audio(self, query="", headers=None):
        return self.studio.request("GET", "/audio" + query, {"Cookie": self.cookie, **(headers or {})})

    def assertServes(self, what):
        self.assertIsNone(self.studio.process.poll(), f"after {what}: {self.studio.liveness()}")
        status, headers, body = self.audio()
        self.assertEqual(status, 200, f"a normal /audio after {what}")
        self.assertEqual(len(body), int(headers["content-length"]))
        self.assertEqual(len(body), 44 + 2 * 2 * 44100, "the article's two 1 s chunks as one WAV")

    def test_range_headers_and_from(self):
        before = self.recordings()
        size = 44 + 2 * 2 * 44100
        for value in HUGE:
            for header in (f"bytes=0-{value}", f"bytes={value}-", f"bytes=-{value}", f"bytes={value}-{value}"):
                status, headers, body = self.audio(headers={"Range": header})
                self.assertIn(status, (200, 206, 416), f"Range: {header}")
                if status == 206:
                    first, last = map(int, headers["content-range"].split(" ")[1].split("/")[0].split("-"))
                    self.assertTrue(0 <= first <= last < size, f"Range: {header} → {headers['content-range']}")
                    self.assertEqual(len(body), last - first + 1)
            status, _, _ = self.audio("?from=" + value)
            self.assertIn(status, (200, 404), f"/audio?from={value}")
        status, headers, _ = self.audio(headers={"Range": "bytes=0-9223372036854775807"})
        self.assertEqual((status, headers["content-range"]), (206, f"bytes 0-{size - 1}/{size}"))
        self.assertServes("the Range and from values")
        self.assertEqual(self.recordings(), before)

    def test_websocket_numbers(self):
        before = self.recordings()
        page = PageSocket(self.studio, self.cookie)
        page.messages(1)
        refused_times = 0
        for value in HUGE + ["1e308", "86400.5", "1.7976931348623157e308", "-1e-300", "NaN", "Infinity"]:
            literal = value if value else '""'
            if value not in ("-0",):  # -0 s is the start of the chunk: a punch there would record
                page.send(f'{{"type":"punch","chunk":1,"seconds":{literal}}}')
                refused_times += 1
            page.send(f'{{"type":"punch","chunk":{literal},"seconds":0.5}}')
            page.send(f'{{"type":"select","position":{literal}}}')
            page.send(f'{{"type":"punch","chunk":{literal},"seconds":{literal}}}')
        answers = page.messages(3)
        errors = [m["text"] for m in answers if m.get("type") == "error"]
        for text in errors:
            self.assertTrue(text.endswith("."), f"a sentence: {text!r}")
        self.assertTrue(any("is not a time in a chunk (0 to 86400 s)" in text for text in errors), errors[:5])
        self.assertGreaterEqual(len(errors), refused_times, "each punch at an impossible time is answered")
        self.assertIsNone(self.studio.process.poll(), self.studio.liveness())
        # A change of selection is answered with the new state: the socket still works.
        for position in (1, 0):
            page.send(f'{{"type":"select","position":{position}}}')
            self.assertTrue(page.messages(2), f"the page's socket still answers a select of position {position}")
        page.close()
        self.assertServes("the WebSocket numbers")
        self.assertEqual(self.recordings(), before)
        self.assertNotIn("Fatal error", self.studio.stderr())


if __name__ == "__main__":
    unittest.main()
