"""The page's lossless piece encoder (/piece-codec.js) run in Chromium: speech at 44.1 and 48 kHz,
stereo, noise and silence encoded in 0.2 s pieces, sent back to Python and decoded by an
independent Python reading of the format (PieceCodec.swift's table), sample for sample; the
encoder's speed (ms per second of audio) and the ratio printed as figures.

Tests/Fixtures/piece-codec/speech-1s.nrc is what this encoder writes for the first second of the
speech file, beside its frames, channels and CRC-32 (speech-1s.json): the Swift tests decode it
and re-encode it byte for byte. Here Chromium encodes the fixture's samples again and must write
the same bytes. Missing, the fixture is made (and said so); NARRATE_WRITE_FIXTURES=1 remakes it.
"""

import base64
import json
import os
import random
import subprocess
import unittest
import zlib

from studio_fixture import REPO, StudioTestCase, process_folder, speech_file, wav_frames

FIXTURES = os.path.join(REPO, "Tests", "Fixtures", "piece-codec")
BLOCK_FRAMES = 4096
PARTITION_SAMPLES = 128


class PieceDamaged(Exception):
    """What the Python reading says of bytes that are not a payload."""


def decode_piece(payload, channels, frames):
    """PieceCodec's payload read independently of narrate: the interleaved samples, as ints."""
    bits = "".join(map("{:08b}".format, payload))
    at = 0

    def read(width):
        nonlocal at
        if at + width > len(bits):
            raise PieceDamaged("the bytes end before the last sample")
        value = int(bits[at:at + width], 2) if width else 0
        at += width
        return value

    def signed(value):
        return value - 0x10000 if value >= 0x8000 else value

    out = [0] * (frames * channels)
    for start in range(0, frames, BLOCK_FRAMES):
        count = min(BLOCK_FRAMES, frames - start)
        for channel in range(channels):
            kind = read(3)
            if kind == 5:
                x = [signed(read(16))] * count
            elif kind == 6:
                x = [signed(read(16)) for _ in range(count)]
            elif kind <= 4:
                if kind > count:
                    raise PieceDamaged(f"a predictor of order {kind} for {count} samples")
                x = [signed(read(16)) for _ in range(kind)]
                for partition in range(0, count, PARTITION_SAMPLES):
                    first, end = max(partition, kind), min(partition + PARTITION_SAMPLES, count)
                    if first >= end:
                        continue
                    k = read(5)
                    if k > 20:
                        raise PieceDamaged(f"a Rice parameter of {k}")
                    for _ in range(first, end):
                        one = bits.find("1", at)
                        if one < 0:
                            raise PieceDamaged("the bytes end before the last sample")
                        run, at = one - at, one + 1
                        z = (run << k) | read(k)
                        residual = (z >> 1) ^ -(z & 1)
                        if kind == 0:
                            prediction = 0
                        elif kind == 1:
                            prediction = x[-1]
                        elif kind == 2:
                            prediction = 2 * x[-1] - x[-2]
                        elif kind == 3:
                            prediction = 3 * x[-1] - 3 * x[-2] + x[-3]
                        else:
                            prediction = 4 * x[-1] - 6 * x[-2] + 4 * x[-3] - x[-4]
                        value = prediction + residual
                        if not -32768 <= value <= 32767:
                            raise PieceDamaged("a sample beyond 16 bits")
                        x.append(value)
            else:
                raise PieceDamaged(f"a block of unknown kind {kind}")
            out[start * channels + channel:(start + count) * channels:channels] = x
    if len(bits) - at >= 8 or "1" in bits[at:]:
        raise PieceDamaged("bytes after the last sample")
    return out


def samples_of(pcm):
    """Little-endian 16-bit PCM as a list of ints."""
    import array
    values = array.array("h")
    values.frombytes(pcm)
    return values.tolist()


def pcm_of(samples):
    import array
    return array.array("h", samples).tobytes()


