"""Punch-and-roll from the page: play chunk 1, pause inside it, "Fix a slip from here" plays the
seconds before the point in the browser, then the booth takes records over chunk 1 from there.
The new chunk 1 is the old one's audio up to the point, sample for sample, then the take."""

import json
import os
import unittest
import wave

from studio_fixture import StudioTestCase


def samples(path):
    with wave.open(path, "rb") as w:
        return w.readframes(w.getnframes())


class PunchTests(StudioTestCase):
    studio_name = "punch"

    @classmethod
    def setUpStudio(cls):
        cls.page = cls.browser()
        cls.page.open(cls.studio)

    def test_punch_from_the_paused_point(self):
        page, studio = self.page, self.studio
        cookie = studio.session_cookie()
        status, _, body = studio.request(
            "POST", "/api/articles", {"Cookie": cookie, "Origin": studio.base, "Content-Type": "application/json"},
            json.dumps({"title": "Slip"}).encode())
        self.assertEqual(status, 201, body)
        page.wait(lambda d: page.text("title") == "Slip", "the article to open")
        for count in (1, 2):
            page.press("r")
            page.wait_recording(2.5 if count == 1 else 1.0)
            page.press("r")
            page.wait_chunk_count(count)
        page.wait_ready()
        before = studio.chunks()
        old_file = before[0]["file"]
        old = samples(old_file)

        # Select chunk 1, play it, pause at about 1.5 s.
        page.driver.find_element("css selector", "#chunks li[data-number='1'] button").click()
        page.wait_js("return state.selection === 0", "chunk 1 to be selected")
        page.click("play")
        page.wait_js("return !document.getElementById('player').paused && document.getElementById('player').currentTime > 1.5",
                     "the player to pass 1.5 s", 20)
        page.click("pause")
        point = page.js("return document.getElementById('player').currentTime")
        self.assertLess(point, 2.4, "paused inside chunk 1")

        # What the page shows meanwhile: the pre-roll (not a take), its panel, Record not pressable.
        page.js("window.seen = []; window.seenTimer = setInterval(() => { const k = state.activity.kind + "
                "(document.getElementById('pre-roll').hidden ? '' : '+panel') + "
                "(document.getElementById('record').getAttribute('aria-disabled') === 'true' ? '+locked' : ''); "
                "if (seen[seen.length - 1] !== k) seen.push(k); }, 10)")
        page.click("punch")
        # Until the page has drawn the take (the panel gone, Record pressable as Stop), not just
        # until its state says recording: the drawing follows the state by one frame.
        page.wait_js("return window.seen.includes('recording')", "the punch's take to start after the pre-roll, with Stop pressable", 20)
        seen = page.js("clearInterval(window.seenTimer); return window.seen")
        self.assertIn("preRoll+panel+locked", seen, f"the pre-roll was shown with Record locked: {seen}")
        self.assertLess(seen.index("preRoll+panel+locked"), seen.index("recording"), seen)
        self.assertEqual(page.state()["activity"]["where"], "over chunk 1")
        page.wait_recording(1.0)
        page.click("record")  # Stop
        page.wait_ready()
        page.wait(lambda d: studio.chunks()[0]["file"] != old_file, "chunk 1 to be the punched file")

        after = studio.chunks()
        self.assertEqual(len(after), 2)
        self.assertEqual(after[1]["id"], before[1]["id"], "chunk 2 is untouched")
        new = samples(after[0]["file"])
        # The page sends the point to the millisecond; the join's 10 ms crossfade starts there.
        frame = int(round(round(point, 3) * 44100))
        kept = (frame - 441 - 10) * 2  # bytes of whole 16-bit frames safely before the crossfade
        self.assertEqual(new[:kept], old[:kept], "the chunk up to the point is the old audio sample for sample")
        self.assertGreater(len(new), frame * 2 + 44100 * 2 * 0.9, "the take (about 1 s) follows the point")
        self.assertRegex(page.text("status"), r"^Chunk 1 punched in at 00:00:0\d\.\d: now 00:00:0\d\.\d, peak -\d+\.\d dBFS\.$")

    def test_z_the_form_goes_back_to_the_open_article(self):
        """New article, then "Back to “Slip”": the same article and chunks, nothing made."""
        page, studio = self.page, self.studio
        page.wait(lambda d: page.text("title") == "Slip", "the article of the punch test")
        articles = studio.narrate_json("list")
        page.click("new-article")
        page.wait(lambda d: page.visible("article-section"), "the new-article form")
        page.wait(lambda d: page.visible("form-back"), "the form's way back")
        self.assertEqual(page.text("form-back"), "Back to “Slip”")
        page.click("form-back")
        page.wait(lambda d: page.visible("record-section") and page.text("title") == "Slip", "the article again")
        self.assertEqual(page.chunk_numbers(), [1, 2])
        self.assertEqual(studio.narrate_json("list"), articles)


if __name__ == "__main__":
    unittest.main()
