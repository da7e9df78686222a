"""`narrate serve` as a reading service (a library with accounts): the invitation page, signing in
and out, sessions on the server, the cross-site rule, the sign-in limit, every route refused
without a session, a volunteer refused what is not theirs, an open page closed when its account
is disabled or signed out everywhere, axe-core on the new pages, and where the service may listen
(https, or a trusted proxy; never plain http on the network). Each refusal is checked with what
it must not have changed."""

import base64
import http.client
import json
import os
import ssl
import subprocess
import time
import unittest

from selenium.webdriver.common.by import By

from studio_fixture import Studio, StudioTestCase, wait_for_binary

PASSPHRASE = "summer lantern over the weir"
OTHER_PASSPHRASE = "quiet harbour under green hills"
EVIL = "http://evil.example"
WRONG = "The name or the passphrase is wrong."
SIGN_IN_FIRST = "Sign in first: this page needs your account."
FOREIGN = "Requests from other sites are refused: open the service's own page."
ENDED = "Your session has ended (signed out, or the account disabled): sign in again."


def add_account(studio, name, role):
    """`narrate accounts add NAME --role ROLE`: the invitation's (account, token) from the printed link."""
    result = studio.narrate("accounts", "add", name, "--role", role)
    if result.returncode != 0:
        raise AssertionError(f"narrate accounts add {name} exited {result.returncode}: {result.stderr}")
    link = next(line for line in result.stdout.splitlines() if "/invitation#" in line)
    fields = dict(pair.split("=", 1) for pair in link.split("#", 1)[1].split("&"))
    assert fields["account"] == name, link
    return link, fields["token"]


class ServiceTestCase(StudioTestCase):
    """A reading service: accounts are added before `narrate serve` starts, so that it starts as one."""

    accounts = ()  # (name, role, accept the invitation before the server starts)

    @classmethod
    def setUpClass(cls):
        cls.browsers = []
        cls.studio = Studio(cls.studio_name, cls.config)
        cls.invitations = {}
        try:
            for name, role in cls.accounts:
                cls.invitations[name] = add_account(cls.studio, name, role)
            cls.studio.start(extra=cls.serve_arguments())
            cls.setUpStudio()
        except BaseException:
            try:
                cls.tearDownClass()
            except AssertionError:
                pass
            raise

    @classmethod
    def accept_invitations(cls):
        """Every account of the class accepts its invitation with PASSPHRASE, over HTTP as the page does."""
        for name, _ in cls.accounts:
            status, _, body = cls.call("POST", "/api/invitations/accept",
                                       {"account": name, "token": cls.invitations[name][1], "passphrase": PASSPHRASE})
            if status != 201:
                raise AssertionError(f"accepting {name}'s invitation answered {status}: {body}")

    @classmethod
    def serve_arguments(cls):
        return ()

    # Raw HTTP, as a page of the service sends it (its own Origin) unless told otherwise.

    @classmethod
    def call(cls, method, path, body=None, cookie=None, origin="own", headers=None):
        sent = dict(headers or {})
        if origin:
            sent["Origin"] = cls.studio.base if origin == "own" else origin
        if cookie:
            sent["Cookie"] = cookie
        data = None
        if body is not None:
            sent.setdefault("Content-Type", "application/json")
            data = json.dumps(body).encode() if not isinstance(body, bytes) else body
        status, answer_headers, answer = cls.studio.request(method, path, sent, data)
        try:
            parsed = json.loads(answer) if answer else {}
        except ValueError:
            parsed = {"raw": answer.decode("utf-8", "replace")}
        return status, answer_headers, parsed

    def accept(self, name, passphrase=PASSPHRASE):
        _, token = self.invitations[name]
        return self.call("POST", "/api/invitations/accept", {"account": name, "token": token, "passphrase": passphrase})

    def sign_in(self, name, passphrase=PASSPHRASE, headers=None):
        """(status, cookie or None, body)."""
        status, headers, body = self.call("POST", "/api/session", {"account": name, "passphrase": passphrase}, headers=headers)
        cookie = headers.get("set-cookie", "").split(";", 1)[0] or None
        return status, cookie, body

    def me(self, cookie):
        return self.call("GET", "/api/me", cookie=cookie, origin=None)

    def upgrade(self, cookie=None, origin="own"):
        """A raw WebSocket upgrade of /live: its status (101 upgraded; a refused upgrade is 400
        whatever the reason, as Hummingbird answers every upgrade its router does not accept)."""
        connection = http.client.HTTPConnection(self.studio.host, self.studio.port, timeout=10)
        try:
            connection.putrequest("GET", "/live", skip_accept_encoding=True)
            headers = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                       "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode()}
            if origin:
                headers["Origin"] = self.studio.base if origin == "own" else origin
            if cookie:
                headers["Cookie"] = cookie
            for name, value in headers.items():
                connection.putheader(name, value)
            connection.endheaders()
            return connection.getresponse().status
        finally:
            connection.close()

    def audit_lines(self):
        return len(self.studio.narrate_json("audit"))

    def articles(self):
        return self.studio.narrate_json("list")

    # The browser

    def browser_sign_in(self, name, passphrase=PASSPHRASE):
        browser = self.browser()
        browser.driver.get(self.studio.base + "/signin")
        browser.wait_js("return document.activeElement && document.activeElement.id === 'signin-account'", "the name field to have focus")
        browser.el("signin-account").send_keys(name)
        browser.el("signin-passphrase").send_keys(passphrase)
        browser.click("signin-submit")
        browser.wait(lambda d: d.current_url.endswith("/home"), "the home page after signing in")
        browser.wait_js("return document.getElementById('home-who').textContent !== ''", "the home page to show who is signed in")
        return browser

    def open_studio(self, browser):
        browser.driver.get(self.studio.base + "/")
        browser.wait_js("return typeof state === 'object' && document.getElementById('status').textContent !== '' "
                        "&& !document.getElementById('status').textContent.startsWith('Connecting')", "the studio page to connect")


