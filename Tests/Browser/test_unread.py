"""Sending an unfinished article from the page: "Send now" asks, names the paragraphs not read,
and its default, No, sends nothing; Skip takes a paragraph out of what is to be read.

The steps run in order on one server and one browser.
"""

import json
import os
import unittest

from selenium.webdriver.common.keys import Keys

from studio_fixture import DeliveringStudioTestCase

TEXT = "\n\n".join(f"Paragraph {n} of the harbour story, with a few words to read." for n in range(1, 11)) + "\n"


class UnreadTests(DeliveringStudioTestCase):
    studio_name = "unread"

    def recordings(self):
        """Every chunk file's bytes, by path: what a refusal must leave untouched."""
        articles = os.path.join(self.studio.home, "articles")
        files = {}
        for root, _, names in os.walk(articles):
            for name in names:
                if name.endswith(".wav") and "/chunks" in root:
                    with open(os.path.join(root, name), "rb") as f:
                        files[os.path.join(root, name)] = f.read()
        return files

    def test_1_send_now_asks_naming_the_unread_paragraphs_and_no_sends_nothing(self):
        page = self.page
        cookie = self.studio.session_cookie()
        status, _, body = self.studio.request(
            "POST", "/api/articles", {"Cookie": cookie, "Origin": self.studio.base, "Content-Type": "application/json"},
            json.dumps({"title": "Harbour story", "textName": "harbour.txt", "text": TEXT}).encode())
        self.assertEqual(status, 201, body)
        page.wait(lambda d: page.text("title") == "Harbour story", "the page to open the article")
        page.press("r")
        page.wait_recording(1.0)
        page.press("r")
        page.wait_chunk_count(1)
        # The take's check (a tone, no words) says its hint in the status line: wait for it, so
        # that it does not replace what the send's answer says there.
        page.wait(lambda d: "may need a listen" in page.text("status"), "the take check's hint", timeout=60)
        before = self.recordings()
        self.assertEqual(len(before), 1)

        page.click("submit")
        page.wait(lambda d: page.visible("send-confirm"), "the question before sending")
        self.assertEqual(page.text("send-question"), 'Send "Harbour story" now?')
        self.assertEqual(page.text("send-unread"), "Paragraphs 2\u201310 of 10 are not read: it goes out without them.")
        self.assertEqual(page.state()["panel"]["unreadNumbers"], list(range(2, 11)))
        # No is the default: focused, so Enter says it.
        self.assertEqual(page.js("return document.activeElement.id"), "cancel-send")
        page.screenshot("send-unfinished-question")
        page.driver.switch_to.active_element.send_keys(Keys.ENTER)  # Enter on the focused default
        page.wait(lambda d: not page.visible("send-confirm"), "the question to close")
        page.wait(lambda d: page.text("status") == "Nothing was sent.", "the page to say nothing was sent")
        self.assertEqual(self.delivered_files(), [])
        self.assertEqual(self.studio.narrate_json("outbox", "list", "--all"), [])
        self.assertEqual(self.recordings(), before)

    def test_2_skip_then_yes_sends_it_as_it_is(self):
        page = self.page
        page.wait(lambda d: page.text("reading-label").startswith("Paragraph 2 of 10"), "paragraph 2 in the reading pane")
        page.click("skip-paragraph")
        page.wait(lambda d: page.text("reading-label").startswith("Paragraph 3 of 10"), "the pane to go on to paragraph 3")
        states = [p["state"] for p in self.studio.narrate_json("script", "--article", page.state()["header"]["id"])]
        self.assertEqual(states[1], "skipped")
        page.click("submit")
        page.wait(lambda d: page.visible("send-confirm"), "the question before sending")
        self.assertEqual(page.text("send-unread"), "Paragraphs 3\u201310 of 10 are not read: it goes out without them.")
        page.click("confirm-send")
        page.wait(lambda d: page.visible("result") and page.text("result-heading") != "", "the submit result", 60)
        self.assertEqual(page.text("result-heading"), 'Submitted "Harbour story"')
        self.assertEqual(len([f for f in self.delivered_files() if f.endswith(".flac")]), 1, self.delivered_files())


if __name__ == "__main__":
    unittest.main()
