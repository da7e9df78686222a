"""The browser's microphone (Chromium's fake capture device playing a known speech file): a take
lasts as long as it was recorded and carries that speech; a tab killed mid-take leaves its take
set aside on the server with what arrived, and the next page opened on the same browser profile
finds the rest in the browser's storage and finishes it: the chunk is the capture file's speech,
sample for sample, with nothing missing or repeated."""

import os
import time
import unittest

import numpy

from studio_fixture import Browser, StudioTestCase, speech_file, wav_frames


def samples(path_or_bytes):
    rate, channels, width, frames = wav_frames(path_or_bytes)
    assert width == 2, f"16-bit samples expected, got {width * 8}-bit"
    data = numpy.frombuffer(frames, dtype="<i2").astype(numpy.float64)
    if channels > 1:
        data = data.reshape(-1, channels).mean(axis=1)
    return rate, data


def best_correlation(recorded, source):
    """The highest normalized cross-correlation of `recorded` against the looped `source` over
    every lag (Chromium loops the fake capture file from an unknown point): (peak, lag)."""
    n = len(recorded)
    reference = numpy.concatenate([source] * (2 + n // len(source)))
    x = recorded - recorded.mean()
    size = 1 << int(numpy.ceil(numpy.log2(len(reference) + n)))
    products = numpy.fft.irfft(numpy.fft.rfft(reference, size) * numpy.conj(numpy.fft.rfft(x, size)), size)
    lags = len(reference) - n + 1
    products = products[:lags]
    # Each window of the reference: its sum and energy, for the normalization.
    cumulative = numpy.concatenate([[0.0], numpy.cumsum(reference)])
    cumulative2 = numpy.concatenate([[0.0], numpy.cumsum(reference * reference)])
    sums = cumulative[n:n + lags] - cumulative[:lags]
    energies = cumulative2[n:n + lags] - cumulative2[:lags] - sums * sums / n
    denominator = numpy.sqrt(numpy.maximum(energies, 1e-9) * numpy.dot(x, x))
    ncc = products / denominator
    lag = int(numpy.argmax(ncc))
    return float(ncc[lag]), lag


# Chromium's fake microphone plays its file in whole buffers and zero-fills the last one before
# it starts again ("Unfilled frames will be zeroed by CopyTo", media/audio/simple_sources.cc), so
# what it loops is the file and then up to one buffer less a frame of exact zeros. The buffer's
# length is the capture stream's and is not told to the page: these are the lengths it may take.
CAPTURE_BUFFER_FRAMES = (128, 256, 441, 480, 512, 882, 1024, 2048, 4096)


def looped_sources(source):
    """The loops Chromium may play of `source`: as it is, then with each possible zero fill."""
    fills = sorted({0} | {(-len(source)) % frames for frames in CAPTURE_BUFFER_FRAMES})
    return [numpy.concatenate([source, numpy.zeros(fill)]) for fill in fills]


def continuous_match(recorded, source, rate, window_seconds=1.0):
    """Checks that `recorded` is one unbroken stretch of the looped `source`: every sample sits at
    the lag the first window found, and none differs by more than 1 (the worklet's float-to-16-bit
    rounding). Returns (lag, worst difference, windows checked, the loop's zero fill); a lost or repeated piece moves
    the rest off its lag and fails. The audio worklet may begin with a few 128-frame quanta of
    digital silence before the microphone's first samples reach it: up to 0.1 s of exact zeros at
    the start are left out. The loop's zero fill (above) is tried at each possible length; the
    take must match one of them exactly."""
    start = 0
    while start < min(len(recorded), int(0.1 * rate)) and recorded[start] == 0:
        start += 1
    recorded = recorded[start:]
    first = recorded[:int(window_seconds * rate)]
    best = None
    for loop in looped_sources(source):
        peak, lag = best_correlation(first, loop)
        if peak <= 0.99:
            best = best if best is not None and best[0] >= peak else (peak, None)
            continue
        lag %= len(loop)
        reference = numpy.concatenate([loop] * (2 + len(recorded) // len(loop)))[lag:lag + len(recorded)]
        difference = numpy.abs(recorded - reference)
        worst = float(difference.max())
        if worst <= 1:
            return lag, worst, int(len(recorded) // (window_seconds * rate)), len(loop) - len(source)
        if best is None or best[1] is None or int(numpy.argmax(difference > 1)) > best[1][0]:
            best = (peak, (int(numpy.argmax(difference > 1)), worst, difference, loop, lag))
    peak, departure = best
    assert departure is not None, f"the take's first second is not the capture file's speech (correlation {peak:.3f})"
    at, worst, difference, loop, lag = departure
    shift = ""
    after = recorded[at:at + int(window_seconds * rate)]
    if len(after) > rate // 10:
        _, later = best_correlation(after, loop)
        moved = (later - (lag + at)) % len(loop)
        moved = moved - len(loop) if moved > len(loop) // 2 else moved
        shift = f"; after it the speech is {abs(moved)} samples {'further on (audio lost)' if moved > 0 else 'back (audio repeated)'}"
    bad = numpy.nonzero(difference > 1)[0]
    raise AssertionError(f"the take leaves the capture file's speech at sample {at + start} ({(at + start) / rate:.3f} s): "
                         f"differs by {worst:.0f}{shift}; {len(bad)} samples differ, the last at {(bad[-1] + start) / rate:.3f} s "
                         f"of {(len(recorded) + start) / rate:.3f} s")


class BrowserMicrophoneTests(StudioTestCase):
    studio_name = "browser-mic"

    @classmethod
    def setUpStudio(cls):
        cls.speech = speech_file()
        cls.page = cls.browser(fake_audio=cls.speech)
        cls.page.open(cls.studio)
        page = cls.page
        page.show_new_article_form()
        page.el("form-title").send_keys("Read on a laptop")
        page.click("form-create")
        page.wait(lambda d: page.visible("record-section"), "the studio")

    def choose_browser_microphone(self, page):
        page.click("mic-browser")
        page.wait_js("return state.microphone === 'browser'", "the studio to switch to the browser's microphone", 20)
        self.assertTrue(page.el("mic-browser").is_selected())

    def test_1_a_take_on_the_browser_microphone(self):
        page = self.page
        self.choose_browser_microphone(page)
        before = len(self.studio.chunks())
        page.click("record")
        started = time.monotonic()
        page.wait_recording(0.0)
        page.wait_js("return state.activity.kind === 'recording' && state.activity.seconds >= 3 "
                     "|| performance.now() - page.takeStartedAt > 3000", "three seconds of recording", 20)
        while time.monotonic() - started < 3.0:  # at least 3 s between the clicks, measured here
            time.sleep(0.02)
        page.click("record")
        stopped = time.monotonic()
        interval = stopped - started
        page.wait_chunk_count(before + 1, 20)
        page.wait_ready()
        chunks = self.studio.chunks()
        self.assertEqual(len(chunks), before + 1)
        chunk = chunks[-1]
        self.assertLess(abs(chunk["duration"] - interval), 0.5,
                        f"the chunk lasts {chunk['duration']:.3f} s, the take {interval:.3f} s between the clicks")
        _, source = samples(self.speech)
        rate, recorded = samples(chunk["file"])
        self.assertEqual(rate, 44100)
        self.assertGreater(numpy.abs(recorded).max(), 1000, "the take is silent")
        # The middle two seconds (the edges may hold the worklet's start and stop).
        middle = recorded[int(0.5 * rate):int(2.5 * rate)]
        peak, lag = best_correlation(middle, source)
        print(f"\nbrowser take: {chunk['duration']:.3f} s for {interval:.3f} s between the clicks; "
              f"correlation with the capture file {peak:.3f} at lag {lag}")
        self.assertGreaterEqual(peak, 0.6, f"the take does not carry the fake microphone's speech (peak {peak:.3f})")

    def test_2_a_killed_tab_keeps_the_take(self):
        page = self.page
        if page.state()["microphone"] != "browser":
            self.choose_browser_microphone(page)
        before = len(self.studio.chunks())
        page.click("record")
        started = time.monotonic()
        page.wait_recording(2.0, 20)
        time.sleep(0.5)
        killed_at = time.monotonic()
        self.assertGreater(page.kill_chromium(), 0, "no Chromium process found to kill")
        recorded = killed_at - started
        # The server sets the take aside with what arrived: no chunk yet, an upload waiting.
        time.sleep(2)
        self.assertEqual(len(self.studio.chunks()), before, "a chunk was made of half a take")
        # The next page on the same browser finds the take in the browser's storage and finishes it.
        fresh = self.browser(fake_audio=self.speech, profile=page.profile)
        fresh.open(self.studio)
        fresh.wait_chunk_count(before + 1, 30)
        fresh.wait_js("return uploads.takes.size === 0", "the browser to forget the take once it is on the server", 20)
        chunks = self.studio.chunks()
        self.assertEqual(len(chunks), before + 1)
        kept = chunks[-1]
        # What the microphone gave until the kill, less at most the piece not yet stored (0.2 s)
        # and the moment the kill took.
        self.assertGreaterEqual(kept["duration"], recorded - 0.6,
                                f"kept {kept['duration']:.3f} s of {recorded:.3f} s recorded before the kill")
        self.assertLessEqual(kept["duration"], recorded + 0.3)
        _, source = samples(self.speech)
        rate, audio = samples(kept["file"])
        lag, worst, windows, fill = continuous_match(audio, source, rate)
        status = fresh.text("upload-status")
        print(f"\nafter the killed tab: kept {kept['duration']:.3f} s of {recorded:.3f} s; one unbroken stretch of the "
              f"capture file (lag {lag}, worst difference {worst:.0f}, {windows} windows, the loop's zero fill {fill} frames); upload line {status!r}")
        self.assertEqual(status, "All takes saved on the server.")
        self.assertEqual(fresh.state()["activity"]["kind"], "ready")
        self.assertEqual(fresh.state()["uploads"], [])


if __name__ == "__main__":
    unittest.main()