class InvitationAndSignInTests(ServiceTestCase):
    studio_name = "service-signin"
    accounts = (("ann", "volunteer"), ("sam", "volunteer"), ("stan", "volunteer"), ("cora", "coordinator"),
                ("rita", "volunteer"), ("axel", "admin"))

    @classmethod
    def setUpStudio(cls):
        for name in ("sam", "stan", "cora", "rita"):
            status, _, body = cls.call("POST", "/api/invitations/accept",
                                       {"account": name, "token": cls.invitations[name][1], "passphrase": PASSPHRASE})
            if status != 201:
                raise AssertionError(f"accepting {name}'s invitation answered {status}: {body}")

    def test_the_invitation_sets_a_passphrase_in_the_browser_then_is_refused_twice(self):
        link, token = self.invitations["ann"]
        self.assertTrue(link.startswith("http://127.0.0.1:8765/invitation#account=ann&token="), link)
        browser = self.browser()
        browser.driver.get(self.studio.base + "/invitation#account=ann&token=" + token)
        browser.wait_js("return document.getElementById('rule').textContent !== ''", "the passphrase rule on the page")
        self.assertEqual(browser.text("rule"),
                         "At least 12 characters. A few ordinary words of your own, with spaces, make a good one; "
                         "not your name, and not mostly digits, symbols or common words such as password.")
        self.assertNotIn("#", browser.driver.current_url, "the secret stays in the address bar")
        self.assertIn("Welcome, ann.", browser.text("invitation-intro"))
        browser.el("invitation-passphrase").send_keys(PASSPHRASE)
        browser.el("invitation-again").send_keys(PASSPHRASE + "x")
        browser.click("invitation-submit")
        browser.wait_js("return document.getElementById('problem').textContent !== ''", "the page to say the two differ")
        self.assertEqual(browser.text("problem"), "The two passphrases are not the same: type the same passphrase in both fields.")
        browser.el("invitation-again").clear()
        browser.el("invitation-passphrase").clear()
        browser.el("invitation-passphrase").send_keys("password1234")  # the server's rule refuses it
        browser.el("invitation-again").send_keys("password1234")
        browser.click("invitation-submit")
        browser.wait_js("return document.getElementById('problem').textContent.startsWith('That passphrase is too easy')",
                        "the rule's refusal on the page")
        browser.el("invitation-passphrase").clear()
        browser.el("invitation-again").clear()
        browser.el("invitation-passphrase").send_keys(PASSPHRASE)
        browser.el("invitation-again").send_keys(PASSPHRASE)
        browser.click("invitation-submit")
        browser.wait(lambda d: d.current_url.endswith("/home"), "the home page after setting the passphrase")
        browser.wait_js("return document.getElementById('home-who').textContent === 'Signed in as ann'", "who is signed in")
        self.assertEqual(browser.text("home-role"), "Volunteer: you record the articles given to you or chosen by you.")
        # The link again, twice: refused, and the passphrase stays the one set.
        before = self.audit_lines()
        for _ in range(2):
            status, headers, body = self.accept("ann", OTHER_PASSPHRASE)
            self.assertEqual(status, 403)
            self.assertEqual(body, {"error": "This invitation link has been used already: ask the service's administrator for a new one."})
            self.assertNotIn("set-cookie", headers)
        self.assertEqual(self.audit_lines(), before)
        self.assertEqual(self.sign_in("ann", OTHER_PASSPHRASE)[0], 401)
        self.assertEqual(self.sign_in("ann")[0], 200)

    def test_a_guessed_invitation_is_refused_in_one_sentence(self):
        before = self.audit_lines()
        for account, token in (("axel", "A" * 43), ("nobody", self.invitations["axel"][1]), ("axel", "short")):
            status, _, body = self.call("POST", "/api/invitations/accept", {"account": account, "token": token, "passphrase": PASSPHRASE})
            self.assertEqual((status, body), (403, {"error": "This invitation link is not valid: ask the service's administrator for a new one."}))
        self.assertEqual(self.audit_lines(), before)

    def test_sign_in_and_sign_out_in_the_browser(self):
        browser = self.browser()
        browser.driver.get(self.studio.base + "/signin")
        browser.wait_js("return document.activeElement && document.activeElement.id === 'signin-account'", "the name field to have focus")
        browser.el("signin-account").send_keys("sam")
        browser.el("signin-passphrase").send_keys("not the passphrase at all")
        browser.click("signin-submit")
        browser.wait_js("return document.getElementById('problem').textContent !== ''", "the refusal on the page")
        self.assertEqual(browser.text("problem"), WRONG)
        browser.el("signin-passphrase").send_keys(PASSPHRASE)
        browser.click("signin-submit")
        browser.wait(lambda d: d.current_url.endswith("/home"), "the home page")
        browser.wait_js("return document.getElementById('home-who').textContent === 'Signed in as sam'", "who is signed in")
        cookie = browser.driver.get_cookie("narrate_account")
        self.assertTrue(cookie["httpOnly"])
        self.assertEqual(cookie["sameSite"], "Strict")
        self.assertEqual(cookie["path"], "/")
        self.assertFalse(cookie["secure"], "plain http on loopback: no Secure")
        stolen = "narrate_account=" + cookie["value"]
        self.assertEqual(self.me(stolen)[0], 200)
        browser.click("sign-out")
        browser.wait(lambda d: d.current_url.endswith("/signin"), "the sign-in page after signing out")
        browser.wait_js("return document.getElementById('status').textContent === 'You are signed out.'", "the signed-out notice")
        self.assertIsNone(browser.driver.get_cookie("narrate_account"))
        self.assertEqual(self.me(stolen)[0], 401, "the session outlived its sign-out")
        browser.driver.get(self.studio.base + "/home")
        browser.wait(lambda d: d.current_url.endswith("/signin"), "/home without a session to lead to the sign-in page")

    def test_a_stolen_cookie_after_sign_out_is_refused(self):
        status, cookie, body = self.sign_in("stan")
        self.assertEqual((status, body), (200, {"account": "stan", "role": "volunteer"}))
        status, _, body = self.me(cookie)
        self.assertEqual((status, body), (200, {"account": "stan", "role": "volunteer"}))
        self.assertEqual(self.upgrade(cookie), 101)
        status, headers, body = self.call("DELETE", "/api/session", cookie=cookie)
        self.assertEqual((status, body), (200, {"account": "stan"}))
        self.assertEqual(headers["set-cookie"], "narrate_account=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")
        for method, path in (("GET", "/api/me"), ("GET", "/"), ("GET", "/studio.js"), ("DELETE", "/api/session"), ("POST", "/api/session/everywhere")):
            status, headers, body = self.call(method, path, cookie=cookie, origin="own" if method != "GET" else None)
            if path == "/":
                self.assertEqual((status, headers.get("location")), (303, "/signin"))
            else:
                self.assertEqual(status, 401, f"{method} {path} with the old cookie")
        self.assertEqual(self.upgrade(cookie), 400)

    def test_sign_out_everywhere_ends_every_session(self):
        cookies = [self.sign_in("cora")[1] for _ in range(3)]
        status, _, body = self.call("POST", "/api/session/everywhere", cookie=cookies[0])
        self.assertEqual(status, 200)
        self.assertEqual(body["account"], "cora")
        self.assertGreaterEqual(int(body["sessionsEnded"]), 3)
        for cookie in cookies:
            self.assertEqual(self.me(cookie)[0], 401)
        self.assertEqual(self.studio.narrate_json("audit")[-1]["action"], "signed-out-everywhere")

    def test_requests_from_another_site_are_refused_and_change_nothing(self):
        _, cookie, _ = self.sign_in("cora")
        articles, audit = self.articles(), self.audit_lines()
        refusals = [
            ("POST", "/api/session/everywhere", None, EVIL, None),
            ("DELETE", "/api/session", None, EVIL, None),
            ("POST", "/api/articles", {"title": "Forged"}, EVIL, None),
            ("POST", "/api/articles", {"title": "Forged"}, "null", None),
            ("POST", "/api/articles", {"title": "Forged"}, None, None),  # no Origin, no Sec-Fetch-Site
            ("POST", "/api/articles", {"title": "Forged"}, None, {"Sec-Fetch-Site": "cross-site"}),
        ]
        for method, path, body, origin, headers in refusals:
            status, _, answer = self.call(method, path, body, cookie=cookie, origin=origin, headers=headers)
            self.assertEqual((status, answer), (403, {"error": FOREIGN}), f"{method} {path} from {origin} {headers}")
        for content_type in ("application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"):
            status, _, answer = self.call("POST", "/api/articles", b"title=Forged", cookie=cookie, headers={"Content-Type": content_type})
            self.assertEqual(status, 415, content_type)
            self.assertEqual(answer, {"error": "The service takes JSON requests only: reload the page and try again."})
        status, _, answer = self.call("POST", "/api/session", b"account=cora&passphrase=x", origin=EVIL,
                                      headers={"Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(status, 403)
        self.assertEqual(self.upgrade(cookie, origin=EVIL), 400)
        self.assertEqual(self.upgrade(cookie, origin=None), 400)
        self.assertEqual(self.upgrade(cookie), 101)
        self.assertEqual(self.me(cookie)[0], 200, "a forged sign-out ended the session")
        self.assertEqual(self.articles(), articles)
        self.assertEqual(self.audit_lines(), audit)
        # From the service's own page the same request goes through (Sec-Fetch-Site without Origin too).
        status, _, _ = self.call("GET", "/api/me", cookie=cookie, origin=None, headers={"Sec-Fetch-Site": "same-origin"})
        self.assertEqual(status, 200)

    def test_the_sign_in_limit_holds_even_for_the_right_passphrase(self):
        for attempt in range(5):
            status, cookie, body = self.sign_in("rita", f"wrong guess number {attempt}")
            self.assertEqual((status, cookie, body), (401, None, {"error": WRONG}))
        status, cookie, body = self.sign_in("rita")
        self.assertEqual(status, 401)
        self.assertIsNone(cookie, "the sixth try signed in")
        self.assertRegex(body["error"], r"^Too many wrong passphrases for this account or from this address: try again after "
                                        r"\d{4}-\d\d-\d\d \d\d:\d\d UTC\.$")
        # A name that does not exist gets the same sentence as a wrong passphrase.
        self.assertEqual(self.sign_in("nobody.here", "whatever it is")[2], {"error": WRONG})

    def test_every_route_without_a_session_is_refused_and_changes_nothing(self):
        articles, audit = self.articles(), self.audit_lines()
        for method, path in (("GET", "/api/me"), ("DELETE", "/api/session"), ("POST", "/api/session/everywhere"),
                             ("POST", "/api/articles"), ("GET", "/audio"), ("POST", "/api/outbox/abc/retry"),
                             ("GET", "/studio.js"), ("GET", "/studio.css"), ("GET", "/microphone-worklet.js")):
            body = {"title": "Sneaked in"} if path == "/api/articles" else None
            status, _, answer = self.call(method, path, body, origin="own" if method != "GET" else None)
            self.assertEqual(status, 401, f"{method} {path}")
            if path.startswith("/api/") or path == "/audio":
                self.assertEqual(answer, {"error": SIGN_IN_FIRST}, f"{method} {path}")
        for path in ("/", "/home"):
            status, headers, _ = self.call("GET", path, origin=None)
            self.assertEqual((status, headers.get("location")), (303, "/signin"), path)
        for cookie in (None, "narrate_account=" + "A" * 43, "narrate_session=" + "0" * 64):
            self.assertEqual(self.upgrade(cookie), 400)
        self.assertEqual(self.articles(), articles)
        self.assertEqual(self.audit_lines(), audit)
        # The public pages need no session.
        for path in ("/signin", "/invitation", "/service.js", "/service.css", "/api/passphrase-rule"):
            self.assertEqual(self.call("GET", path, origin=None)[0], 200, path)

    def test_the_new_pages_pass_axe_and_fit_a_phone(self):
        _, token = self.invitations["axel"]
        browser = self.browser()
        for name, path, ready in (
            ("sign-in", "/signin", "document.activeElement.id === 'signin-account'"),
            ("invitation", "/invitation#account=axel&token=" + token, "document.getElementById('rule').textContent !== ''"),
        ):
            browser.driver.get(self.studio.base + path)
            browser.wait_js("return " + ready, f"the {name} page")
            self.axe_check(browser, name)
            browser.screenshot("service-" + name)
        browser.el("invitation-passphrase").send_keys(PASSPHRASE)
        browser.el("invitation-again").send_keys(PASSPHRASE)
        browser.click("invitation-submit")
        browser.wait_js("return document.getElementById('home-who').textContent === 'Signed in as axel'", "the home page")
        self.axe_check(browser, "home")
        browser.screenshot("service-home")
        browser.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 375, "height": 800, "deviceScaleFactor": 1, "mobile": True})
        for path in ("/home", "/signin"):
            browser.driver.get(self.studio.base + path)
            browser.wait_js("return document.readyState === 'complete'", path)
            self.assertLessEqual(browser.js("return document.documentElement.scrollWidth"), 375, f"{path} scrolls sideways at 375 px")
            for element in browser.driver.find_elements(By.CSS_SELECTOR, "button, input, a.button"):
                if element.is_displayed():
                    self.assertGreaterEqual(element.size["height"], 44, f"a small target on {path}: {element.get_attribute('id')}")


