"""One article's whole life in a reading service, with four accounts, in Chromium: the
coordinator adds it on the desk page with a text and a deadline and assigns it; the volunteer
records one take at the booth (`narrate record --as`, the ALSA test microphone) and one in the
browser (Chromium's fake microphone) and sends it; the proof-listener, on the review page with
the keyboard, pins two notes and sends it back; the volunteer does both pickups by
punch-and-roll from the studio page's Pickups list; the proof-listener approves on the review
page; the admin looks in. The folder destination's feed holds the
article after approval and not before (checked at every step); the desk's state is checked at
each step, the pickups' done edits against the article's history, and the delivered file's
chapters. Screenshots of each role's page, and axe-core on the studio with pickups."""

import json
import os
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from studio_fixture import ffprobe, speech_file
from test_service import PASSPHRASE, ServiceTestCase

TITLE = "Harbour reopens"
PUBLICATION = "Daily Post"
TEXT = "Harbour reopens after the storm.\n\nThe ferries run again from Monday, and the fish market opens at six."
ALL_DONE = "All pickups are done: sent back to review."

CONFIG = """narrator = "Service"
publication = "Daily Post"
profile = "pod"
destination = "share"

[destinations.share]
url = "{folder}/share"

[profiles.pod]
base = "archive"
format = "mp3"
carries = ["audio", "feed"]
"""


class ProofListener:
    """What the proof-listener does, on the review page (`/review`) with the keyboard: the
    article opened from the list, the audio moved to the note's time (as the player's slider
    does), N for a note typed into its form, Send back and Approve each confirmed."""

    def __init__(self, case, browser, name, article):
        self.case, self.browser, self.name, self.article = case, browser, name, article

    def keys(self, keys):
        ActionChains(self.browser.driver).send_keys(keys).perform()

    def open(self):
        browser = self.browser
        browser.driver.get(self.case.studio.base + "/review")
        browser.wait_js(f"return !!document.querySelector('button[data-id=\"{self.article}\"]')", "the article in the review list")
        browser.driver.find_element(By.CSS_SELECTOR, f'button[data-id="{self.article}"]').send_keys(Keys.ENTER)
        browser.wait_js("return document.activeElement.id === 'article-heading' && document.getElementById('player').readyState >= 1",
                        "the article open on the review page, its audio loaded")

    def pin(self, paragraph, at, said, should_be):
        browser = self.browser
        pinned = browser.js("return state.open.notes.length")
        browser.js(f"document.getElementById('player').currentTime = {at}")
        browser.wait_js(f"return state.current === {paragraph}", f"paragraph {paragraph} heard at {at} s")
        self.keys("n")
        browser.wait_js("return document.activeElement.id === 'note-said'", "the note form, focus on “Said”")
        self.keys(said + Keys.TAB + should_be + Keys.ENTER)
        browser.wait_js(f"return state.open.notes.length === {pinned + 1}", f"the note at {at} s pinned")

    def confirm(self, button, said):
        browser = self.browser
        browser.el(button).send_keys(Keys.ENTER)
        browser.wait_js("return document.activeElement.id === 'confirm-yes'", "the confirmation, focused")
        self.keys(Keys.ENTER)
        browser.wait_js(f"return document.getElementById('status').textContent.startsWith({said!r})", f"“{said}…”", 60)

    def send_back(self):
        self.confirm("send-back", "Sent “")

    def approve(self):
        self.open()
        self.confirm("approve", "Approved “")


