"""The restarts the take check proposes to cut, in the web studio: an article with a text whose one
take (the booth's emulated microphone, `narrate record`) has a check proposing two cuts, kept in the
catalog as the take check keeps it (no speech recognition needed). In Chromium: both cuts listed
under their chunk with their sentences and four buttons each, and "Cut all" above the chunks;
"Listen as cut" plays the route's WAV of exactly the surroundings' frames less the cut; "Leave it"
takes one from the list for good (still gone after a reload, its audio then refused in one
sentence); "Cut it" makes the other (the chunk's length shown shrinks by exactly the cut, the file
is the take without it); Undo brings the take back byte for byte. Wrong or stale chunk and cut
numbers get a 4xx and one sentence."""

import json
import os
import sqlite3
import time
import unittest

from selenium.webdriver.common.by import By

from studio_fixture import Studio, StudioTestCase, wav_frames

TEXT = "# Harbour reopens\n\nThe harbour stayed closed for a week after the storm.\n\nThe ferries run again from Monday.\n"
CONTEXT = 2.5  # seconds heard either side of a cut


def clock(seconds):
    """The page's m:ss.s for a chunk's length (studio.js `clock`: tenths rounded down)."""
    tenths = int(seconds * 10 + 1e-9)
    return f"{tenths // 600}:{(tenths // 10) % 60:02d}.{tenths % 10}"


