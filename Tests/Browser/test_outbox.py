"""Queue, the outbox's Retry and submit, through the page, to a folder destination: the file that
arrives there is the outbox's, byte for byte, and the page says where it went.

The steps run in order on one server and one browser.
"""

import hashlib
import json
import os
import time
import unittest

from studio_fixture import DeliveringStudioTestCase


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class OutboxTests(DeliveringStudioTestCase):
    studio_name = "outbox"

    def new_article(self, title):
        cookie = self.studio.session_cookie()
        status, _, body = self.studio.request(
            "POST", "/api/articles", {"Cookie": cookie, "Origin": self.studio.base, "Content-Type": "application/json"},
            json.dumps({"title": title, "text": None}).encode())
        self.assertEqual(status, 201, body)
        self.page.wait(lambda d: self.page.text("title") == title, f"the page to open {title!r}")

    def record_one_take(self):
        page = self.page
        count = len(page.chunk_numbers())
        page.press("r")
        page.wait_recording(1.0)
        page.press("r")
        page.wait_chunk_count(count + 1)

    def delivered_files(self):
        return super().delivered_files(sidecars=False)

    def test_1_queue_then_retry_delivers_the_outbox_file(self):
        page = self.page
        self.new_article("Harbour reopens")
        self.record_one_take()
        page.click("queue")
        page.wait(lambda d: page.visible("result") and page.text("result-heading").startswith("Queued"), "the queued result", 60)
        self.assertEqual(page.text("result-remedy"), "It waits in the outbox; press Send now there to send it.")
        jobs = self.studio.narrate_json("outbox", "list", "--all")
        self.assertEqual([j["state"] for j in jobs], ["queued"])
        retry = "#outbox > li[data-job='%s'] button.retry" % jobs[0]["id"]
        page.wait(lambda d: d.find_element("css selector", retry).is_displayed(), "the job's Send now button")
        # Never tried: it is sent, not retried.
        self.assertEqual(page.driver.find_element("css selector", retry).text, "Send now")
        self.assertEqual(page.driver.find_element("css selector", retry).get_attribute("aria-label"), "Send “Harbour reopens” now")
        self.assertEqual(self.delivered_files(), [])
        page.driver.find_element("css selector", retry).click()
        page.wait(lambda d: "delivered" in d.find_element("css selector", "#outbox > li[data-job='%s']" % jobs[0]["id"]).get_attribute("class"),
                  "the job to show as delivered", 60)
        jobs = self.studio.narrate_json("outbox", "list", "--all")
        self.assertEqual([j["state"] for j in jobs], ["delivered"])
        delivered = self.delivered_files()
        self.assertEqual(len(delivered), 1, delivered)
        self.assertEqual(sha256(delivered[0]), sha256(jobs[0]["file"]))
        self.assertFalse(page.driver.find_element("css selector", retry).is_displayed(), "Retry on a delivered job")

    def test_2_submit_sends_and_says_where(self):
        page = self.page
        page.click("next-article")
        self.new_article("Ferry timetable")
        self.record_one_take()
        page.click("submit")
        page.wait(lambda d: page.visible("result") and page.text("result-heading") != "", "the submit result", 60)
        self.assertEqual(page.text("result-heading"), 'Submitted "Ferry timetable"')
        lines = page.text("result")
        self.assertIn("Sent to", lines)
        self.assertIn(os.path.join(self.studio.folder, "delivered"), lines)
        self.assertEqual(len(self.delivered_files()), 2)


if __name__ == "__main__":
    unittest.main()