class ServiceLifeTests(ServiceTestCase):
    studio_name = "service-life"
    accounts = (("cora", "coordinator"), ("vol", "volunteer"), ("dora", "proof-listener"), ("ada", "admin"))
    config = CONFIG

    @classmethod
    def setUpStudio(cls):
        os.makedirs(os.path.join(cls.studio.folder, "share"))
        cls.accept_invitations()
        cls.speech = speech_file()

    # What the server holds

    def desk_state(self):
        return self.studio.narrate_json("desk", "show", self.article)["state"]

    def feed(self):
        path = os.path.join(self.studio.folder, "share", PUBLICATION, "feed.xml")
        if not os.path.exists(path):
            return None
        with open(path, encoding="utf-8") as f:
            return f.read()

    def assert_step(self, state, what):
        """The desk's state after `what`, and the feed without the article (it is not approved yet)."""
        self.assertEqual(self.desk_state(), state, f"after {what}")
        feed = self.feed()
        self.assertTrue(feed is None or TITLE not in feed, f"the feed holds the article after {what}, before approval:\n{feed}")

    def history(self):
        """The article's edit numbers, newest first."""
        return [edit["number"] for edit in self.studio.narrate_json("history", "--article", self.article)]

    # Browsers

    def signed_in(self, name, fake_audio=None):
        browser = self.browser(fake_audio=fake_audio)
        browser.driver.get(self.studio.base + "/signin")
        browser.wait_js("return document.activeElement && document.activeElement.id === 'signin-account'", "the name field")
        browser.el("signin-account").send_keys(name)
        browser.el("signin-passphrase").send_keys(PASSPHRASE)
        browser.click("signin-submit")
        browser.wait(lambda d: d.current_url.endswith("/home"), f"{name}'s home page after signing in")
        browser.wait_js("return document.getElementById('home-who').textContent !== ''", f"{name}'s home page")
        return browser

    def open_own_studio(self, browser, state_words):
        """From the volunteer's home page: the article in My articles, in `state_words`, and its studio."""
        browser.driver.get(self.studio.base + "/home")
        browser.wait_js("return !document.getElementById('my-articles').hidden && "
                        f"document.getElementById('my-articles').textContent.includes({json.dumps(state_words)})",
                        f"the article {state_words} on the home page")
        browser.driver.find_element(By.LINK_TEXT, f"Open “{TITLE}” in the studio").click()
        browser.wait(lambda d: d.current_url.endswith("/?article=" + self.article), "the article's studio")
        browser.wait_js(f"return state.header && state.header.title === {json.dumps(TITLE)} && state.microphone === 'browser'",
                        "the article in its studio with the browser's microphone", 20)
        browser.wait_js("return document.getElementById('mic-browser').checked", "the page to show the browser's microphone")

    def pickups(self, browser):
        status, _, body = browser.fetch(f"/api/pickups/{self.article}")
        self.assertEqual(status, 200, body)
        return json.loads(body)

    def do_pickup(self, page, number):
        """Activates pickup `number`'s button with the keyboard; its punch-and-roll plays the
        seconds before the point, records about a second on the fake microphone, and stops."""
        button = page.driver.find_element(By.CSS_SELECTOR, f"#pickups li[data-note='{number}'] .pickup-do")
        self.assertRegex(button.text, r"^Punch in at \d+(\.\d)? s in chunk \d$")
        button.send_keys("\n")
        page.wait_js("return state.activity.kind === 'recording'", f"pickup {number}'s punch to record after its pre-roll", 30)
        self.assertTrue(page.state()["activity"]["where"].startswith("over chunk"), page.describe())
        page.wait_recording(1.0, 20)
        page.click("record")  # Stop
        page.wait_ready(20)

    def test_one_articles_whole_life(self):
        # 1. The coordinator adds it on the desk page with a text and a deadline, and assigns it.
        cora = self.signed_in("cora")
        cora.screenshot("life-coordinator-home")
        cora.driver.get(self.studio.base + "/desk")
        cora.wait_js("return document.getElementById('caption').textContent !== ''", "the desk's table")
        cora.el("add-title").send_keys(TITLE)
        cora.el("add-publication").send_keys(PUBLICATION)
        cora.el("add-deadline").send_keys("2031-05-04T17:00")
        cora.el("add-text").send_keys(TEXT)
        cora.click("add-submit")
        cora.wait_js(f"return document.getElementById('status').textContent === {json.dumps(f'Added “{TITLE}” to the desk, Open.')}",
                     "the article added")
        listed = self.studio.narrate_json("desk", "list")
        self.assertEqual([entry["title"] for entry in listed], [TITLE])
        self.article = listed[0]["id"]
        self.assert_step("open", "adding")
        Select(cora.el("assign-to-" + self.article)).select_by_value("vol")
        cora.driver.find_element(By.CSS_SELECTOR, f'button[data-action="assign"][data-id="{self.article}"]').click()
        cora.wait_js(f"return document.getElementById('status').textContent === {json.dumps(f'Assigned “{TITLE}” to vol; it is Assigned.')}",
                     "the article assigned")
        self.assert_step("assigned", "assigning")
        self.assertEqual(self.studio.narrate_json("desk", "show", self.article)["deadline"], "2031-05-04T17:00")
        cora.screenshot("life-coordinator-desk")

        # 2. The volunteer's booth take: paragraph 1 on the ALSA test microphone, for their account.
        booth = self.studio.narrate("record", "--article", self.article, "--as", "vol", "--device", "usbmic", "--duration", "1.5")
        self.assertEqual(booth.returncode, 0, booth.stderr)
        self.assert_step("recording", "the booth take")
        # And one in the browser: paragraph 2 on Chromium's fake microphone.
        vol = self.signed_in("vol", fake_audio=self.speech)
        vol.screenshot("life-volunteer-home")
        self.open_own_studio(vol, "Recording")
        vol.wait_chunk_count(1, 20)
        vol.click("record")
        vol.wait_recording(1.8, 20)
        vol.click("record")
        vol.wait_chunk_count(2, 20)
        vol.wait_ready(20)
        chunks = self.studio.chunks(self.article)
        self.assertEqual([chunk["paragraph"] for chunk in chunks], [1, 2], chunks)
        hours = {row["account"]: row["takes"] for row in self.studio.narrate_json("hours", "--accounts")["rows"]}
        self.assertEqual(hours.get("vol"), 2, "the booth take and the browser take count for the volunteer")
        vol.press("s")
        # The page says "Sent … for review" until the take check's notice (which may come after) replaces it: the desk is what counts.
        vol.wait(lambda d: self.desk_state() == "ready-for-review", "the article sent for review", 20)
        self.assert_step("ready-for-review", "sending")

        # 3. The proof-listener pins two notes, one in each chunk, and sends it back.
        dora = self.signed_in("dora")
        listener = ProofListener(self, dora, "dora", self.article)
        listener.open()
        dora.screenshot("life-proof-listener-review")
        first = chunks[0]["duration"]
        listener.pin(1, 0.5, "storms", "storm")
        listener.pin(2, round(first + 0.7, 3), "Mondays", "Monday")
        listener.send_back()
        self.assert_step("pickups-requested", "sending back")
        # Only the volunteer (and coordinators, admins) may see the pickups.
        status, _, _ = dora.fetch(f"/api/pickups/{self.article}")
        self.assertEqual(status, 403)

        # 4. The volunteer does both pickups by punch-and-roll from the studio's Pickups list.
        self.open_own_studio(vol, "Pickups requested")
        vol.wait_js("return document.querySelectorAll('#pickups .pickup-do').length === 2 && "
                    "!document.getElementById('pickups-section').hidden", "the two pickups in the studio", 20)
        items = vol.js("return [...document.querySelectorAll('#pickups li')].map(li => li.innerText.replace(/\\s+/g, ' ').trim())")
        self.assertEqual(items[0], "Pickup 1: paragraph 1 at 0:00.5 Said “storms”, should be “storm”. (dora) Punch in at 0.5 s in chunk 1")
        self.assertRegex(items[1], r"^Pickup 2: paragraph 2 at 0:0\d\.\d Said “Mondays”, should be “Monday”\. \(dora\) Punch in at 0\.7 s in chunk 2$")
        listed = self.pickups(vol)
        self.assertEqual([(p["target"], p["done"]) for p in listed["pickups"]],
                         [({"chunk": 1, "seconds": 0.5}, False), ({"chunk": 2, "seconds": 0.7}, False)])
        self.axe_check(vol, "the studio with pickups")
        vol.js("window.scrollTo(0, 0)")
        vol.screenshot("life-volunteer-studio-pickups")
        # The pickups on a phone and at 200 % zoom: no sideways scroll, targets of 44 px and more.
        for width in (375, 640):
            vol.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                       {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width == 375})
            vol.wait_js("return document.querySelectorAll('#pickups .pickup-do').length === 2", f"the pickups at {width} px")
            self.assertLessEqual(vol.js("return document.documentElement.scrollWidth"), width, f"the studio scrolls sideways at {width} px")
            heights = vol.js("return [...document.querySelectorAll('#pickups button')].map(b => b.getBoundingClientRect().height)")
            self.assertTrue(heights and min(heights) >= 44, f"pickup buttons at {width} px: {heights}")
        vol.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

        self.do_pickup(vol, 1)
        vol.wait_js("return document.querySelectorAll('#pickups .pickup-do').length === 1", "pickup 1 marked done on the page", 20)
        punched_first = self.history()[0]
        self.assertIn(f"Done with edit {punched_first}.", vol.js("return document.querySelector(\"#pickups li[data-note='1']\").innerText"))
        self.assert_step("pickups-requested", "the first pickup")
        # Focus went on to the next pickup: Enter does it.
        self.assertEqual(vol.driver.switch_to.active_element.get_attribute("data-note"), "2")

        self.do_pickup(vol, 2)
        vol.wait_js(f"return document.getElementById('pickups-done').textContent === {json.dumps(ALL_DONE)}", "all pickups done on the page", 20)
        punched_second = self.history()[0]
        self.assertIn(f"Done with edit {punched_second}.", vol.js("return document.querySelector(\"#pickups li[data-note='2']\").innerText"))
        self.assert_step("ready-for-review", "the last pickup")
        notes = self.studio.narrate_json("review", "notes", "--article", self.article, "--as", "dora")
        self.assertEqual([(n["id"], n["state"], n["doneEdit"], n["doneBy"]) for n in notes],
                         [(1, "done", punched_first, "vol"), (2, "done", punched_second, "vol")])
        self.assertNotEqual(punched_first, punched_second)
        hours = {row["account"]: row for row in self.studio.narrate_json("hours", "--accounts")["rows"]}
        self.assertEqual((hours["vol"]["takes"], hours["vol"]["pickups"]), (2, 2))
        vol.screenshot("life-volunteer-studio-done")

        # 5. The proof-listener approves: now, and only now, the feed holds it.
        dora.screenshot("life-proof-listener-home")
        listener.approve()
        self.assertEqual(self.desk_state(), "published")
        feed = self.feed()
        self.assertIsNotNone(feed, "no feed after approval")
        self.assertIn(f"<title>{TITLE}</title>", feed)
        delivered = [os.path.join(root, name) for root, _, names in os.walk(os.path.join(self.studio.folder, "share"))
                     for name in names if name.endswith(".mp3")]
        self.assertEqual(len(delivered), 1, delivered)
        probe = ffprobe(delivered[0])
        self.assertEqual(len(probe["chapters"]), 2, f"one chapter a paragraph: {probe['chapters']}")

        # The admin looks in: the desk shows it Published; its pickups are there to read.
        ada = self.signed_in("ada")
        ada.screenshot("life-admin-home")
        ada.driver.get(self.studio.base + "/desk")
        ada.wait_js("return document.getElementById('caption').textContent !== ''", "the desk's table for the admin")
        self.assertIn("Published", ada.js("return document.getElementById('rows').innerText"))
        ada.screenshot("life-admin-desk")


if __name__ == "__main__":
    unittest.main()