class ArticleAuthorisationTests(ServiceTestCase):
    """A volunteer may not create articles, hear or change someone else's; a coordinator may create one."""

    studio_name = "service-articles"
    accounts = (("vera", "volunteer"), ("cora", "coordinator"), ("vic", "volunteer"), ("eve", "volunteer"))

    @classmethod
    def setUpStudio(cls):
        cls.accept_invitations()

    def test_a_volunteer_is_refused_what_is_not_theirs(self):
        _, volunteer, _ = self.sign_in("vera")
        _, coordinator, _ = self.sign_in("cora")
        before = self.articles()
        status, _, body = self.call("POST", "/api/articles", {"title": "Not mine to add"}, cookie=volunteer)
        self.assertEqual((status, body), (403, {"error": "Your account may not do that: ask the service's coordinator if it should."}))
        self.assertEqual(self.articles(), before)
        status, _, body = self.call("POST", "/api/outbox/abc/retry", cookie=volunteer)
        self.assertEqual(status, 403)
        # The coordinator adds one for another narrator; it opens in the studio.
        status, _, body = self.call("POST", "/api/articles", {"title": "Council news", "narrator": "someone.else"}, cookie=coordinator)
        self.assertEqual(status, 201, body)
        article = body["article"]
        self.assertEqual(len(self.articles()), len(before) + 1)
        status, _, body = self.call("GET", "/audio", cookie=volunteer, origin=None)
        self.assertEqual((status, body), (403, {"error": "Your account may not change this article: ask the service's coordinator if it should."}))
        # Through the page: a key that would record is refused with a sentence, nothing starts.
        browser = self.browser_sign_in("vera")
        self.open_studio(browser)
        browser.js("send({type: 'key', key: 'r'})")
        browser.wait_js("return document.getElementById('problem').textContent.startsWith('Your account may not change this article')",
                        "the refusal on the studio page")
        self.assertEqual(browser.state()["activity"]["kind"], "ready")
        self.assertIsNone(browser.state().get("header"), "someone else's article was shown to the volunteer")
        self.assertNotIn("Council news", browser.js("return document.body.innerText"))
        self.assertEqual(self.studio.chunks(article), [])
        # The coordinator's page shows it.
        coordinator_page = self.browser_sign_in("cora")
        self.open_studio(coordinator_page)
        coordinator_page.wait_js("return state.header && state.header.title === 'Council news'", "the article on the coordinator's page")
        coordinator_page.wait_js("return document.getElementById('account-home').textContent === 'cora: your account'",
                                 "the way back to the account's home page")
        self.axe_check(coordinator_page, "studio in a reading service")
        coordinator_page.click("account-home")
        coordinator_page.wait(lambda d: d.current_url.endswith("/home"), "the home page from the studio")

    def test_a_disabled_account_and_a_session_signed_out_everywhere_lose_their_open_page_within_seconds(self):
        pages = {}
        for name in ("vic", "eve"):
            pages[name] = self.browser_sign_in(name)
            self.open_studio(pages[name])
        started = time.monotonic()
        result = self.studio.narrate("accounts", "disable", "vic")
        self.assertEqual(result.returncode, 0, result.stderr)
        _, eve_elsewhere, _ = self.sign_in("eve")
        self.assertEqual(self.call("POST", "/api/session/everywhere", cookie=eve_elsewhere)[0], 200)
        for name, page in pages.items():
            page.wait_js(f"return document.getElementById('problem').textContent === {json.dumps(ENDED)}",
                         f"{name}'s page to be closed with the sentence", timeout=10)
            self.assertEqual(page.text("status"), "Signed out.")
        elapsed = time.monotonic() - started
        print(f"\nboth open pages closed {elapsed:.1f} s after the account was disabled / signed out everywhere")
        self.assertLess(elapsed, 6.0)
        # They stay closed: the page does not reconnect, and the server refuses it anyway.
        time.sleep(1.5)
        self.assertFalse(pages["vic"].js("return page.connected"))
        self.assertEqual(self.sign_in("vic")[0], 401)


