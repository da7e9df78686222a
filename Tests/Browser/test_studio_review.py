"""The web studio's way back and its review: the article list reopens an article; a fix's
pre-roll shows what plays and which paragraph is fixed, cannot be hijacked by Record (the server
refuses it: no chunk is added, every chunk file stays byte for byte) and is cancelled with one
button; flagged takes stay marked, with the hint's words and time, until dismissed.

Screenshots of the new states go to $NARRATE_SCREENSHOTS when it is set."""

import json
import os
import unittest

from studio_fixture import StudioTestCase

TEXT = (
    "# Harbour bridge\n\n"
    "The council voted on Tuesday to repair the old harbour bridge before the winter.\n\n"
    "Lorries will use the ring road until the work is done in the spring.\n"
)


class StudioReviewTests(StudioTestCase):
    studio_name = "review"

    @classmethod
    def setUpStudio(cls):
        cls.page = cls.browser()
        cls.page.open(cls.studio)

    def create(self, title, text=None):
        body = {"title": title, "publication": "Daily Post", "narrator": "Ann Reader"}
        if text is not None:
            body.update(textName="article.md", text=text)
        status, _, answer = self.studio.request(
            "POST", "/api/articles",
            {"Cookie": self.studio.session_cookie(), "Origin": self.studio.base, "Content-Type": "application/json"},
            json.dumps(body).encode())
        self.assertEqual(status, 201, answer)
        self.page.wait(lambda d: self.page.text("title") == title, f"“{title}” to open")
        return json.loads(answer)["article"]

    def files(self):
        """Every chunk of the open article: (id, bytes of its file)."""
        result = []
        for chunk in self.studio.chunks():
            with open(chunk["file"], "rb") as f:
                result.append((chunk["id"], f.read()))
        return result

    def test_1_flagged_takes_stay_marked_until_dismissed(self):
        page = self.page
        self.create("Harbour bridge", TEXT)
        for count in (1, 2):
            page.press("r")
            page.wait_recording(1.0)
            page.press("r")
            page.wait_chunk_count(count)
        page.wait_ready()
        # The check hears a tone, not the words: both takes are flagged, in their rows.
        page.wait_js("return state.chunks.length === 2 && state.chunks.every(c => (c.hints || []).length > 0)",
                     "the take check to flag both takes", 60)
        page.wait_js("return [...document.querySelectorAll('#chunks .chunk-flag')].every(e => e.textContent.startsWith('May need a listen: '))",
                     "the rows to show their marks")
        hint = page.state()["chunks"][0]["hints"][0]
        self.assertRegex(hint, r"at \d+\.\d s|possibly skipped")
        self.assertIn(hint, page.js("return document.querySelector('#chunks li[data-number=\"1\"] .chunk-flag').textContent"))
        # The pane is on paragraph 3; back on paragraph 1 the mark is there, with the hint's words and time.
        page.wait(lambda d: page.text("reading-label").startswith("Paragraph 3 of 3"), "the pane on paragraph 3")
        self.assertFalse(page.visible("reading-flags"))
        page.press("p")
        page.press("p")
        page.wait(lambda d: page.text("reading-label").startswith("Heading 1 of 3"), "the pane on the heading")
        page.wait(lambda d: page.visible("reading-flags"), "the heading's flagged take")
        self.assertEqual(page.js("return document.querySelector('#reading-flags .flag-text').textContent"),
                         f"Chunk 1 may need a listen: {hint}")
        page.screenshot("flagged-take")
        page.js("document.getElementById('chunks').scrollIntoView()")
        page.screenshot("flagged-rows")
        page.js("window.scrollTo(0, 0)")
        page.press("n")
        page.wait(lambda d: page.text("reading-label").startswith("Paragraph 2 of 3"), "the pane on paragraph 2")
        page.press("p")
        page.wait(lambda d: page.text("reading-label").startswith("Heading 1 of 3") and page.visible("reading-flags"),
                  "the mark again after moving away and back")
        # Dismissed: gone from the pane and the row, kept by the server (a reloaded page agrees); chunk 2 stays marked.
        page.driver.find_element("css selector", "#reading-flags button.dismiss").click()
        page.wait_js("return (state.chunks[0].hints || []).length === 0", "chunk 1's mark to be dismissed")
        page.wait(lambda d: not page.visible("reading-flags"), "the pane's mark to go")
        page.wait(lambda d: page.text("status") == "Chunk 1's hint is dismissed: it is no longer marked.", "the page to say so")
        page.driver.refresh()
        page.wait_js("return state.chunks.length === 2", "the page to reconnect")
        self.assertEqual(page.js("return state.chunks.map(c => (c.hints || []).length > 0)"), [False, True])
        rows = "return [...document.querySelectorAll('#chunks li')].map(li => li.classList.contains('flagged'))"
        page.wait(lambda d: page.js(rows) == [False, True], "the reloaded page's rows: chunk 1 unmarked, chunk 2 marked")

    def test_2_a_pre_roll_shows_its_state_and_refuses_record(self):
        page = self.page
        page.wait(lambda d: page.text("title") == "Harbour bridge", "the article of the first test")
        page.wait_ready()
        before = self.files()
        self.assertEqual(len(before), 2)
        # The page's own message, as "Fix a slip from here" sends it (a long lead: the test has time to act).
        page.js("send({type: 'preRoll', chunk: 2, seconds: 0.5, lead: 3})")
        page.wait_js("return state.activity.kind === 'preRoll'", "the pre-roll")
        page.wait(lambda d: page.visible("pre-roll"), "the pre-roll's panel")
        sentence = "Playing the 3 s before the slip in chunk 2, then read on from 00:00:00.5 into chunk 2."
        self.assertEqual(page.text("pre-roll-text"), sentence)
        self.assertEqual(page.text("status"), "Fixing a slip in chunk 2: listen.")
        self.assertEqual(page.el("pre-roll-text").get_attribute("aria-live"), "assertive")
        self.assertTrue(page.text("reading-label").startswith("Paragraph 2 of 3 · fixing a slip in it"), page.text("reading-label"))
        self.assertEqual(page.text("reading"), "The council voted on Tuesday to repair the old harbour bridge before the winter.")
        self.assertEqual(page.text("record"), "Record (the fix starts by itself)")
        self.assertEqual(page.el("record").get_attribute("aria-disabled"), "true")
        self.assertEqual(page.js("return document.activeElement.id"), "cancel-fix")
        page.screenshot("pre-roll")
        self.axe_check(page, "pre-roll")
        # Record, by key and by a raw message; re-record and a punch of another chunk: the server refuses them all.
        page.press("r")
        page.js("socket.send(JSON.stringify({type: 'key', key: 'r'}))")
        page.js("socket.send(JSON.stringify({type: 'key', key: 'e'}))")
        page.js("socket.send(JSON.stringify({type: 'punch', chunk: 1, seconds: 0.2}))")
        page.wait_js("return state.notice && state.notice.text.startsWith('A fix of chunk 2 is under way')", "the punch's refusal")
        page.js("socket.send(JSON.stringify({type: 'key', key: 'r'}))")
        page.wait_js("return state.notice && state.notice.text === "
                     "'Listen: the take starts by itself after the seconds before the slip. Esc cancels the fix.'", "record's refusal")
        self.assertEqual(page.state()["activity"]["kind"], "preRoll")
        self.assertEqual(self.files(), before, "no chunk added, every chunk file byte for byte")
        # The one way out: Cancel the fix (Esc).
        page.press("\ue00c")  # Escape
        page.wait_js("return state.activity.kind === 'ready'", "the fix to be cancelled")
        page.wait(lambda d: page.text("status") == "The fix is cancelled: chunk 2 is as it was.", "the page to say the fix is cancelled")
        self.assertFalse(page.visible("pre-roll"))
        self.assertEqual(page.text("record"), "Record")
        self.assertEqual(self.files(), before)

    def test_3_the_article_list_reopens_an_article(self):
        page = self.page
        first = page.state()["header"]["id"]
        self.create("Ferry timetable")
        articles = self.studio.narrate_json("list")
        self.assertEqual(len(articles), 2)
        page.click("show-articles")
        page.wait(lambda d: page.visible("articles-section"), "the article list")
        rows = page.js("return [...document.querySelectorAll('#articles li')].map(li => "
                       "[li.dataset.article, li.querySelector('.article-title').textContent, li.querySelector('.article-detail').textContent])")
        self.assertEqual([r[1] for r in rows], ["Ferry timetable (open now)", "Harbour bridge"])
        self.assertRegex(rows[1][2], r"^Daily Post · open · 2 of 3 paragraphs read · 0:0\d · changed .+")
        self.assertRegex(rows[0][2], r"^Daily Post · open · no text · 0:00 · changed .+")
        page.screenshot("article-list")
        self.axe_check(page, "article list")
        page.driver.find_element("css selector", f"#articles li[data-article='{first}'] button").click()
        page.wait(lambda d: page.text("title") == "Harbour bridge" and page.visible("record-section"), "the article reopened")
        self.assertEqual(page.chunk_numbers(), [1, 2])
        self.assertTrue(page.text("reading-label").startswith("Paragraph 3 of 3"))
        self.assertEqual(len(self.studio.narrate_json("list")), 2, "nothing was made")
        # The command line follows: the reopened article is the current one.
        self.assertEqual([a["id"] for a in self.studio.narrate_json("list") if a.get("current")], [first])


if __name__ == "__main__":
    unittest.main()
