"""A reading service's studios, one per article: two volunteers record their own articles at once
with the browser's microphone, and neither page ever receives the other's title, text or state;
a volunteer asking for someone else's article is refused and gets nothing; the first take moves
the article to Recording and counts towards its volunteer's hours; Send with review on (the
default) makes it Ready for review and delivers nothing. The volunteer's home page lists their
articles and the open ones, and claims one."""

import json
import os
import time
import unittest

from selenium.webdriver.common.by import By

from studio_fixture import speech_file
from test_service import PASSPHRASE, ServiceTestCase

NOT_YOURS = "This article is not one of yours: open your articles from your home page."
NO_LONGER_YOURS = "This article is no longer yours (the coordinator changed it): open your articles from your home page."
# Every text frame the page's WebSockets receive, kept before the page's own script runs.
RECORD_FRAMES = """
window.receivedFrames = [];
const OriginalWebSocket = window.WebSocket;
window.WebSocket = function (...args) {
  const socket = new OriginalWebSocket(...args);
  socket.addEventListener("message", (event) => { if (typeof event.data === "string") window.receivedFrames.push(event.data); });
  socket.addEventListener("close", (event) => { window.closedWith = {code: event.code, reason: event.reason}; });
  return socket;
};
window.WebSocket.prototype = OriginalWebSocket.prototype;
Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
"""

ARTICLES = {
    "vera": ("Budget vote in the council", "The council voted on the budget for the coming year late on Tuesday."),
    "vic": ("Harbour lights restored", "The old harbour lights shine again after a winter of repairs."),
}


class StudiosTestCase(ServiceTestCase):
    """A reading service whose desk has vera's and vic's articles assigned, and one open."""

    accounts = (("vera", "volunteer"), ("vic", "volunteer"), ("cora", "coordinator"))
    config = 'publication = "Daily News"\nnarrator = "Service"\ndestination = "{folder}/delivered"\n'

    @classmethod
    def setUpStudio(cls):
        os.makedirs(os.path.join(cls.studio.folder, "delivered"))
        cls.accept_invitations()
        cls.article = {}
        for name, (title, text) in ARTICLES.items():
            cls.article[name] = cls.desk_add(title, text, "2031-05-04")
            result = cls.studio.narrate("desk", "assign", cls.article[name], name)
            if result.returncode != 0:
                raise AssertionError(f"narrate desk assign exited {result.returncode}: {result.stderr}")
        cls.open_article = cls.desk_add("Shop flyer for the week", "Apples are cheap this week.", "2031-05-06")
        cls.speech = speech_file()

    @classmethod
    def desk_add(cls, title, text, deadline):
        path = os.path.join(cls.studio.folder, title.replace(" ", "-") + ".txt")
        with open(path, "w") as f:
            f.write(text + "\n")
        return cls.studio.narrate_json("desk", "add", "--title", title, "--text", path, "--deadline", deadline)["id"]

    def desk_state(self, article):
        return self.studio.narrate_json("desk", "show", article)["state"]

    def signed_in_page(self, name):
        """A browser with the fake microphone, signed in as `name`, recording every WebSocket frame."""
        browser = self.browser(fake_audio=self.speech)
        browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_FRAMES})
        browser.driver.get(self.studio.base + "/signin")
        browser.wait_js("return document.activeElement && document.activeElement.id === 'signin-account'", "the name field")
        browser.el("signin-account").send_keys(name)
        browser.el("signin-passphrase").send_keys(PASSPHRASE)
        browser.click("signin-submit")
        browser.wait(lambda d: d.current_url.endswith("/home"), "the home page after signing in")
        browser.wait_js("return !document.getElementById('my-articles').hidden", "the home page's articles")
        return browser

    def frames(self, browser):
        return "\n".join(browser.js("return window.receivedFrames || []"))


