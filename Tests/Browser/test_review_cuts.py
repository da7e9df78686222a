"""The take check's cuts and flags on the proof-listener's review page (`/review`), in Chromium.
An article is put on the desk, recorded (`narrate record`, three takes), checked (`narrate script
--check`) and sent for review; then the second take's check is written in the catalog as the check
writes it when it hears a restart (words read twice, 0.2-0.5 s into the take) and an aside (not in
the text, at 0.6 s), so that the test needs no speech to be recognised. The proof-listener sees
the cut and the flag beside the notes, listens to the cut (its WAV route answers exactly the
take's bytes as read, and the cut's fewer as cut), and cuts it with the keyboard: the cut leaves
the list, the take is shorter by exactly the cut's frames, the edit is in the history and the
audit log. A volunteer's forged requests (the article's own volunteer's too) and a coordinator's
cut are refused with 403 and change nothing; the old take's cut is 404 afterwards. axe-core finds
nothing serious or critical with the cuts shown."""

import glob
import json
import os
import sqlite3
import struct
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_service import ServiceTestCase

ONLY_REVIEWERS = "Review is for proof-listeners (coordinators and admins may look): ask the service's coordinator if you should have it."
ONLY_PROOF_LISTENERS = "Only proof-listeners pin notes, cut takes, send articles back and approve them: coordinators and admins may look."
TAKE_GONE = ("That take is no longer in the article: it was cut, recorded again or deleted meanwhile. "
             "Reload the article to see what is left to decide.")
TEXT = "# Harbour reopens\n\nThe harbour stayed closed for a week.\n\nThe storm passed on Sunday.\n"


