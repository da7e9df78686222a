"""Who gets in: the token, the session cookie, the Origin (also of the WebSocket upgrade), the
Host, and the 2 MiB limit of a new article's text (over raw HTTP and through the page's form)."""

import base64
import http.client
import json
import os
import unittest

from studio_fixture import StudioTestCase

EVIL = "http://evil.example"


class SecurityTests(StudioTestCase):
    studio_name = "security"

    @classmethod
    def setUpStudio(cls):
        cls.cookie = cls.studio.session_cookie()

    @property
    def origin(self):
        return self.studio.base

    def assertSentence(self, body, what):
        text = body.decode("utf-8", "replace").strip()
        self.assertTrue(text, f"{what}: empty body")
        return text

    def assertJSONError(self, body, what):
        try:
            answer = json.loads(body)
        except ValueError:
            self.fail(f"{what}: the body is not JSON: {body[:300]!r}")
        self.assertIsInstance(answer, dict, what)
        self.assertIsInstance(answer.get("error"), str, f"{what}: {answer}")
        self.assertTrue(answer["error"].strip().endswith("."), f"{what}: not a sentence: {answer['error']!r}")
        return answer["error"]

    def upgrade(self, headers):
        """A raw WebSocket upgrade of /live: the status and the headers."""
        connection = http.client.HTTPConnection(self.studio.host, self.studio.port, timeout=10)
        try:
            connection.putrequest("GET", "/live", skip_host="Host" in headers, skip_accept_encoding=True)
            base = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                    "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode()}
            for name, value in {**base, **headers}.items():
                connection.putheader(name, value)
            connection.endheaders()
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}
        finally:
            connection.close()

    def article_request(self, body, headers=None):
        return self.studio.request("POST", "/api/articles", {
            "Cookie": self.cookie, "Origin": self.origin, "Content-Type": "application/json", **(headers or {})}, body)

    # ------------------------------------------------------------------------------------------

    def test_no_token_is_401(self):
        for path in ("/", "/studio.js", "/audio", "/microphone-worklet.js"):
            status, _, body = self.studio.request("GET", path)
            self.assertEqual(status, 401, f"GET {path} without a cookie")
            self.assertSentence(body, path)
        status, _, body = self.studio.request("POST", "/api/articles", {"Content-Type": "application/json"}, b'{"title":"x"}')
        self.assertEqual(status, 401)
        self.assertJSONError(body, "POST /api/articles without a cookie")

    def test_wrong_token_is_401(self):
        status, headers, body = self.studio.request("GET", "/?token=" + "0" * len(self.studio.token))
        self.assertEqual(status, 401)
        self.assertNotIn("set-cookie", headers)
        self.assertSentence(body, "wrong token")
        status, _, _ = self.studio.request("GET", "/?token=")
        self.assertEqual(status, 401)

    def test_wrong_cookie_is_401(self):
        status, _, _ = self.studio.request("GET", "/", {"Cookie": "narrate_session=" + "0" * 64})
        self.assertEqual(status, 401)

    def test_right_token_sets_the_cookie(self):
        status, headers, _ = self.studio.request("GET", "/?token=" + self.studio.token)
        self.assertEqual(status, 303)
        self.assertEqual(headers.get("location"), "/")
        cookie = headers.get("set-cookie", "")
        for attribute in ("HttpOnly", "SameSite=Strict", "Path=/"):
            self.assertIn(attribute, cookie)
        status, headers, body = self.studio.request("GET", "/", {"Cookie": self.cookie})
        self.assertEqual(status, 200)
        self.assertIn(b"<html", body)

    def test_a_link_lets_one_browser_in_and_the_next_link_another(self):
        """The token is single-use: each exchange is a new session and a new link, which narrate
        serve prints and records for serve --open; the used link lets nobody else in."""
        used = self.studio.token
        status, headers, _ = self.studio.request("GET", "/?token=" + used)
        self.assertEqual(status, 303)
        first = headers["set-cookie"].split(";", 1)[0]
        status, headers, body = self.studio.request("GET", "/?token=" + used)
        self.assertEqual(status, 401, "a used link let a second browser in")
        self.assertNotIn("set-cookie", headers)
        self.assertEqual(body.decode().strip(),
                         "That link was used already or is not this studio's: each link lets one browser in, "
                         "so open the newest link narrate serve gave.")
        # The browser that used it, reloading the link, goes on to the page.
        status, headers, _ = self.studio.request("GET", "/?token=" + used, {"Cookie": first})
        self.assertEqual((status, headers.get("location")), (303, "/"))
        self.assertNotIn("set-cookie", headers)
        fresh = self.studio.token
        self.assertNotEqual(fresh, used)
        self.assertIn(f"The link let a browser in and works no more; for another browser, open {self.studio.url}",
                      self.studio.stdout_lines)
        status, headers, _ = self.studio.request("GET", "/?token=" + fresh)
        self.assertEqual(status, 303)
        second = headers["set-cookie"].split(";", 1)[0]
        self.assertNotEqual(second, first, "a second exchange gave the same session")
        for cookie in (first, second):
            self.assertEqual(self.studio.request("GET", "/", {"Cookie": cookie})[0], 200)

    def test_host_names_that_only_begin_like_loopback_are_403(self):
        port = self.studio.port
        for host in (f"127.evil.example:{port}", f"127.0.0.1.nip.io:{port}", f"localhost.evil.example:{port}", "127.0.0.256"):
            status, _, body = self.studio.request("GET", "/", {"Cookie": self.cookie, "Host": host})
            self.assertEqual(status, 403, f"Host: {host}")
            self.assertEqual(body.decode().strip(), "This studio answers only to 127.0.0.1 and localhost.")
        for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"127.8.9.10:{port}"):
            self.assertEqual(self.studio.request("GET", "/", {"Cookie": self.cookie, "Host": host})[0], 200, f"Host: {host}")

    def test_foreign_origin_post_is_403(self):
        status, _, body = self.article_request(json.dumps({"title": "From elsewhere"}).encode(), {"Origin": EVIL})
        self.assertEqual(status, 403)
        self.assertJSONError(body, "POST with a foreign Origin")
        self.assertEqual(self.studio.narrate_json("list"), [], "a refused request created an article")

    def test_foreign_host_is_403(self):
        """DNS rebinding: a loopback listener answers only to loopback names."""
        status, _, _ = self.studio.request("GET", "/", {"Cookie": self.cookie, "Host": f"evil.example:{self.studio.port}"})
        self.assertEqual(status, 403)

    def test_websocket_upgrade_is_refused_without_the_studios_origin_or_cookie(self):
        cases = {
            "a foreign Origin": {"Cookie": self.cookie, "Origin": EVIL},
            "no Origin": {"Cookie": self.cookie},
            "no cookie": {"Origin": self.origin},
            "a foreign Host and its Origin (DNS rebinding)": {
                "Cookie": self.cookie, "Host": f"evil.example:{self.studio.port}", "Origin": f"http://evil.example:{self.studio.port}"},
        }
        for what, headers in cases.items():
            status, _ = self.upgrade(headers)
            self.assertNotEqual(status, 101, f"the upgrade of /live with {what} was accepted")
            self.assertGreaterEqual(status, 400, f"the upgrade of /live with {what}")

    def test_websocket_refusals_are_400_with_nothing_upgraded(self):
        """Protocol.md: hummingbird-websocket answers every refused upgrade 400 Bad Request (its
        upgrader writes that status whatever the router said), and closes the connection."""
        for what, headers in {
            "foreign Origin": {"Cookie": self.cookie, "Origin": EVIL},
            "no Origin": {"Cookie": self.cookie},
            "no cookie": {"Origin": self.origin},
        }.items():
            status, answer = self.upgrade(headers)
            self.assertEqual(status, 400, f"the upgrade of /live with {what}")
            self.assertNotIn("sec-websocket-accept", answer, f"the upgrade of /live with {what}")

    def test_websocket_upgrade_with_cookie_and_origin_is_101(self):
        status, headers = self.upgrade({"Cookie": self.cookie, "Origin": self.origin})
        self.assertEqual(status, 101, "upgrade with the cookie and the studio's Origin")
        self.assertEqual(headers.get("upgrade", "").lower(), "websocket")
        self.assertIn("sec-websocket-accept", headers)

    def test_text_over_2_mib_is_413(self):
        # A text of 2 MiB + 1 byte in a body under the request limit.
        text = "a" * ((2 << 20) + 1)
        status, headers, body = self.article_request(json.dumps({"title": "Too long", "text": text, "textName": "long.md"}).encode())
        self.assertEqual(status, 413)
        self.assertTrue(headers.get("content-type", "").startswith("application/json"), headers)
        sentence = self.assertJSONError(body, "413")
        self.assertEqual(sentence, "The text file is too big: the studio takes texts of at most 2 MB.")
        # A body far over it.
        text = "a" * (5 << 20)
        status, _, body = self.article_request(json.dumps({"title": "Far too long", "text": text, "textName": "huge.md"}).encode())
        self.assertEqual(status, 413)
        self.assertJSONError(body, "413 for 5 MiB")
        self.assertEqual(self.studio.narrate_json("list"), [], "a refused text created an article")

    def test_a_bad_form_is_400_with_a_sentence(self):
        for body in (b"not json", b'{"title": ""}', b'{"title": "   "}',
                     b'{"title": "Empty text", "text": "", "textName": "empty.md"}'):
            status, _, answer = self.article_request(body)
            self.assertEqual(status, 400, body)
            self.assertJSONError(answer, body.decode())
        self.assertEqual(self.studio.narrate_json("list"), [], "a refused form created an article")

    def test_the_form_refuses_a_text_over_2_mib(self):
        page = self.browser()
        page.open(self.studio)
        page.show_new_article_form()
        big = os.path.join(self.studio.folder, "big.md")
        with open(big, "w") as f:
            f.write("# Big\n\n" + ("A paragraph that goes on. " * 40 + "\n\n") * 2200)
        self.assertGreater(os.path.getsize(big), 2 << 20)
        page.el("form-title").send_keys("Big")
        page.el("form-text").send_keys(big)
        page.wait(lambda d: page.visible("form-problem") and page.text("form-problem") != "", "#form-problem to show")
        problem = page.text("form-problem")
        self.assertIn("big.md", problem)
        self.assertRegex(problem, r"too (big|large)")
        self.assertRegex(problem, r"2 Mi?B")
        # Pressing Create anyway sends nothing and keeps the sentence.
        page.click("form-create")
        page.wait(lambda d: page.text("form-create") == "Start this article", "the form to be idle")
        self.assertEqual(page.text("form-problem"), problem)
        self.assertEqual(self.studio.narrate_json("list"), [])


if __name__ == "__main__":
    unittest.main()
