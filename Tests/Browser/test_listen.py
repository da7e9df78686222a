"""Off loopback: plain http only by an explicit choice. `serve --listen 0.0.0.0:…` without TLS is
refused in one sentence naming both ways on; with --allow-plain-http it warns, prints an address
other computers can reach (not 0.0.0.0), and answers only to this machine's own names."""

import subprocess
import unittest

from studio_fixture import Studio, StudioTestCase, wait_for_binary

REFUSAL = ("--listen 0.0.0.0:0 lets other computers in over plain http, where the link's token and the recordings "
           "travel unencrypted: give --tls-cert and --tls-key to serve https, or add --allow-plain-http to serve "
           "plain http all the same.")


class PlainHTTPRefusedTests(unittest.TestCase):
    def test_plain_http_off_loopback_is_refused_naming_both_ways_on(self):
        studio = Studio("listen-refused")
        try:
            result = subprocess.run([wait_for_binary(), "serve", "--listen", "0.0.0.0:0", "--device", "usbmic"],
                                    env=studio.env, capture_output=True, text=True, timeout=30)
            self.assertEqual(result.returncode, 64, result.stderr)
            self.assertEqual(result.stdout, "")
            self.assertEqual(result.stderr.splitlines()[0], "Error: " + REFUSAL)
            help_text = subprocess.run([wait_for_binary(), "serve", "--help"], env=studio.env, capture_output=True,
                                       text=True, timeout=30).stdout
            self.assertIn("--allow-plain-http", help_text)
            self.assertIn("Off this computer, plain http", " ".join(help_text.split()))
        finally:
            studio.remove()


class PlainHTTPAllowedTests(StudioTestCase):
    studio_name = "listen-plain"

    @classmethod
    def setUpClass(cls):
        cls.browsers = []
        cls.studio = Studio(cls.studio_name)
        try:
            cls.studio.start(listen="0.0.0.0:0", extra=("--allow-plain-http",))
        except BaseException:
            cls.tearDownClass()
            raise

    def test_the_link_names_a_reachable_address_and_a_warning_is_printed(self):
        self.assertNotIn("0.0.0.0", self.studio.first_url)
        self.assertTrue(self.studio.first_url.startswith("http://"), self.studio.first_url)
        self.assertNotIn(self.studio.host, ("127.0.0.1", "localhost"), "a link other computers cannot open")
        # The port the system picked for port 0, not the 0 asked for.
        self.assertIn(f"Serving plain http on 0.0.0.0:{self.studio.port}: anyone on the network can read the link's token and the recordings.",
                      self.studio.stderr())
        cookie = self.studio.session_cookie()  # through the printed address
        self.assertEqual(self.studio.request("GET", "/", {"Cookie": cookie})[0], 200)

    def test_the_host_check_still_holds_off_loopback(self):
        cookie = self.studio.session_cookie()
        status, _, body = self.studio.request("GET", "/", {"Cookie": cookie, "Host": f"evil.example:{self.studio.port}"})
        self.assertEqual(status, 403)
        self.assertEqual(body.decode().strip(), "This studio answers only to this computer's own names and addresses.")
        self.assertEqual(self.studio.request("GET", "/", {"Cookie": cookie, "Host": f"localhost:{self.studio.port}"})[0], 200)


if __name__ == "__main__":
    unittest.main()