class ArticleStudiosTests(StudiosTestCase):
    studio_name = "service-studios"

    def test_1_two_volunteers_record_their_own_articles_and_hear_nothing_of_the_other(self):
        pages = {name: self.signed_in_page(name) for name in ARTICLES}
        for name, page in pages.items():
            title = ARTICLES[name][0]
            self.assertIn(title, page.text("my-articles"))
            self.assertIn("Assigned. Deadline 2031-05-04.", page.text("my-articles"))
            page.driver.find_element(By.LINK_TEXT, f"Open “{title}” in the studio").click()
            page.wait(lambda d: d.current_url.endswith("/?article=" + self.article[name]), "the article's studio")
            page.wait_js(f"return state.header && state.header.title === {json.dumps(title)} && state.microphone === 'browser'",
                         f"{name}'s article in a studio with the browser's microphone", 20)
            # The page draws its state on the next frame: wait for the choice to show.
            page.wait_js("return document.getElementById('mic-browser').checked", f"{name}'s page to show the browser's microphone chosen")
        self.assertNotIn("Booth microphone", self.frames(pages["vera"]), "the server's settings were shown to a volunteer")
        before = {name: self.studio.chunks(self.article[name]) for name in ARTICLES}
        self.assertEqual(before, {"vera": [], "vic": []})
        for page in pages.values():
            page.click("record")
        for page in pages.values():
            page.wait_recording(1.5, 20)
        for page in pages.values():
            page.click("record")
        for name, page in pages.items():
            page.wait_chunk_count(1, 20)
            page.wait_ready(20)
        for name in ARTICLES:
            chunks = self.studio.chunks(self.article[name])
            self.assertEqual(len(chunks), 1, f"{name}'s article: {chunks}")
            self.assertEqual(self.desk_state(self.article[name]), "recording")
        # Neither page ever received the other's title, text or state.
        for name, other in (("vera", "vic"), ("vic", "vera")):
            received = self.frames(pages[name])
            self.assertIn(ARTICLES[name][0], received)
            for secret in (*ARTICLES[other], self.article[other]):
                self.assertNotIn(secret, received, f"{name}'s page received {other}'s {secret!r}")
        # The hours count each take for the account that recorded it.
        report = self.studio.narrate_json("hours", "--accounts")
        print("\nhours --accounts --json:", json.dumps(report)[:600])
        takes = {row["account"]: row["takes"] for row in report["rows"]}
        self.assertEqual((takes.get("vera"), takes.get("vic")), (1, 1))
        # Send with review on: Ready for review, nothing queued or delivered.
        pages["vera"].press("s")
        pages["vera"].wait_js("return (state.notice && state.notice.text || '').startsWith('Sent “Budget vote in the council” for review')",
                              "the page to say it went to review", 20)
        self.assertEqual(self.desk_state(self.article["vera"]), "ready-for-review")
        self.assertEqual(self.studio.narrate_json("outbox", "list", "--all"), [])
        self.assertEqual(os.listdir(os.path.join(self.studio.folder, "delivered")), [])
        self.assertEqual(self.desk_state(self.article["vic"]), "recording")
        self.assertNotIn("for review", self.frames(pages["vic"]))

    def test_2_someone_elses_article_is_refused_and_nothing_of_it_arrives(self):
        page = self.signed_in_page("vic")
        for wanted in (self.article["vera"], "zzzzzzzz", "../../etc"):
            page.driver.get(self.studio.base + "/?article=" + wanted)
            page.wait_js(f"return document.getElementById('problem').textContent === {json.dumps(NOT_YOURS)}",
                         f"the refusal of {wanted}", 15)
            self.assertEqual(page.js("return window.closedWith.code"), 1008)
            received = self.frames(page)
            self.assertEqual(received, "", f"asking for {wanted} sent the page {received[:300]!r}")
        status, _, body = self.call("GET", "/audio?article=" + self.article["vera"], cookie=self.sign_in("vic")[1], origin=None)
        self.assertEqual((status, body), (403, {"error": "Your account may not change this article: ask the service's coordinator if it should."}))

    def test_3_the_home_page_claims_an_open_article(self):
        page = self.signed_in_page("vic")
        self.assertIn("Shop flyer for the week", page.text("open-articles"))
        self.assertIn("Open. Deadline 2031-05-06.", page.text("open-articles"))
        self.axe_check(page, "volunteer's home page with articles")
        page.screenshot("service-volunteer-home")
        page.driver.find_element(By.XPATH, "//button[text()='Claim “Shop flyer for the week”']").click()
        page.wait_js("return document.getElementById('status').textContent === "
                     "'You claimed “Shop flyer for the week”: it is in My articles now.'", "the claim to be confirmed")
        page.wait_js("return document.getElementById('my-articles').textContent.includes('Shop flyer for the week')", "the claimed article in My articles")
        self.assertEqual(page.text("open-articles-empty"), "No article is open to claim now.")
        self.assertEqual(self.studio.narrate_json("desk", "show", self.open_article)["volunteer"], "vic")
        # Claimed already: a second claim (from another account) is refused in one sentence.
        _, vera, _ = self.sign_in("vera")
        status, _, body = self.call("POST", f"/api/desk/{self.open_article}/claim", {}, cookie=vera)
        self.assertEqual(status, 403, body)
        self.assertEqual(self.studio.narrate_json("desk", "show", self.open_article)["volunteer"], "vic")
        page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 375, "height": 800, "deviceScaleFactor": 1, "mobile": True})
        page.driver.get(self.studio.base + "/home")
        page.wait_js("return !document.getElementById('my-articles').hidden", "the home page at 375 px")
        self.assertLessEqual(page.js("return document.documentElement.scrollWidth"), 375)
        for element in page.driver.find_elements(By.CSS_SELECTOR, "button, a.button"):
            if element.is_displayed():
                self.assertGreaterEqual(element.size["height"], 44, f"a small target: {element.text}")

    def test_4_a_coordinator_looks_in_on_a_volunteers_studio_and_sees_the_settings(self):
        """On the flyer vic claimed in test 3 (no takes yet)."""
        flyer = "Shop flyer for the week"
        volunteer = self.signed_in_page("vic")
        volunteer.driver.get(self.studio.base + "/?article=" + self.open_article)
        volunteer.wait_js(f"return state.header && state.header.title === {json.dumps(flyer)}", "vic's studio", 20)
        coordinator = self.signed_in_page("cora")
        coordinator.driver.get(self.studio.base + "/?article=" + self.open_article)
        coordinator.wait_js(f"return state.header && state.header.title === {json.dumps(flyer)}", "the coordinator in vic's studio", 20)
        coordinator.wait_js("return page.settings && page.settings.length > 0", "the settings on the coordinator's page")
        self.assertIn("Booth microphone", self.frames(coordinator))
        self.assertNotIn("Booth microphone", self.frames(volunteer))
        # One studio: the take the volunteer's page records, the coordinator's page shows.
        volunteer.click("record")
        volunteer.wait_recording(1.0, 20)
        coordinator.wait_js("return state.activity.kind === 'recording'", "the volunteer's take on the coordinator's page")
        volunteer.click("record")
        coordinator.wait_js("return state.header.chunkCount === 1 && state.activity.kind === 'ready'", "the kept take on the coordinator's page", 20)
        self.assertEqual(self.desk_state(self.open_article), "recording")


    def test_5_a_page_loses_its_article_at_once_when_the_coordinator_gives_it_to_another(self):
        """On the flyer vic claimed in test 3 and recorded in test 4, and on vic's own article."""
        page = self.signed_in_page("vic")
        page.driver.get(self.studio.base + "/?article=" + self.open_article)
        page.wait_js("return state.header && state.header.title === 'Shop flyer for the week'", "vic's studio of the flyer", 20)
        chunks = self.studio.chunks(self.open_article)
        _, cora, _ = self.sign_in("cora")
        status, _, body = self.call("POST", f"/api/desk/{self.open_article}/assign", {"account": "vera"}, cookie=cora)
        self.assertEqual((status, body["volunteer"]), (200, "vera"), body)
        # The desk's route tells the page's studio at once (before the next 2-second session check).
        page.wait_js("return window.closedWith !== undefined", "the page's socket to close", 10)
        self.assertEqual(page.js("return window.closedWith"), {"code": 1008, "reason": NO_LONGER_YOURS})
        page.wait_js(f"return document.getElementById('problem').textContent === {json.dumps(NO_LONGER_YOURS)}", "the sentence on the page")
        # Nothing reaches the article from the page any more: a key is not sent, no take is made.
        page.press("r")
        time.sleep(0.5)
        self.assertEqual(self.studio.chunks(self.open_article), chunks)
        # A change from the command line (another process) is found by the session check.
        page.driver.get(self.studio.base + "/?article=" + self.article["vic"])
        page.wait_js("return state.header && state.header.title === 'Harbour lights restored'", "vic's own article's studio", 20)
        result = self.studio.narrate("desk", "assign", self.article["vic"], "vera")
        self.assertEqual(result.returncode, 0, result.stderr)
        page.wait_js("return window.closedWith !== undefined", "the page's socket to close after narrate desk assign", 15)
        self.assertEqual(page.js("return window.closedWith"), {"code": 1008, "reason": NO_LONGER_YOURS})
        # The volunteer it was given to opens it.
        vera = self.signed_in_page("vera")
        vera.driver.get(self.studio.base + "/?article=" + self.open_article)
        vera.wait_js("return state.header && state.header.title === 'Shop flyer for the week'", "vera's studio of the flyer", 20)