class ReviewCutsTests(ServiceTestCase):
    studio_name = "service-review-cuts"
    config = 'publication = "Daily Post"\nnarrator = "Service"\n'
    accounts = (("cora", "coordinator"), ("ann", "volunteer"), ("vic", "volunteer"), ("pat", "proof-listener"))

    @classmethod
    def setUpStudio(cls):
        cls.accept_invitations()
        text = os.path.join(cls.studio.folder, "harbour.md")
        with open(text, "w") as f:
            f.write(TEXT)

        def run(*args):
            result = cls.studio.narrate(*args, timeout=180)
            if result.returncode != 0:
                raise AssertionError(f"narrate {' '.join(args)} exited {result.returncode}: {result.stderr}")

        cls.article = cls.studio.narrate_json("desk", "add", "--title", "Harbour reopens", "--publication", "Daily Post", "--text", text)["id"]
        run("desk", "assign", cls.article, "ann")
        for seconds in ("0.8", "1.0", "1.2"):
            run("record", "--article", cls.article, "--device", "usbmic", "--duration", seconds)
        run("script", "--check", "--article", cls.article)
        run("desk", "send", cls.article, "--as", "ann")
        cls.takes = cls.studio.chunks(cls.article)
        if [t["paragraph"] for t in cls.takes] != [1, 2, 3]:
            raise AssertionError(f"the takes do not read paragraphs 1, 2 and 3: {cls.takes}")
        take = cls.takes[1]
        cls.rate = take["sampleRate"]
        cls.frame_bytes = take["channels"] * take["bitsPerSample"] // 8
        cls.cut_frames = round(0.5 * cls.rate) - round(0.2 * cls.rate)
        cls.write_checks()

    @classmethod
    def catalog(cls):
        catalogs = glob.glob(os.path.join(cls.studio.home, "**", "*.sqlite"), recursive=True)
        if len(catalogs) != 1:
            raise AssertionError(f"want one catalog, found {catalogs}")
        return catalogs[0]

    @classmethod
    def write_checks(cls):
        """Each take's check as the take check keeps it (waiting for the checks of `narrate
        record` to be written first): nothing found in the first and third; in the second a
        restart, "the storm" read twice from 0.2 to 0.5 s, and "oh no wait" heard at 0.6 s that
        is not in the text."""
        ids = [t["id"] for t in cls.takes]
        deadline = time.monotonic() + 120
        while True:
            with sqlite3.connect(cls.catalog(), timeout=30) as catalog:
                rows = dict(catalog.execute(
                    f'SELECT "chunkId", "report" FROM "takeCheck" WHERE "chunkId" IN ({",".join("?" * len(ids))})', ids).fetchall())
            if len(rows) == len(ids):
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"the takes' checks were not written: {sorted(rows)} of {ids}")
            time.sleep(0.5)
        for index, chunk in enumerate(ids):
            report = json.loads(rows[chunk])
            report["hints"], report["cuts"] = [], []
            if index == 1:
                report["hints"] = [{"kind": "notInText", "words": "oh no wait", "seconds": 0.6}]
                report["cuts"] = [{"kind": "restart", "words": "the storm", "aside": "",
                                   "startFrame": round(0.2 * cls.rate), "endFrame": round(0.5 * cls.rate), "start": 0.2, "end": 0.5}]
            with sqlite3.connect(cls.catalog(), timeout=30) as catalog:
                changed = catalog.execute('UPDATE "takeCheck" SET "report" = ?, "dismissed" = 0, "dismissedCuts" = \'\' WHERE "chunkId" = ?',
                                          (json.dumps(report), chunk)).rowcount
            if changed != 1:
                raise AssertionError(f"the check of take {chunk} was not rewritten")

    # What the command line says

    def frames(self):
        return [t["frames"] for t in self.studio.chunks(self.article)]

    def history(self):
        return self.studio.narrate_json("history", "--article", self.article)

    def audit(self):
        return self.studio.narrate_json("audit")

    def cut_path(self, chunk, action):
        return f"/api/review/{self.article}/cuts/{chunk}/0/{action}"

    # The page

    def open_article(self, browser):
        browser.driver.get(self.studio.base + "/review")
        browser.wait_js(f"return !!document.querySelector('button[data-id=\"{self.article}\"]')", "the article in the list")
        browser.driver.find_element(By.CSS_SELECTOR, f'button[data-id="{self.article}"]').send_keys(Keys.ENTER)
        browser.wait_js("return document.getElementById('article-heading').textContent === 'Harbour reopens' "
                        "&& document.activeElement.id === 'article-heading'", "the article open, its heading focused")
        browser.wait_js("return document.getElementById('player').readyState >= 1", "the article's audio to load")

    def findings(self, browser):
        """Each paragraph listed as the take check's: its number, and each cut's or flag's text and buttons' names."""
        return browser.js("""return [...document.querySelectorAll('#findings > li')].map(li => ({
            paragraph: li.dataset.paragraph, heading: li.querySelector('h4').textContent,
            items: [...li.querySelectorAll('.finding')].map(f => ({
                kind: f.classList.contains('cut') ? 'cut' : 'flag', text: f.querySelector('p').textContent,
                buttons: [...f.querySelectorAll('button')].map(b => b.textContent)}))}))""")

    def wait_status(self, browser, text, timeout=20):
        browser.wait_js(f"return document.getElementById('status').textContent === {text!r}",
                        f"the status {text!r} (status {browser.text('status')!r}, problem {browser.text('problem')!r})", timeout)

    # The tests

    def test_1_forged_and_wrong_requests_are_refused_and_change_nothing(self):
        chunk = self.takes[1]["id"]
        frames, history, audit = self.frames(), self.history(), len(self.audit())
        routes = [("GET", self.cut_path(chunk, "audio?as=read"), None), ("POST", self.cut_path(chunk, "accept"), {}),
                  ("POST", self.cut_path(chunk, "dismiss"), {})]
        for name in ("vic", "ann"):  # another volunteer, and the article's own
            status, cookie, _ = self.sign_in(name)
            self.assertEqual(status, 200)
            for method, path, body in routes:
                status, _, answer = self.call(method, path, body, cookie=cookie)
                self.assertEqual((status, answer), (403, {"error": ONLY_REVIEWERS}), f"{name}: {method} {path}")
        _, cookie, _ = self.sign_in("cora")
        for method, path, body in routes[1:]:
            status, _, answer = self.call(method, path, body, cookie=cookie)
            self.assertEqual((status, answer), (403, {"error": ONLY_PROOF_LISTENERS}), f"cora: {method} {path}")
        _, cookie, _ = self.sign_in("pat")
        status, _, answer = self.call("POST", f"/api/review/{self.article}/cuts/{chunk}/7/accept", {}, cookie=cookie)
        self.assertEqual((status, answer), (404, {"error": "Chunk 2 has no such cut left to decide: it was cut or left as it is meanwhile. "
                                                           "Reload the article to see what is left."}))
        self.assertEqual(self.frames(), frames)
        self.assertEqual(self.history(), history)
        self.assertEqual(len(self.audit()), audit)

    def test_2_the_proof_listener_sees_listens_and_cuts_by_keyboard(self):
        take = self.takes[1]
        before = self.frames()
        edits = len(self.history())
        browser = self.browser_sign_in("pat")
        self.open_article(browser)

        # Beside the notes: paragraph 2's cut and flag, each button named with its paragraph.
        self.assertTrue(browser.js("return !!document.querySelector('.side #notes') && !!document.querySelector('.side #findings-section')"))
        self.assertFalse(browser.visible("findings-empty"))
        start = self.takes[0]["frames"] / self.rate  # the second take starts after the first, 0.8 s
        self.assertAlmostEqual(start, 0.8, places=2)
        self.assertEqual(self.findings(browser), [{
            "paragraph": "2", "heading": "Paragraph 2",
            "items": [
                {"kind": "cut", "text": "Cut 1: Chunk 2, at 0.2 s: “the storm” read twice: cut 0.20–0.50 s",
                 "buttons": ["Listen as read, cut 1 of paragraph 2", "Listen as cut, cut 1 of paragraph 2",
                             "Cut it, cut 1 of paragraph 2", "Leave it, cut 1 of paragraph 2"]},
                {"kind": "flag", "text": "Flag 1: Chunk 2, at 0.6 s: not in the text: “oh no wait”",
                 "buttons": [f"Play from 0:0{start + 0.6:.1f}, flag 1 of paragraph 2"]},
            ]}])
        self.axe_check(browser, "review article with a cut and a flag")
        browser.js("document.getElementById('findings-section').scrollIntoView()")
        browser.screenshot("service-review-cuts-found")

        # Listening: the WAV routes answer the whole 1 s take as read, and without the cut as cut.
        base = f"/api/review/{self.article}/cuts/{take['id']}/0/audio"
        status, headers, read = browser.fetch(base + "?as=read")
        self.assertEqual((status, headers.get("content-type")), (200, "audio/wav"))
        self.assertEqual(len(read), 44 + take["frames"] * self.frame_bytes)
        with open(take["file"], "rb") as f:
            whole = f.read()
        self.assertEqual(read[44:], whole[-take["frames"] * self.frame_bytes:], "as read is the take's samples, byte for byte")
        self.assertEqual(struct.unpack("<I", read[24:28])[0], self.rate)
        status, _, cut = browser.fetch(base + "?as=cut")
        self.assertEqual((status, len(cut)), (200, 44 + (take["frames"] - self.cut_frames) * self.frame_bytes))

        # Listen as read, with the keyboard: the status says what plays, then that it was heard.
        button = browser.driver.find_element(By.CSS_SELECTOR, '#findings button[data-cut="read"]')
        button.send_keys(Keys.ENTER)
        self.assertEqual(browser.text("status"), "Playing cut 1 of paragraph 2 as it was read…")
        self.wait_status(browser, "Heard cut 1 of paragraph 2 as it was read.")
        self.assertEqual(browser.js("return document.getElementById('status').getAttribute('aria-live')"), "polite")

        # Cut it, with the keyboard: gone from the list, focus on the list's heading, the take shorter.
        browser.driver.find_element(By.CSS_SELECTOR, '#findings button[data-cut="accept"]').send_keys(Keys.ENTER)
        self.wait_status(browser, "Done: 0.30 s cut from chunk 2 (paragraph 2), where “the storm” was read twice. Its volunteer can undo it.")
        self.assertEqual(browser.js("return document.activeElement.id"), "findings-heading")
        self.assertEqual(browser.js("return document.querySelectorAll('#findings .finding.cut').length"), 0)
        self.assertEqual(self.findings(browser)[0]["items"],
                         [{"kind": "flag", "text": "Flag 1: Chunk 2, at 0.3 s: not in the text: “oh no wait”",
                           "buttons": [f"Play from 0:0{start + 0.3:.1f}, flag 1 of paragraph 2"]}])
        after = self.frames()
        self.assertEqual(after, [before[0], before[1] - self.cut_frames, before[2]])
        self.assertAlmostEqual(browser.js("return state.open.duration"), sum(after) / self.rate, places=3)
        browser.wait_js(f"return Math.abs(document.getElementById('player').duration - {sum(after) / self.rate}) < 0.01",
                        "the article's audio to load again, shorter")
        history = self.history()
        self.assertEqual(len(history), edits + 1)
        self.assertEqual(history[0]["kind"], "cut")
        self.assertTrue(history[0]["summary"].startswith("Cut 1 restart from chunk 2: "), history[0]["summary"])
        mine = [e for e in self.audit() if e.get("actor") == "pat"]
        self.assertEqual(mine[-1]["action"], "review-cut-accepted")
        self.assertEqual(mine[-1]["detail"], f"article {self.article}, chunk 2 (paragraph 2): at 0.2 s: “the storm” read twice: cut 0.20–0.50 s")

        # The old take's cut is gone with it: refused with the sentence, nothing changes.
        _, cookie, _ = self.sign_in("pat")
        status, _, answer = self.call("POST", self.cut_path(take["id"], "accept"), {}, cookie=cookie)
        self.assertEqual((status, answer), (404, {"error": TAKE_GONE}))
        self.assertEqual(self.frames(), after)
        browser.screenshot("service-review-cuts")


if __name__ == "__main__":
    import unittest
    unittest.main()