class ProxyTests(ServiceTestCase):
    """Behind a reverse proxy at 127.0.0.1 (these requests come from it): its X-Forwarded-* are believed."""

    studio_name = "service-proxy"
    accounts = (("pia", "volunteer"),)

    @classmethod
    def serve_arguments(cls):
        return ("--behind-proxy", "127.0.0.1")

    @classmethod
    def setUpStudio(cls):
        status, _, body = cls.call("POST", "/api/invitations/accept",
                                   {"account": "pia", "token": cls.invitations["pia"][1], "passphrase": PASSPHRASE},
                                   headers={"X-Forwarded-For": "198.51.100.200"})
        if status != 201:
            raise AssertionError(f"accepting pia's invitation answered {status}: {body}")

    def test_forwarded_https_makes_the_cookie_secure_and_the_origin_https(self):
        forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "narrate.example.org", "X-Forwarded-For": "203.0.113.9"}
        status, headers, body = self.call("POST", "/api/session", {"account": "pia", "passphrase": PASSPHRASE},
                                          origin="https://narrate.example.org", headers=forwarded)
        self.assertEqual(status, 200, body)
        self.assertTrue(headers["set-cookie"].endswith("; Secure"), headers["set-cookie"])
        # The browser's origin is the proxy's https one: the server's own http origin is now foreign.
        status, _, _ = self.call("POST", "/api/session", {"account": "pia", "passphrase": PASSPHRASE}, headers=forwarded)
        self.assertEqual(status, 403)

    def test_the_limit_counts_the_forwarded_address(self):
        guesser = {"X-Forwarded-For": "198.51.100.7"}
        for attempt in range(20):
            status, _, body = self.call("POST", "/api/session", {"account": f"made.up.{attempt}", "passphrase": "guess guess guess"},
                                        headers=guesser)
            self.assertEqual((status, body), (401, {"error": WRONG}), attempt)
        status, _, body = self.call("POST", "/api/session", {"account": "pia", "passphrase": PASSPHRASE}, headers=guesser)
        self.assertEqual(status, 401)
        self.assertTrue(body["error"].startswith("Too many wrong passphrases"), body)
        # The account's owner, from another address behind the same proxy, gets in.
        status, _, body = self.call("POST", "/api/session", {"account": "pia", "passphrase": PASSPHRASE},
                                    headers={"X-Forwarded-For": "198.51.100.8"})
        self.assertEqual(status, 200, body)


