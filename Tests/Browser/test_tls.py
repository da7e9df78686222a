"""https with --tls-cert and --tls-key (a self-signed certificate made by openssl): the link is
https, the cookie is Secure as well as HttpOnly and SameSite=Strict, and the page's WebSocket
upgrade works over TLS; plain http to the same port gets nowhere."""

import base64
import http.client
import os
import ssl
import subprocess
import unittest

from studio_fixture import Studio


class TLSTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.studio = Studio("tls")
        cert, key = os.path.join(cls.studio.folder, "cert.pem"), os.path.join(cls.studio.folder, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "2", "-subj", "/CN=localhost"], check=True, capture_output=True)
        cls.studio.start(extra=("--tls-cert", cert, "--tls-key", key))

    @classmethod
    def tearDownClass(cls):
        status = cls.studio.stop()
        cls.studio.remove()
        if status != 0:
            raise AssertionError(f"narrate serve exited {status} after SIGINT")

    def connection(self):
        return http.client.HTTPSConnection(self.studio.host, self.studio.port, timeout=10, context=ssl._create_unverified_context())

    def test_https_link_secure_cookie_and_websocket(self):
        self.assertTrue(self.studio.url.startswith("https://127.0.0.1:"), self.studio.url)
        connection = self.connection()
        connection.request("GET", "/?token=" + self.studio.token)
        response = connection.getresponse()
        response.read()
        self.assertEqual(response.status, 303)
        cookie = response.getheader("set-cookie")
        self.assertRegex(cookie, r"^narrate_session=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=/; Secure$")
        session = cookie.split(";", 1)[0]
        connection.request("GET", "/", headers={"Cookie": session})
        page = connection.getresponse()
        self.assertEqual(page.status, 200)
        self.assertIn(b"<html", page.read())
        connection.close()

        upgrade = self.connection()
        upgrade.putrequest("GET", "/live", skip_accept_encoding=True)
        for name, value in {"Cookie": session, "Origin": self.studio.base, "Connection": "Upgrade", "Upgrade": "websocket",
                            "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode()}.items():
            upgrade.putheader(name, value)
        upgrade.endheaders()
        self.assertEqual(upgrade.getresponse().status, 101)
        upgrade.close()

    def test_plain_http_to_the_https_port_is_not_served(self):
        connection = http.client.HTTPConnection(self.studio.host, self.studio.port, timeout=10)
        with self.assertRaises((http.client.HTTPException, ConnectionError, OSError)):
            connection.request("GET", "/?token=" + self.studio.token)
            connection.getresponse().read()
        connection.close()


if __name__ == "__main__":
    unittest.main()
