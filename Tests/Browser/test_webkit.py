"""The web studio and the reading service's pages in WebKit (Safari's engine), as Debian ships it:
WebKitGTK's MiniBrowser through webkit2gtk-driver (WebKitWebDriver) on Xvfb. The personal studio
opened by its token link; a take on "This computer's microphone" from WebKit's mock capture
device (a hum with a beep each second, see studio_fixture's docstring), its length and its sound
checked on the server; the take played back by the page's <audio>; a reload mid-take leaves the
take on the server, as long as what was recorded; the sign-in, desk and review
pages loaded with no JavaScript error and no sideways scroll at 375 px. What this WebKit offers
for keeping takes in the browser (IndexedDB, not the Origin Private File System) is checked too.
Screenshots at 375 px go to $NARRATE_SCREENSHOTS when it is set.

Skipped, with the reason, only when webkit2gtk-driver is not installed.
"""

import time
import unittest

import numpy
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from studio_fixture import PHONE_ZOOM, Browser, StudioTestCase, png_size, wav_frames, webkit_available
from test_service import PASSPHRASE, ServiceTestCase

NO_WEBKIT = "WebKitWebDriver or MiniBrowser is missing: install webkit2gtk-driver and xvfb (Scripts/install-packages test)"
PHONE = (375, 800)

# Errors seen by the page from now on: uncaught exceptions, rejected promises, console.error.
WATCH_ERRORS = """
if (!window.seenErrors) {
  window.seenErrors = [];
  window.addEventListener('error', (e) => seenErrors.push('error: ' + e.message + ' at ' + e.filename + ':' + e.lineno));
  window.addEventListener('unhandledrejection', (e) => seenErrors.push('unhandled rejection: ' + String(e.reason)));
  const original = console.error.bind(console);
  console.error = (...parts) => { seenErrors.push('console.error: ' + parts.map(String).join(' ')); original(...parts); };
}"""


def require_webkit():
    if not webkit_available():
        raise unittest.SkipTest(NO_WEBKIT)


def samples(path):
    rate, channels, width, frames = wav_frames(path)
    assert (channels, width) == (1, 2), f"mono 16-bit expected, got {channels} channel(s) of {width * 8} bits"
    return rate, numpy.frombuffer(frames, dtype="<i2").astype(numpy.float64)


def phone(test_class):
    """A WebKit browser zoomed so that its viewport is 375 CSS px wide (driven by the keyboard:
    WebDriver's clicks miss in a zoomed WebKit)."""
    browser = Browser(test_class.studio.folder, engine="webkit", zoom=PHONE_ZOOM)
    test_class.browsers.append(browser)
    browser.viewport(*PHONE)
    return browser


def fits_a_phone(test, browser, screen):
    """The page at 375 CSS px: no sideways scroll; a screenshot `webkit-SCREEN-375` when asked."""
    browser.js("window.scrollTo(0, 0)")
    width = browser.js("return document.documentElement.scrollWidth")
    test.assertLessEqual(width, PHONE[0], f"the {screen} scrolls sideways at {PHONE[0]} px in WebKit ({width} px wide)")
    path = browser.screenshot(f"webkit-{screen}-375")
    if path:
        test.assertEqual(png_size(path)[0], round(PHONE[0] * PHONE_ZOOM), "the screenshot's width in device pixels")


