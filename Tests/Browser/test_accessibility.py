"""axe-core (axe-selenium-python) on every screen of the studio: no violation of impact "serious"
or "critical". Every violation found, whatever its impact, is printed."""

import os
import unittest

from studio_fixture import StudioTestCase

TEXT = "# Storm closes the harbour\n\nThe harbour stayed closed on Monday.\n\nFerries resume on Wednesday.\n"


class AccessibilityTests(StudioTestCase):
    studio_name = "a11y"

    @classmethod
    def setUpStudio(cls):
        cls.page = cls.browser()
        cls.page.open(cls.studio)

    def test_every_screen(self):
        page = self.page
        failures = []

        def audit(screen):
            try:
                self.axe_check(page, screen)
            except AssertionError as error:
                failures.append(str(error))

        # 1. The new-article form (empty data root: the form is what the studio shows first).
        page.show_new_article_form()
        audit("new-article form")

        # 1b. The form with its refusal sentence.
        page.click("form-create")  # no title
        page.wait(lambda d: page.text("form-problem") != "", "the form's problem sentence")
        audit("new-article form with a problem")

        text = os.path.join(self.studio.folder, "storm.md")
        with open(text, "w") as f:
            f.write(TEXT)
        page.el("form-title").send_keys("Storm")
        page.el("form-text").send_keys(text)
        page.click("form-create")
        page.wait(lambda d: page.visible("record-section") and page.text("reading") != "", "the studio")

        # 2. The studio with no chunks yet.
        audit("studio, no chunks")

        # 3. Recording.
        page.click("record")
        page.wait_recording(1.0)
        audit("recording")
        page.click("record")
        page.wait_chunk_count(1)
        page.click("record")
        page.wait_recording(1.0)
        page.click("record")
        page.wait_chunk_count(2)
        page.wait_ready()

        # 4. The chunk list with chunks.
        audit("chunk list with chunks")

        # 5. Confirm delete.
        page.click("delete")
        page.wait(lambda d: page.visible("confirm-panel"), "the delete confirmation")
        audit("confirm delete")
        page.click("cancel-delete")
        page.wait(lambda d: not page.visible("confirm-panel"), "the confirmation to close")
        self.assertEqual(len(page.chunk_numbers()), 2)

        # 6. The question before queueing an article with a paragraph unread, then working (if it
        # can be caught), then the queued result.
        page.click("queue")
        page.wait(lambda d: page.visible("send-confirm"), "the question before queueing")
        audit("confirm send with a paragraph unread")
        page.click("confirm-send")
        seen = page.wait_js("return state.activity.kind === 'working' ? 'working' : state.panel.kind === 'result' ? 'result' : null",
                            "queueing to start", 60)
        if seen == "working":
            audit("working")
        else:
            print("\n(the export was done before the working state could be audited)")
        page.wait(lambda d: page.visible("result") and page.text("result-heading").startswith("Queued"), "the queued result", 60)
        audit("queued result")

        # 7. The outbox with the job, after the result is dismissed.
        page.click("next-article")
        page.wait(lambda d: not page.visible("result"), "the result to close")
        page.wait(lambda d: page.js("return document.querySelectorAll('#outbox > li').length") == 1, "the outbox's job")
        audit("outbox with a job (after the result)")

        # 8. A phone's screen (375 px) and 200 % zoom (1280 px at twice the size: 640 CSS px), on
        # the studio with chunks: nothing scrolls sideways, and Record stays 48 px or more.
        page.wait(lambda d: page.visible("article-section"), "the new-article form")
        page.el("form-title").send_keys("Narrow")
        page.click("form-create")
        page.wait(lambda d: page.visible("record-section"), "the studio")
        page.click("record")
        page.wait_recording(0.5)
        page.click("record")
        page.wait_chunk_count(1)
        for width, height, scale, screen in ((375, 800, 1, "a phone (375 px)"), (640, 500, 2, "200 % zoom")):
            page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": scale, "mobile": width < 400})
            page.wait_js("return window.innerWidth === %d" % width, "the narrow viewport")
            overflow = page.js("return document.documentElement.scrollWidth - window.innerWidth")
            self.assertLessEqual(overflow, 0, f"the page scrolls sideways by {overflow} px on {screen}")
            record = page.js("const r = document.getElementById('record').getBoundingClientRect(); return [r.width, r.height]")
            self.assertGreaterEqual(min(record), 48, f"the Record button on {screen}: {record}")
            audit(f"studio on {screen}")
        page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": False})

        self.assertFalse(failures, "\n\n".join(failures))


if __name__ == "__main__":
    unittest.main()
