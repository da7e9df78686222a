"""The booth flow on the emulated USB microphone, through the page: a new article from the form
with a Markdown text, three takes, playback from chunk 2 (the WAV's samples, a Range request, the
<audio> element), delete and undo, queue, and the exported file. Screenshots while recording,
while playing and with the queued result go to $NARRATE_SCREENSHOTS when it is set.

The steps run in order on one server and one browser; a step whose predecessor failed is skipped.
"""

import os
import unittest

from studio_fixture import SCREEN, StudioTestCase, ffprobe, png_size, wav_duration, wav_frames

TEXT = """# Budget passes after a long night

The council voted seven to two for next year's budget, after a debate that lasted until midnight.

The mayor thanked the volunteers who had counted the ballots and kept the hall open.

The budget takes effect in January; the first payments reach the schools in February.
"""
HEADING = "Budget passes after a long night"
PARAGRAPHS = [p for p in TEXT.split("\n\n")[1:]]
TITLE = "Budget passes"


class BoothFlowTests(StudioTestCase):
    studio_name = "booth"
    reached = 0  # the last step that passed

    @classmethod
    def setUpStudio(cls):
        cls.page = cls.browser()
        cls.page.open(cls.studio)

    def step(self, number):
        if self.reached < number - 1:
            self.skipTest(f"step {number - 1} did not pass")

    def passed(self, number):
        type(self).reached = number

    def chunk_files(self):
        """`narrate chunks --json`'s chunks, in order."""
        return self.studio.chunks()

    # ------------------------------------------------------------------------------------------

    def test_1_new_article_from_the_form(self):
        page = self.page
        page.show_new_article_form()
        self.assertEqual(page.el("form-publication").get_attribute("value"), "Daily Post",
                         "the form's publication comes from config.toml")
        self.assertEqual(page.el("form-narrator").get_attribute("value"), "Ann Reader",
                         "the form's narrator comes from config.toml")
        markdown = os.path.join(self.studio.folder, "budget.md")
        with open(markdown, "w") as f:
            f.write(TEXT)
        page.el("form-title").send_keys(TITLE)
        page.el("form-text").send_keys(markdown)
        page.click("form-create")
        page.wait(lambda d: page.visible("reading") and page.text("reading") != "", "#reading to show the text")
        self.assertEqual(page.text("title"), TITLE)
        # The text's first paragraph (the script numbers the heading as paragraph 1 of 4).
        reading = page.state()["reading"]
        self.assertEqual((reading["number"], reading["count"]), (1, 4), f"reading: {reading}")
        self.assertEqual(page.text("reading"), HEADING)
        self.assertIn(PARAGRAPHS[0].strip()[:30], page.text("next-reading"))
        self.assertEqual(page.chunk_numbers(), [])
        self.assertTrue(page.visible("chunks-empty"))
        articles = self.studio.narrate_json("list")
        self.assertEqual([(a["title"], a["publication"], a["narrator"]) for a in articles],
                         [(TITLE, "Daily Post", "Ann Reader")])
        self.passed(1)

    def test_2_three_takes(self):
        self.step(2)
        page = self.page
        for number in (1, 2):
            page.click("record")
            page.wait_recording(1.5)
            self.assertEqual(page.text("record"), "Stop")
            if number == 1:
                self.assertIn("a new chunk at the end", page.text("where"))
                path = page.screenshot("recording")
                if path:
                    self.assertEqual(png_size(path), SCREEN)
            page.click("record")
            page.wait_chunk_count(number)
            page.wait_ready()
            self.assertEqual(page.text("record"), "Record")
        # The third with the key r, twice, on the page itself.
        page.press("r")
        page.wait_recording(1.5)
        page.press("r")
        page.wait_chunk_count(3)
        page.wait_ready()
        self.assertEqual(page.chunk_numbers(), [1, 2, 3])
        chunks = self.chunk_files()
        self.assertEqual([c["index"] for c in chunks], [1, 2, 3])
        for c in chunks:
            self.assertGreaterEqual(c["duration"], 1.5, f"chunk {c['index']} is shorter than the take: {c}")
            self.assertLess(c["duration"], 4.0, f"chunk {c['index']} is much longer than the take: {c}")
            self.assertAlmostEqual(c["peakDBFS"], -12.04, delta=0.2, msg=f"the USB microphone's sine peaks at -12 dBFS: {c}")
            self.assertTrue(os.path.isfile(c["file"]), c["file"])
            self.assertAlmostEqual(wav_duration(c["file"]), c["duration"], delta=0.001)
        # Each take read the next paragraph: heading, then paragraphs 1 and 2.
        self.assertEqual([c["paragraph"] for c in page.state()["chunks"]], [1, 2, 3])
        self.assertEqual(page.state()["reading"]["number"], 4)
        self.assertEqual(page.text("reading"), PARAGRAPHS[2].strip())
        self.passed(2)

    def test_3_audio_from_chunk_2_is_chunks_2_and_3(self):
        self.step(3)
        page = self.page
        chunks = self.chunk_files()
        expected = b"".join(wav_frames(c["file"])[3] for c in chunks[1:])
        rate, channels, width, _ = wav_frames(chunks[0]["file"])
        status, headers, body = page.fetch("/audio?from=2")
        self.assertEqual(status, 200)
        self.assertEqual(headers.get("content-type"), "audio/wav")
        self.assertEqual(headers.get("accept-ranges"), "bytes")
        got_rate, got_channels, got_width, frames = wav_frames(body)
        self.assertEqual((got_rate, got_channels, got_width), (rate, channels, width))
        self.assertEqual(len(frames), len(expected), "/audio?from=2 has as many samples as chunks 2 and 3")
        self.assertTrue(frames == expected, "/audio?from=2's samples differ from chunks 2 and 3's concatenated")
        # A Range request: 206 and exactly those bytes.
        status, headers, part = page.fetch("/audio?from=2", {"Range": "bytes=1000-1999"})
        self.assertEqual(status, 206)
        self.assertEqual(headers.get("content-range"), f"bytes 1000-1999/{len(body)}")
        self.assertEqual(len(part), 1000)
        self.assertTrue(part == body[1000:2000], "the 206 answer's bytes are not bytes 1000-1999 of the whole")
        # Open-ended and suffix ranges (what <audio> sends), and one past the end.
        status, headers, part = page.fetch("/audio?from=2", {"Range": f"bytes={len(body) - 500}-"})
        self.assertEqual((status, headers.get("content-range")), (206, f"bytes {len(body) - 500}-{len(body) - 1}/{len(body)}"))
        self.assertTrue(part == body[-500:])
        status, headers, part = page.fetch("/audio?from=2", {"Range": "bytes=-100"})
        self.assertEqual(status, 206)
        self.assertTrue(part == body[-100:], "a suffix range gives the last bytes")
        status, headers, _ = page.fetch("/audio?from=2", {"Range": f"bytes={len(body)}-"})
        self.assertEqual((status, headers.get("content-range")), (416, f"bytes */{len(body)}"))
        # The whole article, and no chunk 4.
        status, _, whole = page.fetch("/audio")
        self.assertEqual(status, 200)
        self.assertEqual(wav_frames(whole)[3], b"".join(wav_frames(c["file"])[3] for c in chunks))
        status, headers, answer = page.fetch("/audio?from=4")
        self.assertEqual(status, 404)
        self.assertIn("error", __import__("json").loads(answer))
        self.passed(3)

    def test_4_the_player_plays_from_chunk_2(self):
        self.step(4)
        page = self.page
        page.driver.find_element("css selector", '#chunks > li[data-number="2"] button').click()
        page.wait_js("return state.selection === 1", "chunk 2 to be selected")
        page.click("play")
        page.wait_js("const a = document.getElementById('player'); return a.currentTime > 0.5 || a.error !== null",
                     "the <audio> to play past 0.5 s", 20)
        audio = page.js("const a = document.getElementById('player');"
                        "return {src: a.getAttribute('src'), error: a.error && a.error.code, paused: a.paused, time: a.currentTime}")
        self.assertIsNone(audio["error"], f"<audio> error: {audio}")
        self.assertTrue(audio["src"].startswith("/audio?from=2"), audio)
        self.assertGreater(audio["time"], 0.5)
        self.assertIn("in chunk 2", page.text("position"))
        path = page.screenshot("playing")
        if path:
            self.assertEqual(png_size(path), SCREEN)
        page.click("pause")
        page.wait_js("return document.getElementById('player').paused", "the player to pause")
        self.passed(4)

    def test_5_delete_and_undo(self):
        self.step(5)
        page = self.page
        before = [c["id"] for c in self.chunk_files()]
        page.wait_js("return state.selection === 1", "chunk 2 to be selected")
        page.click("delete")
        page.wait(lambda d: page.visible("confirm-panel"), "the delete confirmation")
        self.assertIn("Delete chunk 2", page.text("confirm-question"))
        page.click("confirm-delete")
        page.wait_chunk_count(2)
        self.assertEqual([c["id"] for c in self.chunk_files()], [before[0], before[2]])
        page.click("undo")
        page.wait_chunk_count(3)
        self.assertEqual([c["id"] for c in self.chunk_files()], before)
        self.assertEqual(page.chunk_numbers(), [1, 2, 3])
        self.passed(5)

    def test_6_queue(self):
        self.step(6)
        page = self.page
        chunks = self.chunk_files()
        total = sum(c["duration"] for c in chunks)
        page.click("queue")
        # The text's last paragraph is not read: the page asks, naming it, before queueing.
        page.wait(lambda d: page.visible("send-confirm"), "the question before queueing")
        self.assertEqual(page.text("send-unread"), "Paragraph 4 of 4 is not read: it goes out without it.")
        page.click("confirm-send")
        page.wait(lambda d: page.visible("result") and page.text("result-heading") != "", "the result panel", 60)
        heading = page.text("result-heading")
        self.assertTrue(heading.startswith("Queued"), f"result heading: {heading!r}")
        self.assertIn(TITLE, heading)
        path = page.screenshot("queued")
        if path:
            self.assertEqual(png_size(path), SCREEN)
        page.wait(lambda d: page.js("return document.querySelectorAll('#outbox > li').length") == 1,
                  "the page's outbox to list the job")
        listing = self.studio.narrate("outbox", "list", "--all")
        self.assertEqual(listing.returncode, 0, listing.stderr)
        self.assertIn(TITLE, listing.stdout)
        jobs = self.studio.narrate_json("outbox", "list", "--all")
        self.assertEqual(len(jobs), 1, jobs)
        self.assertEqual(jobs[0]["state"], "queued")
        exported = jobs[0]["file"]
        self.assertTrue(os.path.isfile(exported), exported)
        probe = ffprobe(exported)
        duration = float(probe["format"]["duration"])
        self.assertAlmostEqual(duration, total, delta=0.05,
                               msg=f"the export lasts {duration} s, the chunks {total} s")
        self.assertEqual(len(probe["chapters"]), 3, f"chapters: {probe['chapters']}")
        self.passed(6)

    def test_7_the_queued_results_advice_fits_a_studio_without_a_destination(self):
        """With no destination configured there is nothing to retry: the result does not offer
        Retry and the outbox shows no Retry button (test_outbox_retry has a destination)."""
        self.step(7)
        page = self.page
        self.assertEqual(page.text("result-remedy"), "It waits in the outbox until your reading service collects it or sets where files are sent.")
        page.wait(lambda d: page.js("return document.querySelectorAll('#outbox > li').length") >= 1, "the queued job in the outbox")
        self.assertEqual(page.js("return [...document.querySelectorAll('#outbox button.retry')].filter(b => !b.hidden).length"), 0)

    def test_8_state_fields_as_the_protocol_says(self):
        """Protocol.md: each chunk's levels are 0..40 values in -90..0."""
        self.step(3)
        for chunk in self.page.state()["chunks"]:
            levels = chunk["levels"]
            self.assertLessEqual(len(levels), 40, f"chunk {chunk['number']} has {len(levels)} levels (Protocol.md: 0..40)")
            self.assertTrue(all(-90 <= v <= 0 for v in levels), levels)

    def test_9_settings_are_shown(self):
        """The settings, read-only: the booth microphone and where recordings are kept."""
        rows = self.page.js("return [...document.querySelectorAll('#settings tr')].map(r => [...r.cells].map(c => c.textContent.trim()))")
        settings = {row[0]: row[1] for row in rows if len(row) == 2}
        self.assertEqual(settings.get("Booth microphone"), "usbmic", rows)
        self.assertEqual(settings.get("Recordings are kept in"), self.studio.home, rows)
        self.assertEqual(settings.get("Narrator"), "Ann Reader", rows)
        self.assertEqual(self.page.js("return document.querySelectorAll('#settings input, #settings select, #settings textarea').length"), 0)


if __name__ == "__main__":
    unittest.main()