class PieceCodecTests(StudioTestCase):
    studio_name = "piece-codec"

    @classmethod
    def setUpStudio(cls):
        cls.page = cls.browser()
        cls.page.open(cls.studio)
        # The page's own file, as the server serves it, loaded like the page's other scripts.
        cls.page.js("const s = document.createElement('script'); s.src = '/piece-codec.js'; document.head.append(s)")
        cls.page.wait_js("return typeof encodePiece === 'function'", "/piece-codec.js to load")

    def encode_in_page(self, pcm, channels, piece_frames, repeats=1):
        """Encodes `pcm` in Chromium in pieces of `piece_frames`: the payloads and the
        milliseconds it took (the fastest of `repeats` runs)."""
        result = self.page.driver.execute_script("""
            const [encoded, channels, pieceFrames, repeats] = arguments;
            const text = atob(encoded);
            const bytes = new Uint8Array(text.length);
            for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
            const samples = new Int16Array(bytes.buffer);
            let pieces = [];
            let fastest = Infinity;
            for (let r = 0; r < repeats; r++) {
              pieces = [];
              const started = performance.now();
              for (let at = 0; at < samples.length; at += pieceFrames * channels) {
                pieces.push(encodePiece(samples.subarray(at, at + pieceFrames * channels), channels));
              }
              fastest = Math.min(fastest, performance.now() - started);
            }
            const out = pieces.map((piece) => {
              let s = '';
              for (let i = 0; i < piece.length; i += 0x8000) s += String.fromCharCode.apply(null, piece.subarray(i, i + 0x8000));
              return btoa(s);
            });
            return {pieces: out, ms: fastest};
        """, base64.b64encode(pcm).decode(), channels, piece_frames, repeats)
        return [base64.b64decode(p) for p in result["pieces"]], result["ms"]

    def round_trip(self, name, pcm, channels, rate, repeats=1):
        """Encodes in the page, decodes here, compares; returns (ratio, ms per second of audio)."""
        samples = samples_of(pcm)
        pieces, ms = self.encode_in_page(pcm, channels, rate // 5, repeats)
        piece_samples = rate // 5 * channels
        self.assertEqual(len(pieces), -(-len(samples) // piece_samples), name)
        for index, piece in enumerate(pieces):
            expected = samples[index * piece_samples:(index + 1) * piece_samples]
            decoded = decode_piece(piece, channels, len(expected) // channels)
            self.assertEqual(decoded, expected, f"{name}: piece {index} differs from what was encoded")
        ratio = sum(map(len, pieces)) / len(pcm)
        seconds = len(samples) / channels / rate
        per_second = ms / seconds
        print(f"\nfigure: piece-codec.js in Chromium on {name}: {ratio:.3f} of its PCM "
              f"({ratio * 16 * rate * channels / 1000:.0f} kbit/s), {per_second:.2f} ms per second of audio")
        return ratio, per_second

    def speech(self, rate):
        if rate == 44100:
            _, channels, width, pcm = wav_frames(speech_file())
            self.assertEqual((channels, width), (1, 2))
            return pcm
        raw = os.path.join(process_folder(), f"speech-{rate}.raw")
        subprocess.run(["sox", speech_file(), "-r", str(rate), "-b", "16", "-e", "signed-integer", "-L", "-t", "raw", "-D", raw],
                       check=True, capture_output=True)
        with open(raw, "rb") as f:
            return f.read()

    def test_speech_at_44100_and_48000(self):
        ratio, per_second = self.round_trip("espeak-ng speech, 44.1 kHz mono", self.speech(44100), 1, 44100, repeats=5)
        self.assertLess(ratio, 0.5)
        ratio48, _ = self.round_trip("espeak-ng speech, 48 kHz mono", self.speech(48000), 1, 48000)
        self.assertLess(ratio48, 0.5)
        # 0.2 s pieces as they are captured: a generous bound, 50 ms per second of audio (5 %).
        self.assertLess(per_second, 50)

    def test_stereo_noise_and_silence(self):
        rng = random.Random(34)
        speech = samples_of(self.speech(44100))[:2 * 44100]
        stereo = [value for sample in speech for value in (sample, sample // 3 + rng.randint(-8, 8))]
        self.round_trip("speech and a quieter noisy copy, 44.1 kHz stereo", pcm_of(stereo), 2, 44100)
        noise = pcm_of([rng.randint(-32768, 32767) for _ in range(44100)])
        ratio, _ = self.round_trip("full-scale white noise", noise, 1, 44100)
        self.assertLessEqual(ratio, 1.001, "noise goes verbatim: 3 bits a block over its PCM")
        ratio, _ = self.round_trip("digital silence", bytes(2 * 44100), 1, 44100)
        self.assertLess(ratio, 0.001)
        ratio, _ = self.round_trip("one frame", pcm_of([-12345]), 1, 44100)
        self.assertEqual(ratio, 1.5, "a constant: 3 + 16 bits, padded to 3 bytes")

    def test_fixture_read_by_swift(self):
        payload_path = os.path.join(FIXTURES, "speech-1s.nrc")
        description_path = os.path.join(FIXTURES, "speech-1s.json")
        if os.environ.get("NARRATE_WRITE_FIXTURES") == "1" or not os.path.exists(payload_path):
            pcm = self.speech(44100)[:2 * 44100]
            pieces, _ = self.encode_in_page(pcm, 1, 44100)
            self.assertEqual(len(pieces), 1)
            os.makedirs(FIXTURES, exist_ok=True)
            with open(payload_path, "wb") as f:
                f.write(pieces[0])
            with open(description_path, "w") as f:
                json.dump({"frames": 44100, "channels": 1, "crc32": zlib.crc32(pcm)}, f)
                f.write("\n")
            print(f"\nwrote {payload_path} ({len(pieces[0])} bytes) and {description_path}")
        with open(payload_path, "rb") as f:
            payload = f.read()
        with open(description_path) as f:
            description = json.load(f)
        samples = decode_piece(payload, description["channels"], description["frames"])
        pcm = pcm_of(samples)
        self.assertEqual(zlib.crc32(pcm), description["crc32"], "the fixture's samples are those its description names")
        pieces, _ = self.encode_in_page(pcm, description["channels"], description["frames"])
        self.assertEqual(pieces, [payload], "Chromium writes the fixture's bytes for its samples")

    def test_served_like_the_page_s_other_scripts(self):
        status, headers, body = self.page.fetch("/piece-codec.js")
        self.assertEqual(status, 200)
        self.assertEqual((headers.get("content-type"), headers.get("cache-control"), headers.get("x-content-type-options")),
                         ("text/javascript; charset=utf-8", "no-store", "nosniff"))
        with open(os.path.join(REPO, "Sources", "WebStudio", "Page", "piece-codec.js"), "rb") as f:
            self.assertEqual(body, f.read())
        status, _, _ = self.studio.request("GET", "/piece-codec.js")
        self.assertEqual(status, 401, "GET /piece-codec.js without the page's cookie")

    def test_damaged_payloads_refused_by_the_python_reading(self):
        # The Python reading is a check of the format, so it must refuse as the Swift decoder does.
        pieces, _ = self.encode_in_page(self.speech(44100)[:2 * 8820], 1, 8820)
        payload = pieces[0]
        with self.assertRaises(PieceDamaged):
            decode_piece(payload[:-1], 1, 8820)
        with self.assertRaises(PieceDamaged):
            decode_piece(payload + b"\0", 1, 8820)
        with self.assertRaisesRegex(PieceDamaged, "unknown kind 7"):
            decode_piece(b"\xe0", 1, 1)


if __name__ == "__main__":
    unittest.main()