class WebKitStudioTests(StudioTestCase):
    """The personal studio in WebKit, one page for every step, in order."""

    studio_name = "webkit-studio"
    engine = "webkit"
    reached = 0

    @classmethod
    def setUpClass(cls):
        require_webkit()
        super().setUpClass()

    @classmethod
    def setUpStudio(cls):
        cls.page = cls.browser()

    def step(self, number):
        if self.reached < number - 1:
            self.skipTest(f"step {number - 1} did not pass")

    def passed(self, number):
        type(self).reached = number

    def test_1_the_token_link_opens_the_studio_and_its_state_renders(self):
        page = self.page
        page.open(self.studio)
        page.js(WATCH_ERRORS)
        self.assertEqual(page.js("return navigator.userAgent.includes('AppleWebKit') && !navigator.userAgent.includes('Chrome')"), True)
        page.show_new_article_form()
        page.el("form-title").send_keys("Read in WebKit")
        page.click("form-create")
        page.wait(lambda d: page.visible("record-section"), "the studio")
        self.assertEqual(page.text("title"), "Read in WebKit")
        self.assertEqual(page.state()["activity"]["kind"], "ready")
        self.assertTrue(page.visible("chunks-empty"), "the empty chunk list")
        self.assertEqual([a["title"] for a in self.studio.narrate_json("list")], ["Read in WebKit"])
        self.assertEqual(page.js("return seenErrors"), [])
        self.passed(1)

    def test_2_a_take_on_the_mock_microphone(self):
        self.step(2)
        page = self.page
        page.click("mic-browser")
        page.wait_js("return state.microphone === 'browser'", "the studio to switch to the browser's microphone", 20)
        page.click("record")
        started = time.monotonic()
        page.wait_recording(0.0, 20)
        while time.monotonic() - started < 3.0:  # at least 3 s between the clicks, measured here
            time.sleep(0.02)
        page.click("record")
        interval = time.monotonic() - started
        page.wait_chunk_count(1, 20)
        page.wait_ready(20)
        chunks = self.studio.chunks()
        self.assertEqual(len(chunks), 1, chunks)
        chunk = chunks[0]
        self.assertLess(abs(chunk["duration"] - interval), 0.5,
                        f"the chunk lasts {chunk['duration']:.3f} s, the take {interval:.3f} s between the clicks")
        rate, recorded = samples(chunk["file"])
        self.assertEqual(rate, 44100)
        # WebKit's mock microphone: a 150 Hz hum throughout, beeps of half full scale each second.
        middle = recorded[int(0.5 * rate):int(2.5 * rate)]
        spectrum = numpy.abs(numpy.fft.rfft(middle))
        strongest = float(numpy.fft.rfftfreq(len(middle), 1 / rate)[int(numpy.argmax(spectrum))])
        loudest = int(numpy.abs(middle).max())
        print(f"\nWebKit take: {chunk['duration']:.3f} s for {interval:.3f} s between the clicks; "
              f"strongest frequency {strongest:.1f} Hz, peak {loudest}")
        self.assertLess(abs(strongest - 150), 2, f"the take does not carry the mock microphone's 150 Hz hum ({strongest:.1f} Hz)")
        self.assertGreater(loudest, 12000, "no beep of the mock microphone in the take's middle two seconds")
        self.assertEqual(page.js("return seenErrors"), [])
        self.passed(2)

    def test_3_the_take_plays_back(self):
        self.step(3)
        page = self.page
        page.driver.find_element(By.CSS_SELECTOR, '#chunks > li[data-number="1"] button').click()
        page.wait_js("return state.selection === 0", "chunk 1 to be selected")
        page.click("play")
        page.wait_js("const a = document.getElementById('player'); return a.currentTime > 1.0 || a.error !== null",
                     "the <audio> to play past 1 s", 20)
        audio = page.js("const a = document.getElementById('player');"
                        "return {src: a.getAttribute('src'), error: a.error && a.error.code, paused: a.paused, time: a.currentTime}")
        self.assertIsNone(audio["error"], f"<audio> error: {audio}")
        self.assertTrue(audio["src"].startswith("/audio"), audio)
        self.assertFalse(audio["paused"], audio)
        self.assertIn("in chunk 1", page.text("position"))
        page.click("pause")
        page.wait_js("return document.getElementById('player').paused", "the player to pause")
        self.assertEqual(page.js("return seenErrors"), [])
        self.passed(3)

    def test_4_what_this_webkit_offers_for_keeping_takes(self):
        """IndexedDB keeps a piece across a reload; the Origin Private File System is absent."""
        page = self.page
        if not page.js("return typeof state === 'object'"):
            page.open(self.studio)
        stored = page.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const request = indexedDB.open('webkit-check', 1);
            request.onupgradeneeded = () => request.result.createObjectStore('pieces');
            request.onerror = () => done('open failed: ' + request.error);
            request.onsuccess = () => {
              const transaction = request.result.transaction('pieces', 'readwrite');
              transaction.objectStore('pieces').put(new Int16Array([1, -2, 3, 32767]).buffer, 'take-1-piece-0');
              transaction.oncomplete = () => { request.result.close(); done('stored'); };
              transaction.onerror = () => done('put failed: ' + transaction.error);
            };""")
        self.assertEqual(stored, "stored")
        page.driver.refresh()
        read = page.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const request = indexedDB.open('webkit-check', 1);
            request.onsuccess = () => {
              const get = request.result.transaction('pieces').objectStore('pieces').get('take-1-piece-0');
              get.onsuccess = () => done(get.result ? Array.from(new Int16Array(get.result)) : null);
            };
            request.onerror = () => done('open failed: ' + request.error);""")
        self.assertEqual(read, [1, -2, 3, 32767], "IndexedDB lost the piece across a reload")
        storage = page.js("return {storage: typeof navigator.storage, secure: window.isSecureContext, "
                          "worklet: typeof AudioWorkletNode}")
        print(f"\nWebKit storage: {storage}")
        self.assertEqual(storage, {"storage": "undefined", "secure": True, "worklet": "function"},
                         "WebKitGTK now offers navigator.storage (OPFS?): update studio_fixture's docstring and the page's fallback")

    def test_5_the_studio_fits_a_phone(self):
        self.step(4)  # the take of steps 2 and 3 is in its list
        browser = phone(type(self))
        browser.open(self.studio)
        browser.js(WATCH_ERRORS)
        browser.wait_chunk_count(1)
        self.assertTrue(browser.visible("record"), "the Record button at 375 px")
        fits_a_phone(self, browser, "studio")
        self.assertEqual(browser.js("return seenErrors"), [])
        browser.quit()
        type(self).browsers.remove(browser)

    def test_6_a_reload_mid_take_keeps_the_take(self):
        self.step(4)  # the page chose the browser's microphone in step 2
        page = self.page
        if not page.js("return typeof state === 'object' && state.microphone === 'browser'"):
            page.open(self.studio)
            page.click("mic-browser")
            page.wait_js("return state.microphone === 'browser'", "the browser's microphone", 20)
        before = len(self.studio.chunks())
        page.click("record")
        started = time.monotonic()
        page.wait_recording(2.0, 20)
        recorded = time.monotonic() - started
        page.driver.refresh()
        deadline = time.monotonic() + 15
        chunks = []
        while time.monotonic() < deadline:
            chunks = self.studio.chunks()
            if len(chunks) > before:
                break
            time.sleep(0.2)
        self.assertEqual(len(chunks), before + 1, f"no chunk was kept after the reload; stderr: {self.studio.stderr()[-1500:]}")
        kept = chunks[-1]["duration"]
        self.assertGreaterEqual(kept, recorded - 0.5, f"kept {kept:.3f} s of {recorded:.3f} s recorded before the reload")
        page.wait_js("return typeof state === 'object' && state.activity.kind === 'ready' && !!document.getElementById('status').textContent",
                     "the reloaded page to be ready", 20)
        page.wait_chunk_count(before + 1, 20)
        # The reloaded page found the take in WebKit's IndexedDB, sent what the server lacked, and forgot it.
        page.wait_js("return uploads.ready && uploads.persistent && uploads.takes.size === 0 && "
                     "document.getElementById('upload-status').textContent === 'All takes saved on the server.'",
                     "the reloaded page to finish the take's upload and say all takes are saved", 20)
        self.assertFalse(self.studio.chunks()[-1].get("recovered"), "the take was recovered by the server, not finished by its page")
        page.screenshot("webkit-upload-saved")
        print(f"\nWebKit reload mid-take: kept {kept:.3f} s of {recorded:.3f} s; status {page.text('status')!r}; "
              f"upload line {page.text('upload-status')!r}")