class ListeningTests(unittest.TestCase):
    """A reading service on a network address: https or a proxy, never plain http."""

    REFUSAL = ("Error: This library has accounts, so narrate serve is a reading service, and --listen 0.0.0.0:0 would carry "
               "passphrases and session cookies over plain http: give --tls-cert and --tls-key to serve https, or "
               "--behind-proxy with the address of a reverse proxy that serves https.")

    def test_plain_http_on_the_network_is_refused_naming_both_ways(self):
        studio = Studio("service-listen")
        try:
            add_account(studio, "ann", "admin")
            for extra in ((), ("--allow-plain-http",)):
                result = subprocess.run([wait_for_binary(), "serve", "--listen", "0.0.0.0:0", "--device", "usbmic", *extra],
                                        env=studio.env, capture_output=True, text=True, timeout=30)
                self.assertEqual(result.returncode, 64, result.stderr)
                self.assertEqual(result.stdout, "")
                self.assertEqual(result.stderr.splitlines()[0], self.REFUSAL)
        finally:
            studio.remove()

    def test_https_or_a_proxy_lets_it_listen_on_the_network(self):
        studio = Studio("service-network")
        try:
            _, token = add_account(studio, "ann", "admin")
            cert, key = os.path.join(studio.folder, "cert.pem"), os.path.join(studio.folder, "key.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                            "-days", "2", "-subj", "/CN=localhost"], check=True, capture_output=True)
            for extra, scheme in ((("--tls-cert", cert, "--tls-key", key), "https://"), (("--behind-proxy", "127.0.0.1"), "http://")):
                studio.start(listen="0.0.0.0:0", extra=extra)
                self.assertTrue(studio.first_url.startswith(scheme) and studio.first_url.endswith("/signin"), studio.first_url)
                self.assertNotIn("Serving plain http", studio.stderr())
                if scheme == "https://":
                    # Over https the session cookie is Secure.
                    connection = http.client.HTTPSConnection(studio.host, studio.port, timeout=30,
                                                             context=ssl._create_unverified_context())
                    try:
                        connection.request("POST", "/api/invitations/accept",
                                           json.dumps({"account": "ann", "token": token, "passphrase": PASSPHRASE}),
                                           {"Origin": studio.base, "Content-Type": "application/json"})
                        response = connection.getresponse()
                        response.read()
                        self.assertEqual(response.status, 201)
                        self.assertTrue(response.getheader("Set-Cookie", "").endswith("; Max-Age=43200; Secure"),
                                        response.getheader("Set-Cookie"))
                    finally:
                        connection.close()
                self.assertEqual(studio.stop(), 0)
                studio.stdout_lines = []
        finally:
            studio.remove()

    def test_a_proxy_without_accounts_is_refused(self):
        studio = Studio("service-noaccounts")
        try:
            result = subprocess.run([wait_for_binary(), "serve", "--listen", "127.0.0.1:0", "--behind-proxy", "127.0.0.1"],
                                    env=studio.env, capture_output=True, text=True, timeout=30)
            self.assertEqual(result.returncode, 64, result.stderr)
            self.assertEqual(result.stderr.strip(),
                             "--behind-proxy is for a reading service, and this library has no accounts yet: add the first with "
                             "narrate accounts add NAME --role admin, or leave out --behind-proxy.")
            result = subprocess.run([wait_for_binary(), "serve", "--behind-proxy", "proxy.example"],
                                    env=studio.env, capture_output=True, text=True, timeout=30)
            self.assertEqual(result.returncode, 64)
            self.assertEqual(result.stderr.splitlines()[0],
                             "Error: --behind-proxy takes the proxy's IP address, e.g. 127.0.0.1 or ::1, not \"proxy.example\".")
        finally:
            studio.remove()


if __name__ == "__main__":
    unittest.main()