class CutsTests(StudioTestCase):
    studio_name = "cuts"

    @classmethod
    def setUpClass(cls):
        # The article, its take and the take's check are made before the server starts, which
        # then opens the article (the current one) with the cuts proposed.
        cls.browsers = []
        cls.studio = Studio(cls.studio_name)
        try:
            cls.prepare()
            cls.studio.start()
            cls.page = cls.browser()
            cls.page.studio = cls.studio
        except BaseException:
            try:
                cls.tearDownClass()
            except AssertionError:
                pass
            raise

    @classmethod
    def prepare(cls):
        studio = cls.studio
        text = os.path.join(studio.folder, "harbour.md")
        with open(text, "w") as f:
            f.write(TEXT)

        def run(*args):
            result = studio.narrate(*args, timeout=180)
            if result.returncode != 0:
                raise AssertionError(f"narrate {' '.join(args)} exited {result.returncode}: {result.stderr}")
            return result

        cls.article = studio.narrate_json("new", "Harbour reopens", "--text", text)["id"]
        run("record", "--article", cls.article, "--device", "usbmic", "--duration", "6")
        [take] = studio.chunks(cls.article)
        if take["paragraph"] != 1:
            raise AssertionError(f"the take does not read paragraph 1: {take}")
        cls.take = take
        cls.rate = take["sampleRate"]
        cls.frames = take["frames"]
        with open(take["file"], "rb") as f:
            cls.original = f.read()
        rate = cls.rate
        # Two restarts: "the harbour stayed" read twice from 1.0 to 1.5 s (to be left), and
        # "closed for" broken off with "sorry" from 3.0 to 3.75 s (to be cut).
        cls.cuts = [
            {"kind": "restart", "words": "the harbour stayed", "aside": "", "startFrame": rate, "endFrame": rate * 3 // 2, "start": 1.0, "end": 1.5},
            {"kind": "falseStart", "words": "closed for", "aside": "sorry", "startFrame": rate * 3, "endFrame": rate * 15 // 4, "start": 3.0, "end": 3.75},
        ]
        report = {"hints": [], "cuts": cls.cuts, "sentenceCues": [], "rate": {"words": 11, "speechSeconds": 5}, "recognised": True,
                  "unknownWords": []}
        # `narrate record` checks its take in the background: whichever check is written first,
        # this one stays (the catalog keeps a take's first check).
        with sqlite3.connect(cls.catalog(), timeout=30) as catalog:
            catalog.execute(
                'INSERT OR REPLACE INTO "takeCheck" ("chunkId", "report", "wordsPerMinute", "checkedAt", "dismissed", "dismissedCuts") '
                "VALUES (?, ?, 132, '2026-11-28 09:00:00.000', 0, '')", (take["id"], json.dumps(report)))
        time.sleep(0.5)
        with sqlite3.connect(cls.catalog(), timeout=30) as catalog:
            [(stored,)] = catalog.execute('SELECT "report" FROM "takeCheck" WHERE "chunkId" = ?', (take["id"],)).fetchall()
        if json.loads(stored)["cuts"] != cls.cuts:
            raise AssertionError(f"the take's check was not kept as written: {stored}")

    @classmethod
    def catalog(cls):
        return os.path.join(cls.studio.home, "catalog.sqlite")

    # Helpers

    def cut_items(self):
        """Each proposed cut under chunk 1: its sentence, its buttons' text and names."""
        return self.page.js("""return [...document.querySelectorAll('#chunks > li[data-number="1"] li.cut')].map(li => ({
            text: li.querySelector('.cut-text').textContent, cut: li.dataset.cut, id: li.dataset.id,
            buttons: [...li.querySelectorAll('button')].map(b => [b.textContent, b.getAttribute('aria-label')])}))""")

    def cut_button(self, cut, kind):
        return self.page.driver.find_element(By.CSS_SELECTOR, f'#chunks li.cut[data-cut="{cut}"] .{kind}')

    def wait_status(self, text, timeout=20):
        self.page.wait_js(f"return document.getElementById('status').textContent === {text!r}",
                          f"the status {text!r} (status {self.page.text('status')!r}, problem {self.page.text('problem')!r})", timeout)

    def wait_cuts(self, numbers, timeout=20):
        wanted = json.dumps(json.dumps(numbers, separators=(",", ":")))
        self.page.wait_js(f"return state.chunks.length === 1 && JSON.stringify((state.chunks[0].cuts || []).map(c => c.cut)) === {wanted}"
                          f" && document.querySelectorAll('#chunks li.cut').length === {len(numbers)}",
                          f"the cuts {numbers} listed", timeout)

    def expected_frames(self, cut, as_cut):
        """The frames of a cut's surroundings: CONTEXT either side within the take, less the cut as cut."""
        around = int(CONTEXT * self.rate)
        heard = min(self.frames, cut["endFrame"] + around) - max(0, cut["startFrame"] - around)
        return heard - (cut["endFrame"] - cut["startFrame"]) if as_cut else heard

    # The test, in order: listen, leave one, cut the other, undo

    def test_cuts_listened_to_left_cut_and_undone(self):
        page, studio = self.page, self.studio
        page.open(studio)
        page.wait(lambda d: page.text("title") == "Harbour reopens", "the article to open")
        self.wait_cuts([0, 1])
        chunk_id = self.take["id"]
        self.assertEqual(page.state()["chunks"][0]["id"], chunk_id)

        # Both cuts, with their sentences, under chunk 1; four buttons each, named after their cut.
        self.assertEqual(self.cut_items(), [
            {"text": "Proposed cut at 1.0 s: “the harbour stayed” read twice: cut 1.00–1.50 s", "cut": "0", "id": chunk_id,
             "buttons": [["Listen as read", "Listen as read: chunk 1 at 1.0 s"], ["Listen as cut", "Listen as cut: chunk 1 at 1.0 s"],
                         ["Cut it", "Cut it: chunk 1 at 1.0 s"], ["Leave it", "Leave it: chunk 1 at 1.0 s"]]},
            {"text": "Proposed cut at 3.0 s: “closed for” broken off and begun again (“sorry” between): cut 3.00–3.75 s", "cut": "1",
             "id": chunk_id,
             "buttons": [["Listen as read", "Listen as read: chunk 1 at 3.0 s"], ["Listen as cut", "Listen as cut: chunk 1 at 3.0 s"],
                         ["Cut it", "Cut it: chunk 1 at 3.0 s"], ["Leave it", "Leave it: chunk 1 at 3.0 s"]]},
        ])
        self.assertTrue(page.visible("cuts-bar"))
        self.assertEqual(page.text("cuts-summary"),
                         "The take check found 2 places where words were read again: listen to each, then cut it or leave it.")
        self.assertEqual(page.text("cut-all"), "Cut all")
        self.assertEqual(page.el("cut-all").get_attribute("aria-label"), "Cut all 2 restarts")
        self.axe_check(page, "the proposed cuts")
        length_before = page.js("return document.querySelector('#chunks > li[data-number=\"1\"] .chunk-length').textContent")
        self.assertEqual(length_before, clock(self.frames / self.rate))

        # Listen as cut: the page's player gets the route's WAV, exactly the surroundings less the cut.
        self.cut_button(1, "cut-listen-cut").click()
        self.wait_status("Playing chunk 1 at 3.0 s as it would be cut: 2.5 s before and after.")
        as_cut = self.expected_frames(self.cuts[1], True)
        page.wait_js("const a = document.getElementById('cut-player'); return isFinite(a.duration) && a.duration > 0",
                     "the cut's audio to load in the page's player")
        src = page.js("return document.getElementById('cut-player').getAttribute('src')")
        self.assertTrue(src.startswith(f"/api/cuts/{chunk_id}/1/audio?as=cut&v="), src)
        self.assertAlmostEqual(page.js("return document.getElementById('cut-player').duration"), as_cut / self.rate, delta=0.002)
        status, headers, body = page.fetch(src)
        self.assertEqual(status, 200)
        self.assertEqual(headers["content-type"], "audio/wav")
        self.assertEqual(len(body), 44 + 2 * as_cut)
        rate, channels, width, frames = wav_frames(body)
        self.assertEqual((rate, channels, width, len(frames) // 2), (self.rate, 1, 2, as_cut))
        # As read: the same surroundings with the restart in them, the take's own samples.
        status, _, read = page.fetch(f"/api/cuts/{chunk_id}/1/audio?as=read")
        self.assertEqual(status, 200)
        start = max(0, self.cuts[1]["startFrame"] - int(CONTEXT * self.rate))
        self.assertEqual(wav_frames(read)[3], wav_frames(self.original)[3][start * 2:(start + self.expected_frames(self.cuts[1], False)) * 2])
        self.wait_status("Heard chunk 1 at 3.0 s as it would be cut. Cut it, or leave it as it is.", timeout=30)

        # Wrong and stale numbers: one sentence each, nothing changed.
        for path, code, sentence in [
            (f"/api/cuts/{chunk_id}/7/audio?as=read", 404, "That cut was made or left already: reload the page."),
            ("/api/cuts/nosuchchunk/0/audio?as=read", 404, "That chunk is no longer in the article (it was deleted or replaced): reload the page."),
            (f"/api/cuts/{chunk_id}/-1/audio", 404, "The page named a cut no take has: reload the page."),
            (f"/api/cuts/{chunk_id}/0/audio?as=loud", 400, "A cut is heard \"as read\" or \"as cut\": reload the page."),
        ]:
            status, headers, body = page.fetch(path)
            self.assertEqual((status, json.loads(body)), (code, {"error": sentence}), path)

        # Leave it: the first cut goes from the list, for good; focus goes on to the next cut.
        self.cut_button(0, "cut-dismiss").click()
        self.wait_status("Chunk 1 is left as it is at 1.00 s: that cut is no longer proposed.")
        self.wait_cuts([1])
        self.assertEqual([item["text"] for item in self.cut_items()],
                         ["Proposed cut at 3.0 s: “closed for” broken off and begun again (“sorry” between): cut 3.00–3.75 s"])
        self.assertEqual(page.js("return document.activeElement.getAttribute('aria-label')"), "Listen as read: chunk 1 at 3.0 s")
        self.assertEqual(page.el("cut-all").get_attribute("aria-label"), "Cut all: the 1 restart")
        with sqlite3.connect(self.catalog(), timeout=30) as catalog:
            self.assertEqual(catalog.execute('SELECT "dismissedCuts" FROM "takeCheck" WHERE "chunkId" = ?', (chunk_id,)).fetchall(), [("0",)])
        with open(self.take["file"], "rb") as f:
            self.assertEqual(f.read(), self.original, "leaving a cut changes nothing in the take")
        status, _, body = page.fetch(f"/api/cuts/{chunk_id}/0/audio?as=read")
        self.assertEqual((status, json.loads(body)), (404, {"error": "That cut was made or left already: reload the page."}))
        page.driver.refresh()
        page.wait_js("return typeof state === 'object' && state !== EMPTY_STATE && state.chunks.length === 1", "the page again after a reload")
        self.wait_cuts([1])

        # Cut it: one edit; the chunk is shorter by exactly the cut, its length shown so.
        cut = self.cuts[1]
        cut_frames = cut["endFrame"] - cut["startFrame"]
        self.cut_button(1, "cut-accept").click()
        page.wait_js(f"return state.chunks.length === 1 && state.chunks[0].id !== {chunk_id!r}", "the take to be cut")
        after = (self.frames - cut_frames) / self.rate
        self.wait_status(f"Cut 0.75 s out of chunk 1 where words were read again; it is {after:.2f} s now. Press u to undo.")
        self.assertEqual(page.state()["chunks"][0]["duration"], round(after, 4))
        page.wait_js(f"return document.querySelector('#chunks > li[data-number=\"1\"] .chunk-length').textContent === {clock(after)!r}",
                     f"chunk 1's length shown as {clock(after)}")
        self.assertNotEqual(clock(after), length_before)
        [now] = studio.chunks(self.article)
        self.assertEqual(now["frames"], self.frames - cut_frames)
        self.assertFalse(page.visible("cuts-bar"))
        self.assertEqual(page.js("return document.querySelectorAll('#chunks li.cut').length"), 0)
        # The new take is the old one up to the cut and from its end, joined by a 10 ms crossfade:
        # sample for sample the same but for the 10 ms either side of the join.
        cut_samples = wav_frames(now["file"])[3]
        old_samples = wav_frames(self.original)[3]
        fade = self.rate // 100
        self.assertEqual(len(cut_samples), len(old_samples) - cut_frames * 2)
        self.assertEqual(cut_samples[:(cut["startFrame"] - fade) * 2], old_samples[:(cut["startFrame"] - fade) * 2])
        tail = (self.frames - cut["endFrame"] - fade) * 2
        self.assertEqual(cut_samples[-tail:], old_samples[-tail:])
        history = studio.narrate_json("history", "--article", self.article)
        edits = history["edits"] if isinstance(history, dict) else history
        self.assertEqual((edits[0]["kind"], edits[0]["summary"].split(" (")[0]), ("cut", "Cut 1 restart from chunk 1: 00:00:00.750 taken out"), edits)

        # Undo: the take comes back byte for byte, its length shown as before.
        page.click("undo")
        page.wait_js(f"return state.chunks.length === 1 && state.chunks[0].id === {chunk_id!r}", "the take back after Undo")
        self.assertTrue(page.text("status").startswith("Undone: Cut 1 restart from chunk 1: 00:00:00.750 taken out"), page.text("status"))
        page.wait_js(f"return document.querySelector('#chunks > li[data-number=\"1\"] .chunk-length').textContent === {length_before!r}",
                     f"chunk 1's length shown as {length_before} again")
        [back] = studio.chunks(self.article)
        self.assertEqual(back["frames"], self.frames)
        with open(back["file"], "rb") as f:
            self.assertEqual(f.read(), self.original, "undo brings the take back byte for byte")


if __name__ == "__main__":
    unittest.main()
