"""A command-line edit reaches an open page: with chunk 2 selected on the page, `narrate
delete-chunk 1` from a terminal; the page shows the new list within a few seconds with the same
chunk selected, and `x` then deletes that chunk (the one reading paragraph 2), never the chunk
after it. A key naming a chunk that is gone is refused with a sentence and deletes nothing."""

import json
import time
import unittest

from studio_fixture import StudioTestCase

TEXT = "# Council\n\nThe council met on Tuesday.\n\nIt voted on the budget.\n\nThe mayor thanked the volunteers.\n"


def file_bytes(path):
    with open(path, "rb") as f:
        return f.read()


class OutsideChangeTests(StudioTestCase):
    studio_name = "outside-change"

    @classmethod
    def setUpStudio(cls):
        cls.page = cls.browser()
        cls.page.open(cls.studio)

    def test_a_command_line_delete_reaches_the_page_and_x_deletes_the_intended_chunk(self):
        page, studio = self.page, self.studio
        status, _, body = studio.request(
            "POST", "/api/articles", {"Cookie": studio.session_cookie(), "Origin": studio.base, "Content-Type": "application/json"},
            json.dumps({"title": "Council", "textName": "council.md", "text": TEXT}).encode())
        self.assertEqual(status, 201, body)
        article = json.loads(body)["article"]
        page.wait(lambda d: page.text("title") == "Council", "the article to open")
        for count in (1, 2, 3):
            page.press("r")
            page.wait_recording(1.0)
            page.press("r")
            page.wait_chunk_count(count)
            page.wait_ready()
        before = studio.chunks(article)
        self.assertEqual([c["paragraph"] for c in before], [1, 2, 3])
        kept = {c["id"]: file_bytes(c["file"]) for c in before}
        ids = [c["id"] for c in before]
        self.assertEqual([c["id"] for c in page.state()["chunks"]], ids, "the page names the chunks by their ids")

        # The page shows chunk 2 (paragraph 2's) selected.
        page.driver.find_element("css selector", "#chunks li[data-number='2'] button").click()
        page.wait_js("return state.selection === 1", "chunk 2 to be selected")

        # From a terminal: delete chunk 1.
        started = time.monotonic()
        result = studio.narrate("delete-chunk", "1", "--article", article)
        self.assertEqual(result.returncode, 0, result.stderr)
        page.wait_chunk_count(2, timeout=5)
        seconds = time.monotonic() - started
        print(f"\nthe page showed the command line's delete after {seconds:.2f} s")
        state = page.state()
        self.assertEqual([c["id"] for c in state["chunks"]], ids[1:])
        self.assertEqual(state["selection"], 0, "the selection stays on the chunk it was on")
        self.assertEqual(state["notice"]["text"], "Another narrate command changed the chunks: the list shows them as they are now.")
        page.wait(lambda d: page.text("status") == state["notice"]["text"], "the status line to say what changed")
        page.screenshot("outside-change")

        # x, y: the selected chunk, paragraph 2's, goes; paragraph 3's stays.
        page.press("x")
        page.wait(lambda d: page.visible("confirm-panel"), "the delete confirmation")
        page.press("y")
        page.wait_chunk_count(1)
        after = studio.chunks(article)
        self.assertEqual([c["id"] for c in after], [ids[2]], "x deleted another chunk than the one the page showed selected")
        self.assertEqual(after[0]["paragraph"], 3)
        self.assertEqual(file_bytes(after[0]["file"]), kept[ids[2]], "the chunk left is paragraph 3's, byte for byte")

    def test_z_a_key_naming_a_chunk_that_is_gone_deletes_nothing(self):
        """The page's x raced a command-line delete: it names a chunk that is gone, so nothing is
        deleted and the page is told."""
        page, studio = self.page, self.studio
        article = page.state()["header"]["id"]
        earlier = [c["id"] for c in studio.chunks(article)]
        page.press("r")
        page.wait_recording(1.0)
        page.press("r")
        page.wait_chunk_count(2)
        page.wait_ready()
        chunks = studio.chunks(article)
        gone = next(c for c in chunks if c["id"] not in earlier)
        staying = next(c for c in chunks if c["id"] in earlier)
        staying_bytes = file_bytes(staying["file"])
        result = studio.narrate("delete-chunk", str(gone["index"]), "--article", article)
        self.assertEqual(result.returncode, 0, result.stderr)
        # The x the page sent before it heard of the delete (as its socket would carry it).
        page.js("socket.send(JSON.stringify({type: 'key', key: 'x', id: arguments[0]}))", gone["id"])
        page.wait_js("return state.notice && state.notice.text.startsWith('That chunk is no longer')", "the refusal", 5)
        self.assertEqual(page.state()["notice"]["text"],
                         "That chunk is no longer where the page showed it (another narrate command changed the article), "
                         "so nothing was done: the list shows the chunks as they are now.")
        self.assertEqual(page.state()["panel"]["kind"], "chunks", "no delete confirmation for a chunk that is gone")
        page.wait_chunk_count(1)
        after = studio.chunks(article)
        self.assertEqual([c["id"] for c in after], [staying["id"]])
        self.assertEqual(file_bytes(after[0]["file"]), staying_bytes)


if __name__ == "__main__":
    unittest.main()