class WebKitServicePagesTests(ServiceTestCase):
    """A reading service's sign-in, desk and review pages in WebKit at phone width."""

    studio_name = "webkit-service"
    engine = "webkit"
    accounts = (("cora", "coordinator"), ("ann", "volunteer"), ("pat", "proof-listener"))

    @classmethod
    def setUpClass(cls):
        require_webkit()
        super().setUpClass()

    @classmethod
    def setUpStudio(cls):
        cls.accept_invitations()

        def run(*args):
            result = cls.studio.narrate(*args)
            if result.returncode != 0:
                raise AssertionError(f"narrate {' '.join(args)} exited {result.returncode}: {result.stderr}")
        added = cls.studio.narrate_json("desk", "add", "--title", "Harbour reopens", "--publication", "Daily Post")
        cls.article = added["id"]
        run("desk", "assign", cls.article, "ann")
        run("record", "--article", cls.article, "--device", "usbmic", "--duration", "1.5")
        run("desk", "send", cls.article, "--as", "ann")

    def signed_in_at_phone_width(self, name):
        """The sign-in page at 375 px, checked and photographed, then signed in as `name`."""
        browser = phone(type(self))
        browser.driver.get(self.studio.base + "/signin")
        browser.wait_js("return document.activeElement && document.activeElement.id === 'signin-account'", "the name field to have focus")
        browser.js(WATCH_ERRORS)
        fits_a_phone(self, browser, "signin")
        browser.el("signin-account").send_keys(name)
        browser.el("signin-passphrase").send_keys(PASSPHRASE)
        browser.el("signin-submit").send_keys(Keys.ENTER)
        browser.wait(lambda d: d.current_url.endswith("/home"), "the home page after signing in")
        browser.wait_js("return document.getElementById('home-who').textContent !== ''", "the home page to show who is signed in")
        return browser

    def test_the_desk_at_phone_width(self):
        browser = self.signed_in_at_phone_width("cora")
        browser.driver.get(self.studio.base + "/desk")
        browser.wait_js("return document.getElementById('caption').textContent !== ''", "the desk's table")
        browser.js(WATCH_ERRORS)
        titles = browser.js("return [...document.querySelectorAll('#rows tr')].map(tr => tr.children[0].innerText)")
        self.assertEqual(len(titles), 1, titles)
        self.assertIn("Harbour reopens", titles[0])
        browser.el("add-title").send_keys("Ferry timetable")
        browser.el("add-submit").send_keys(Keys.ENTER)
        browser.wait_js("return document.getElementById('status').textContent === 'Added “Ferry timetable” to the desk, Open.'",
                        f"the desk to add the article (status {browser.text('status')!r}, problem {browser.text('problem')!r})")
        self.assertIn("Ferry timetable", {entry["title"] for entry in self.studio.narrate_json("desk", "list")})
        fits_a_phone(self, browser, "desk")
        self.assertEqual(browser.js("return seenErrors"), [])

    def test_the_review_page_at_phone_width(self):
        browser = self.signed_in_at_phone_width("pat")
        browser.driver.get(self.studio.base + "/review")
        browser.wait_js("return !document.getElementById('list-section').hidden", "the list of articles ready for review")
        browser.js(WATCH_ERRORS)
        browser.driver.find_element(By.CSS_SELECTOR, f'button[data-id="{self.article}"]').send_keys(Keys.ENTER)
        browser.wait_js("return document.getElementById('article-heading').textContent === 'Harbour reopens'", "the article open")
        browser.wait_js("return document.getElementById('player').readyState >= 1", "the article's audio to load")
        browser.js("document.getElementById('player').play()")
        browser.wait_js("const a = document.getElementById('player'); return a.currentTime > 0.5 || a.error !== null",
                        "the review's <audio> to play past 0.5 s", 20)
        self.assertIsNone(browser.js("const e = document.getElementById('player').error; return e && e.code"))
        browser.js("document.getElementById('player').pause()")
        fits_a_phone(self, browser, "review")
        self.assertEqual(browser.js("return seenErrors"), [])


if __name__ == "__main__":
    unittest.main()