class ReviewOffTests(StudiosTestCase):
    """`[service] review = false`: Send delivers the article as `narrate desk send` does, and the
    desk says Published once the delivery is checked: the folder's feed holds it then."""

    studio_name = "service-review-off"
    config = ('publication = "Daily News"\nnarrator = "Service"\nprofile = "pod"\ndestination = "share"\n'
              '[destinations.share]\nurl = "{folder}/delivered"\n'
              '[profiles.pod]\nbase = "archive"\nformat = "mp3"\ncarries = ["audio", "feed"]\n'
              '[service]\nreview = false\n')

    def feed(self):
        """The feed the folder destination holds, or None."""
        for folder, _, names in os.walk(os.path.join(self.studio.folder, "delivered")):
            if "feed.xml" in names:
                with open(os.path.join(folder, "feed.xml")) as f:
                    return f.read()
        return None

    def test_send_delivers_at_once(self):
        page = self.signed_in_page("vic")
        page.driver.get(self.studio.base + "/?article=" + self.article["vic"])
        page.wait_js("return state.header && state.header.title === 'Harbour lights restored'", "vic's article in its studio", 20)
        self.assertEqual(os.listdir(os.path.join(self.studio.folder, "delivered")), [])
        self.assertIsNone(self.feed())
        page.click("record")
        page.wait_recording(1.5, 20)
        page.click("record")
        page.wait_chunk_count(1, 20)
        page.wait_ready(20)
        page.press("s")
        page.wait(lambda d: page.visible("result") and page.text("result-heading").startswith("Submitted"), "the submitted result", 60)
        self.assertEqual(self.desk_state(self.article["vic"]), "published")
        self.assertEqual([job["state"] for job in self.studio.narrate_json("outbox", "list", "--all")], ["delivered"])
        delivered = [name for _, _, names in os.walk(os.path.join(self.studio.folder, "delivered")) for name in names]
        self.assertTrue(any(name.endswith((".mp3", ".flac", ".wav", ".opus", ".m4a", ".ogg")) for name in delivered), delivered)
        feed = self.feed()
        self.assertIsNotNone(feed, delivered)
        self.assertIn("<title>Harbour lights restored</title>", feed)
        self.assertIn(".mp3", feed)


if __name__ == "__main__":
    unittest.main()
