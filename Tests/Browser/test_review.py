"""The proof-listener's review page (`/review`) in a reading service, in Chromium. Articles are
put on the desk, recorded and sent for review through the binary (`narrate desk`, `narrate
record`); then a proof-listener opens one from the list, plays it, jumps paragraph by paragraph
with the keys, pins two notes with the keyboard alone and sends it back; another one approved
reaches the folder destination's feed, which did not hold it before. axe-core finds nothing
serious or critical in the list and in an open article; the page fits a phone (375 px) and 200 %
zoom. A volunteer's requests to every review route are refused and change nothing; a
proof-listener may not hear an article that is not ready for review."""

import os

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_service import PASSPHRASE, ServiceTestCase

ONLY_REVIEWERS = "Review is for proof-listeners (coordinators and admins may look): ask the service's coordinator if you should have it."
TEXT = "# Harbour reopens\n\nThe harbour stayed closed for a week.\n\nThe storm passed on Sunday.\n"


class ReviewPageTests(ServiceTestCase):
    studio_name = "service-review"
    config = ('publication = "Daily Post"\nnarrator = "Service"\nprofile = "pod"\ndestination = "share"\n\n'
              '[destinations.share]\nurl = "{folder}/share"\n\n'
              '[profiles.pod]\nbase = "archive"\nformat = "mp3"\ncarries = ["audio", "feed"]\n')
    accounts = (("cora", "coordinator"), ("ann", "volunteer"), ("vic", "volunteer"), ("pat", "proof-listener"))

    @classmethod
    def setUpStudio(cls):
        os.makedirs(os.path.join(cls.studio.folder, "share"))
        cls.accept_invitations()
        text = os.path.join(cls.studio.folder, "harbour.md")
        with open(text, "w") as f:
            f.write(TEXT)
        cls.ids = {}
        for title, send in (("Harbour reopens", True), ("Council budget", True), ("Ferry timetable", True), ("Storm warning", False)):
            cls.ids[title] = cls.put(title, text, send)

    @classmethod
    def put(cls, title, text, send):
        """An article on the desk with TEXT's three paragraphs, given to ann, one take per
        paragraph (0.8 s, 1.0 s, 1.2 s), sent for review when `send`."""
        def run(*args):
            result = cls.studio.narrate(*args)
            if result.returncode != 0:
                raise AssertionError(f"narrate {' '.join(args)} exited {result.returncode}: {result.stderr}")
            return result
        added = cls.studio.narrate_json("desk", "add", "--title", title, "--publication", "Daily Post", "--text", text)
        article = added["id"]
        run("desk", "assign", article, "ann")
        for seconds in ("0.8", "1.0", "1.2"):
            run("record", "--article", article, "--device", "usbmic", "--duration", seconds)
        if send:
            run("desk", "send", article, "--as", "ann")
        return article

    # What the page and the command line say

    def state_of(self, title):
        return self.studio.narrate_json("desk", "show", self.ids[title])["state"]

    def notes(self, title):
        """The article's notes as `narrate review notes` lists them: as the proof-listener while it
        is ready for review, as its volunteer once it is sent back."""
        article = self.ids[title]
        as_whom = "pat" if self.state_of(title) == "ready-for-review" else "ann"
        return self.studio.narrate_json("review", "notes", "--article", article, "--as", as_whom)

    def feed(self):
        try:
            with open(os.path.join(self.studio.folder, "share", "Daily Post", "feed.xml")) as f:
                return f.read()
        except OSError:
            return None

    def wait_status(self, browser, text, timeout=15):
        browser.wait_js(f"return document.getElementById('status').textContent === {text!r}",
                        f"the status {text!r} (status {browser.text('status')!r}, problem {browser.text('problem')!r})", timeout)

    def open_review(self, name):
        browser = self.browser_sign_in(name)
        self.assertTrue(browser.visible("review-link"), "the review link on a proof-listener's home page")
        browser.driver.find_element(By.CSS_SELECTOR, "#review-link a").click()
        browser.wait(lambda d: d.current_url.endswith("/review"), "the review page from the home page")
        browser.wait_js("return !document.getElementById('list-section').hidden", "the list of articles ready for review")
        return browser

    def open_article(self, browser, title):
        button = browser.driver.find_element(By.CSS_SELECTOR, f'button[data-id="{self.ids[title]}"]')
        button.send_keys(Keys.ENTER)
        browser.wait_js(f"return document.getElementById('article-heading').textContent === {title!r} "
                        "&& document.activeElement.id === 'article-heading'", f"“{title}” open, its heading focused")
        browser.wait_js("return document.getElementById('player').readyState >= 1", "the article's audio to load")

    def keys(self, browser, keys):
        ActionChains(browser.driver).send_keys(keys).perform()

    def current(self, browser):
        return browser.js("const c = document.querySelectorAll('#paragraphs li[aria-current=\"true\"]');"
                          "return c.length === 1 ? Number(c[0].dataset.number) : c.length")

    # The tests

    def test_a_proof_listener_plays_jumps_pins_two_notes_by_keyboard_and_sends_back(self):
        browser = self.open_review("pat")
        listed = browser.js("return [...document.querySelectorAll('#list .open-article')].map(b => b.textContent)")
        self.assertEqual(sorted(listed), ["Open “Council budget”", "Open “Ferry timetable”", "Open “Harbour reopens”"])
        self.open_article(browser, "Harbour reopens")
        paragraphs = browser.js("return state.open.paragraphs.map(p => [p.number, p.kind, p.start, p.end])")
        self.assertEqual([p[:2] for p in paragraphs], [[1, "heading"], [2, "paragraph"], [3, "paragraph"]])
        self.assertAlmostEqual(paragraphs[1][2], 0.8, places=2)
        self.assertAlmostEqual(paragraphs[2][2], 1.8, places=2)
        self.assertAlmostEqual(browser.js("return state.open.duration"), 3.0, places=2)
        self.assertEqual(self.current(browser), 1)

        # Space plays; the audio moves on.
        self.keys(browser, " ")
        browser.wait_js("return !document.getElementById('player').paused && document.getElementById('player').currentTime > 0.6",
                        "the audio to play after Space")
        self.assertEqual(browser.text("play"), "Pause")
        # J: the next paragraph, from its start, marked as heard; K: back; the down arrow: on again.
        self.keys(browser, "j")
        browser.wait_js("return state.current === 2", "J to go to paragraph 2")
        self.assertEqual(self.current(browser), 2)
        self.assertGreaterEqual(browser.js("return document.getElementById('player').currentTime"), 0.8)
        self.assertTrue(browser.text("status").startswith("Paragraph 2 of 3, at 0:00.8: The harbour stayed closed"), browser.text("status"))
        self.keys(browser, "k")
        browser.wait_js("return state.current === 1", "K to go back to paragraph 1")
        self.keys(browser, Keys.ARROW_DOWN)
        browser.wait_js("return state.current === 2", "the down arrow to go to paragraph 2")
        self.keys(browser, " ")
        browser.wait_js("return document.getElementById('player').paused", "Space to pause")

        # N: a note here, "said / should be"; focus moves into the form; typed and sent with Enter.
        self.keys(browser, "n")
        browser.wait_js("return document.activeElement.id === 'note-said'", "the note form, focus on “Said”")
        self.assertTrue(browser.text("note-heading").endswith("in paragraph 2"), browser.text("note-heading"))
        self.keys(browser, "stayd")
        self.keys(browser, Keys.TAB)
        self.keys(browser, "stayed" + Keys.ENTER)
        browser.wait_js("return state.open.notes.length === 1", "the first note pinned")
        self.assertTrue(browser.text("status").startswith("Pinned a note at 0:0"), browser.text("status"))
        self.assertEqual(browser.js("return document.activeElement.id"), "article-heading")

        # Esc cancels a note: nothing is pinned.
        self.keys(browser, "n")
        browser.wait_js("return document.activeElement.id === 'note-said'", "the note form again")
        self.keys(browser, Keys.ESCAPE)
        browser.wait_js("return document.getElementById('note-form').hidden", "Esc to close the form")
        self.assertEqual(browser.text("status"), "The note was not pinned.")

        # The next paragraph, then a free-text note: the kind chosen with the arrow keys.
        self.keys(browser, "j")
        browser.wait_js("return state.current === 3", "J to go to paragraph 3")
        self.keys(browser, "n")
        browser.wait_js("return document.activeElement.id === 'note-said'", "the note form for paragraph 3")
        ActionChains(browser.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        browser.wait_js("return document.activeElement.id === 'kind-slip'", "Shift+Tab to the kind of note")
        self.keys(browser, Keys.ARROW_DOWN)
        browser.wait_js("return document.activeElement.id === 'note-text'", "free text chosen, focus in its field")
        self.keys(browser, "A door slams here." + Keys.ENTER)
        browser.wait_js("return state.open.notes.length === 2", "the second note pinned")
        browser.screenshot("service-review")
        listed = browser.js("return [...document.querySelectorAll('#notes button')].map(b => b.textContent)")
        self.assertRegex(listed[0], r"^0:0\d\.\d, paragraph 2: said “stayd”, should be “stayed”$")
        self.assertRegex(listed[1], r"^0:01\.8, paragraph 3: A door slams here\.$")

        # Activating a note seeks to its time.
        notes = self.notes("Harbour reopens")
        self.assertEqual([(n["paragraph"], n["kind"], n["state"]) for n in notes],
                         [(2, "said-should-be", "in-review"), (3, "remark", "in-review")])
        self.assertEqual((notes[0]["said"], notes[0]["shouldBe"], notes[1]["remark"]), ("stayd", "stayed", "A door slams here."))
        browser.driver.find_elements(By.CSS_SELECTOR, "#notes button")[0].send_keys(Keys.ENTER)
        browser.wait_js(f"return Math.abs(document.getElementById('player').currentTime - {notes[0]['seconds']}) < 0.01",
                        "the first note's time")

        # Send back, confirmed, with the keyboard.
        self.assertEqual(self.feed(), None)
        browser.el("send-back").send_keys(Keys.ENTER)
        browser.wait_js("return document.activeElement.id === 'confirm-yes'", "the confirmation, focused")
        self.assertEqual(browser.text("confirm-question"), "Send “Harbour reopens” back to ann with its notes as pickups?")
        self.keys(browser, Keys.ENTER)
        self.wait_status(browser, "Sent “Harbour reopens” back to ann with 2 pickups.")
        self.assertEqual(self.state_of("Harbour reopens"), "pickups-requested")
        self.assertEqual([n["state"] for n in self.notes("Harbour reopens")], ["open", "open"])
        self.assertNotIn(self.ids["Harbour reopens"], browser.js("return state.articles.map(a => a.id)"))
        audit = [e for e in self.studio.narrate_json("audit") if e.get("actor") == "pat"]
        self.assertEqual([e["action"] for e in audit][-4:], ["review-note-pinned", "review-note-pinned", "review-sent-back", "article-moved"])
        # What was heard counts to the proof-listener's hours: their only activity, a session.
        hours = self.studio.narrate_json("hours", "--accounts")
        pat = [row for row in hours["rows"] if row["account"] == "pat"]
        self.assertEqual([(row["role"], row["sessions"]) for row in pat], [("proof-listener", 1)], hours)
        self.assertEqual(self.feed(), None, "sent back, yet the feed was written")

        # The volunteer's pickups at the command line: paragraph 2 read again, both notes done with it.
        article = self.ids["Harbour reopens"]
        taken = self.studio.narrate("record", "--article", article, "--device", "usbmic", "--duration", "0.5", "--paragraph", "2")
        self.assertEqual(taken.returncode, 0, taken.stderr)
        edit = self.studio.narrate_json("history", "--article", article)[0]["number"]
        for note in ("1", "2"):
            done = self.studio.narrate("review", "done", note, "--edit", str(edit), "--article", article, "--as", "ann")
            self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.state_of("Harbour reopens"), "ready-for-review")

        # Back in the list, marked in words; "What changed" lists the new take, and plays it.
        browser.driver.get(self.studio.base + "/review")
        browser.wait_js(f"return !!document.querySelector('button[data-id=\"{article}\"]')", "the article back in the list")
        item = browser.js(f"return document.querySelector('button[data-id=\"{article}\"]').closest('li').innerText")
        self.assertIn("Came back: its pickups are done, hear what changed.", item)
        self.open_article(browser, "Harbour reopens")
        self.assertTrue(browser.visible("changes-section"), "What changed, for an article that came back")
        changes = browser.js("return [...document.querySelectorAll('#changes button')].map(b => b.textContent)")
        self.assertEqual(changes, ["Paragraph 2, replaced: play 0:00.8 to 0:01.3"])
        browser.driver.find_element(By.CSS_SELECTOR, "#changes button").send_keys(Keys.ENTER)
        browser.wait_js("return !document.getElementById('player').paused && document.getElementById('player').currentTime >= 0.8",
                        "the change to play from its start")

    def test_an_approved_article_reaches_the_feed_and_not_before(self):
        browser = self.open_review("pat")
        self.assertEqual(self.feed(), None)
        self.open_article(browser, "Council budget")
        browser.click("approve")
        browser.wait_js("return document.activeElement.id === 'confirm-yes'", "the confirmation, focused")
        self.assertEqual(browser.text("confirm-question"), "Approve “Council budget”? It is delivered to listeners now.")
        self.assertEqual(self.feed(), None, "asked to confirm, yet the feed was written")
        browser.click("confirm-yes")
        browser.wait_js("return document.getElementById('status').textContent.startsWith('Approved “Council budget”: it is published, delivered to ')",
                        "the approval's sentence", timeout=60)
        self.assertEqual(self.state_of("Council budget"), "published")
        feed = self.feed()
        self.assertIsNotNone(feed, "approved, yet no feed")
        self.assertIn("Council budget", feed)
        self.assertNotIn("Harbour reopens", feed)

    def test_axe_finds_nothing_serious_and_the_page_fits_a_phone_and_200_percent_zoom(self):
        browser = self.open_review("pat")
        self.axe_check(browser, "review list")
        for width in (375, 640):  # a phone; 200 % zoom of a 1280 px window
            browser.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                           {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width == 375})
            browser.driver.get(self.studio.base + "/review")
            browser.wait_js("return !document.getElementById('list-section').hidden", "the list")
            self.open_article(browser, "Ferry timetable")
            browser.click("pin")
            browser.wait_js("return document.activeElement.id === 'note-said'", "the note form")
            self.assertLessEqual(browser.js("return document.documentElement.scrollWidth"), width, f"the page scrolls sideways at {width} px")
            for element in browser.driver.find_elements(By.CSS_SELECTOR, "button, input, select"):
                if element.is_displayed():
                    self.assertGreaterEqual(element.size["height"], 44, f"a small target at {width} px: {element.get_attribute('id')}")
            self.axe_check(browser, f"review article at {width} px")
            if width == 375:
                browser.js("window.scrollTo(0, 0)")
                browser.screenshot("service-review-375")
        self.assertEqual(self.notes("Ferry timetable"), [])

    def test_a_volunteer_is_refused_every_review_route_and_nothing_changes(self):
        _, cookie, _ = self.sign_in("vic")
        desk = self.studio.narrate_json("desk", "list")
        article = self.ids["Ferry timetable"]
        routes = [("GET", "/review", None), ("GET", "/api/review", None), ("GET", f"/api/review/{article}", None),
                  ("POST", f"/api/review/{article}/notes", {"paragraph": 1, "at": 0.2, "text": "Too fast."}),
                  ("POST", f"/api/review/{article}/heard", {"seconds": 1}),
                  ("POST", f"/api/review/{article}/send-back", {}), ("POST", f"/api/review/{article}/approve", {})]
        for method, path, body in routes:
            status, _, answer = self.call(method, path, body, cookie=cookie)
            self.assertEqual(status, 403, f"{method} {path}")
            if path != "/review":
                self.assertEqual(answer, {"error": ONLY_REVIEWERS}, f"{method} {path}")
        self.assertEqual(self.studio.narrate_json("desk", "list"), desk)
        self.assertEqual(self.notes("Ferry timetable"), [])
        self.assertEqual([row for row in self.studio.narrate_json("hours", "--accounts")["rows"] if row["account"] == "vic"], [])
        # The page itself says why.
        browser = self.browser_sign_in("vic")
        self.assertFalse(browser.visible("review-link"), "a volunteer's home page shows no review link")
        browser.driver.get(self.studio.base + "/review")
        browser.wait_js("return document.getElementById('problem').textContent !== ''", "the page to say why")
        self.assertEqual(browser.text("problem"), ONLY_REVIEWERS)
        self.axe_check(browser, "review refused")

    def test_a_proof_listener_hears_only_articles_ready_for_review(self):
        _, cookie, _ = self.sign_in("pat")
        status, _, answer = self.call("GET", f"/audio?article={self.ids['Storm warning']}", cookie=cookie, origin=None)
        self.assertEqual(status, 403)
        self.assertEqual(answer, {"error": "Your account may not change this article: ask the service's coordinator if it should."})
        status, _, _ = self.call("GET", f"/api/review/{self.ids['Storm warning']}", cookie=cookie, origin=None)
        self.assertEqual(status, 409)
        status, headers, _ = self.call("GET", f"/audio?article={self.ids['Ferry timetable']}", cookie=cookie, origin=None,
                                       headers={"Range": "bytes=0-43"})
        self.assertEqual((status, headers.get("content-type")), (206, "audio/wav"))
