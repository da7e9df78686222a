"""The WebSocket /live takes messages up to the 1 MiB Protocol.md promises: a browser take of
100 ms blocks of 48 kHz stereo (19,200 bytes) and one block at the very limit are recorded byte for
byte; a message one block over the limit closes the connection with close code 1009 and a
sentence, and the server goes on."""

import json
import math
import struct
import unittest

import websocket  # websocket-client

from studio_fixture import StudioTestCase

LIMIT = 1 << 20


def tone(byte_count, start=0):
    """16-bit little-endian samples of a 440 Hz tone at 44.1 kHz, `byte_count` bytes."""
    count = byte_count // 2
    return struct.pack(f"<{count}h", *(int(8000 * math.sin(2 * math.pi * 440 * (start + i) / 44100)) for i in range(count)))


class LiveMessageTests(StudioTestCase):
    studio_name = "live-messages"

    @classmethod
    def setUpStudio(cls):
        cls.cookie = cls.studio.session_cookie()

    def live(self):
        connection = websocket.create_connection(
            f"ws://{self.studio.hostport}/live", header=[f"Cookie: {self.cookie}"], origin=self.studio.base, timeout=20)
        return connection

    def next_state(self, connection, condition, what, limit=400):
        for _ in range(limit):
            message = json.loads(connection.recv())
            if message.get("type") == "state" and condition(message["state"]):
                return message["state"]
        raise AssertionError(f"no state where {what} among {limit} messages")

    def close_frame(self, connection):
        """(code, reason) of the server's close frame; (None, None) when the connection just ended."""
        try:
            while True:
                opcode, data = connection.recv_data(control_frame=True)
                if opcode == websocket.ABNF.OPCODE_CLOSE:
                    return (struct.unpack(">H", data[:2])[0] if len(data) >= 2 else None), data[2:].decode()
        except (websocket.WebSocketConnectionClosedException, ConnectionResetError):
            return None, None

    def test_a_browser_take_of_19200_byte_blocks_and_one_block_at_the_limit_is_kept_byte_for_byte(self):
        status, _, body = self.studio.request(
            "POST", "/api/articles", {"Cookie": self.cookie, "Origin": self.studio.base, "Content-Type": "application/json"},
            json.dumps({"title": "Blocks"}).encode())
        self.assertEqual(status, 201, body)
        connection = self.live()
        try:
            state = self.next_state(connection, lambda s: s.get("header") and s["header"]["title"] == "Blocks", "the article is open")
            self.assertEqual(state["format"], {"sampleRate": 44100, "channels": 1})
            connection.send(json.dumps({"type": "microphone", "source": "browser"}))
            self.next_state(connection, lambda s: s["microphone"] == "browser", "the browser microphone is chosen")
            connection.send(json.dumps({"type": "key", "key": "r"}))
            self.next_state(connection, lambda s: s["activity"]["kind"] == "recording", "the take runs")
            sent = b""
            for _ in range(10):
                block = tone(19200, len(sent) // 2)
                connection.send_binary(block)
                sent += block
            block = tone(LIMIT, len(sent) // 2)
            self.assertEqual(len(block), LIMIT)
            connection.send_binary(block)
            sent += block
            self.next_state(connection, lambda s: s["activity"]["kind"] == "recording" and s["activity"]["seconds"] >= len(sent) / 2 / 44100 - 0.05,
                            "the take to hold every block", 2000)
            connection.send(json.dumps({"type": "key", "key": "r"}))
            self.next_state(connection, lambda s: s["activity"]["kind"] == "ready" and len(s["chunks"]) == 1, "the take is kept", 2000)
        finally:
            connection.close()
        chunk = self.studio.chunks()[0]
        import wave
        with wave.open(chunk["file"], "rb") as w:
            self.assertEqual((w.getframerate(), w.getnchannels(), w.getsampwidth()), (44100, 1, 2))
            kept = w.readframes(w.getnframes())
        self.assertEqual(len(kept), len(sent), "the chunk holds every byte sent, the 1 MiB block included")
        self.assertEqual(kept, sent, "the chunk is the sent audio byte for byte")

    def recordings(self):
        """Every chunk file of the data root, with its bytes."""
        import os
        found = {}
        for folder, _, files in os.walk(os.path.join(self.studio.home, "articles")):
            for name in files:
                if os.path.basename(folder) != "chunks" or not name.endswith(".wav"):
                    continue
                with open(os.path.join(folder, name), "rb") as f:
                    found[os.path.join(folder, name)] = f.read()
        return found

    def test_a_message_over_the_limit_closes_the_connection_with_a_sentence_and_the_server_goes_on(self):
        before = self.recordings()
        connection = self.live()
        try:
            self.next_state(connection, lambda s: True, "the first state")
            connection.send_binary(b"\0" * (LIMIT + 2))
            code, reason = self.close_frame(connection)
            self.assertEqual(code, 1009)
            self.assertEqual(reason, "The page sent a message over the 1 MiB limit: reload the page.")
        finally:
            connection.close()
        # A frame far over the limit is closed unread (1009 too, without a sentence).
        connection = self.live()
        try:
            self.next_state(connection, lambda s: True, "the first state")
            try:
                connection.send_binary(b"\0" * ((4 << 20) + 2))
            except (BrokenPipeError, ConnectionResetError, websocket.WebSocketConnectionClosedException):
                pass  # closed before it was all sent
            else:
                self.assertIn(self.close_frame(connection)[0], (1009, None))
        finally:
            connection.close()
        # The server goes on: a new page connects and gets its state.
        connection = self.live()
        try:
            self.next_state(connection, lambda s: True, "the state on a new connection")
        finally:
            connection.close()
        self.assertIsNone(self.studio.process.poll(), self.studio.liveness())
        self.assertEqual(self.recordings(), before, "a refused message changed a recording")


if __name__ == "__main__":
    unittest.main()
