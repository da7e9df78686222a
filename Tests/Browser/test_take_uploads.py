"""Takes recorded at home survive the network, the page and the server. A volunteer of a reading
service records with the browser's microphone (Chromium's fake capture of a known speech file)
while the test breaks things: the page goes offline for seconds in the middle of a take (Chromium's
own network emulation), the page is reloaded mid-take, the server is killed with SIGKILL mid-take
and started again. Recording goes on in the browser throughout; the upload line says what waits;
afterwards the committed chunk is one unbroken stretch of the capture file, sample for sample,
and as long as the microphone gave. Screenshots of the upload states at phone width (375 px) go
to NARRATE_SCREENSHOTS."""

import json
import os
import time
import unittest

from selenium.webdriver.common.by import By

from test_browser_microphone import continuous_match, samples
from test_service_studios import StudiosTestCase


class TakeUploadTests(StudiosTestCase):
    studio_name = "take-uploads"

    def open_studio(self, title):
        """A new article of five paragraphs assigned to vera, open in its studio with the browser's microphone."""
        text = "\n\n".join(f"Paragraph {n} of the story about {title.lower()}, read at home." for n in range(1, 6))
        self.current = self.desk_add(title, text, "2031-05-04")
        result = self.studio.narrate("desk", "assign", self.current, "vera")
        self.assertEqual(result.returncode, 0, result.stderr)
        page = self.signed_in_page("vera")
        page.driver.get(self.studio.base + "/?article=" + self.current)
        page.wait_js(f"return state.header && state.header.title === {json.dumps(title)} && state.microphone === 'browser' && uploads.ready",
                     "the article's studio with the browser's microphone", 20)
        return page

    def phone(self, page):
        page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 375, "height": 812, "deviceScaleFactor": 1, "mobile": True})

    def offline(self, page, offline):
        page.driver.execute_cdp_cmd("Network.enable", {})
        page.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    def take_seconds(self, page):
        return page.js("return uploads.capturing ? uploads.capturing.frames / uploads.capturing.sampleRate : null")

    def check_chunk(self, chunk, recorded, label):
        """The chunk lasts what the microphone gave and is one unbroken stretch of the capture file."""
        _, source = samples(self.speech)
        rate, audio = samples(chunk["file"])
        self.assertAlmostEqual(chunk["duration"], recorded, delta=0.3, msg=f"{label}: the chunk lasts {chunk['duration']:.3f} s, the microphone gave {recorded:.3f} s")
        lag, worst, windows = continuous_match(audio, source, rate)
        print(f"\n{label}: chunk {chunk['duration']:.3f} s, captured {recorded:.3f} s; the capture file's speech unbroken "
              f"(lag {lag}, worst difference {worst:.0f}, {windows} one-second windows)")

    def test_1_ten_seconds_offline_in_the_middle_of_a_take(self):
        page = self.open_studio("Ten seconds offline")
        self.phone(page)
        before = len(self.studio.chunks(self.current))
        page.click("record")
        page.wait_js("return uploads.capturing && uploads.capturing.server === 'receiving' && uploads.capturing.frames > 1.5 * 44100",
                     "1.5 s of a take on its way", 20)
        self.offline(page, True)
        page.wait_js("return !page.connected", "the page to notice the connection is gone", 20)
        page.wait_js("return /No connection to the server: [0-9]+ s of take 1 kept on this computer/.test(document.getElementById('upload-status').textContent)",
                     "the upload line to say the take is kept on this computer", 20)
        status = page.text("upload-status")
        self.assertIn("Keep recording, nothing is lost.", status)
        self.assertEqual(page.text("record"), "Stop")
        page.screenshot("upload-offline-375")
        at = self.take_seconds(page)
        time.sleep(10)
        self.assertGreater(self.take_seconds(page) - at, 9.5, "recording did not go on while the page was offline")
        self.assertEqual(len(self.studio.chunks(self.current)), before)
        self.offline(page, False)
        page.wait_js("return page.connected", "the page to reconnect", 30)
        page.screenshot("upload-catching-up-375")
        page.wait_js("return uploads.capturing && uploads.capturing.durable > uploads.capturing.frames - 0.5 * 44100",
                     "the upload to catch up", 30)
        page.click("record")
        page.wait_chunk_count(before + 1, 30)
        page.wait_js("return uploads.takes.size === 0 && document.getElementById('upload-status').textContent === 'All takes saved on the server.'",
                     "the upload line to say every take is on the server", 20)
        page.screenshot("upload-saved-375")
        chunk = self.studio.chunks(self.current)[-1]
        captured = page.js("return uploads.endedLengths")
        self.assertIsNotNone(captured, "the page did not note the take's length")
        self.check_chunk(chunk, captured[-1] / 44100, "10 s offline mid-take")
        self.assertGreater(chunk["duration"], 12)
        # No sideways scroll at phone width, and the line is on screen.
        self.assertLessEqual(page.js("return document.documentElement.scrollWidth"), 375)
        self.axe_check(page, "studio with the upload line")

    def test_2_a_reload_in_the_middle_of_a_take(self):
        page = self.open_studio("Reloaded mid-take")
        before = len(self.studio.chunks(self.current))
        page.click("record")
        page.wait_js("return uploads.capturing && uploads.capturing.frames > 2 * 44100", "2 s of a take", 20)
        # The page asks before it goes: a take is not wholly on the server.
        self.assertTrue(page.js("const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented"))
        page.js("window.onbeforeunload = null")
        captured = page.js("return uploads.capturing.frames")
        page.driver.execute_cdp_cmd("Page.reload", {"ignoreCache": True})
        page.wait_js("return typeof uploads !== 'undefined' && uploads.ready && page.connected", "the reloaded page", 30)
        page.wait_chunk_count(before + 1, 30)
        page.wait_js("return uploads.takes.size === 0", "the reloaded page to finish the take and forget it", 20)
        chunk = self.studio.chunks(self.current)[-1]
        # What was captured up to the reload, less at most what had not been stored yet (0.2 s)
        # and plus what was captured between reading the count and the reload.
        self.assertGreaterEqual(chunk["duration"], captured / 44100 - 0.25)
        self.check_chunk(chunk, chunk["duration"], "reload mid-take")
        self.assertLess(chunk["duration"], captured / 44100 + 1.0)

    def test_3_the_server_killed_and_started_again_in_the_middle_of_a_take(self):
        page = self.open_studio("Server killed mid-take")
        before = len(self.studio.chunks(self.current))
        page.click("record")
        page.wait_js("return uploads.capturing && uploads.capturing.durable > 2 * 44100", "2 s of a take on the server's disk", 20)
        port = self.studio.port
        self.studio.process.kill()
        self.studio.process.wait()
        page.wait_js("return !page.connected", "the page to notice the server went", 20)
        time.sleep(3)
        self.studio.start(listen=f"127.0.0.1:{port}", extra=self.serve_arguments())
        page.wait_js("return page.connected", "the page to reconnect to the restarted server", 40)
        page.wait_js("return uploads.capturing && uploads.capturing.server === 'receiving' && uploads.capturing.durable > uploads.capturing.frames - 44100",
                     "the take to go on uploading to the restarted server", 30)
        page.click("record")
        page.wait_chunk_count(before + 1, 30)
        page.wait_js("return uploads.takes.size === 0", "the page to forget the take once it is on the server", 20)
        chunk = self.studio.chunks(self.current)[-1]
        captured = page.js("return uploads.endedLengths")
        self.check_chunk(chunk, captured[-1] / 44100, "server killed mid-take")
        self.assertFalse(chunk.get("recovered"), "the take was committed as a recovered chunk, not finished by its page")


if __name__ == "__main__":
    unittest.main()
