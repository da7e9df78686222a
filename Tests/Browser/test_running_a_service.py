"""The reading service behind a real reverse proxy, as RunningAService.md sets it up: Debian's nginx,
run as this user on a free port with its own configuration in the test's folder and a throwaway
certificate from openssl, in front of `narrate serve --behind-proxy 127.0.0.1`. The nginx
configuration is the article's own block, read from the article (only the port, the certificate's
paths and the service's port put in), so the article cannot drift from what is tested. Through
nginx: sign-in gives a Secure cookie, and an article's studio page in Chromium connects over the
WebSocket and gets its state. Straight to narrate from another address: X-Forwarded-* are not
believed. And the article's systemd unit passes `systemd-analyze verify`."""

import http.client
import json
import os
import pwd
import re
import shutil
import socket
import ssl
import subprocess
import time
import unittest

from test_service import PASSPHRASE, ServiceTestCase, WRONG

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTICLE = os.path.join(REPO, "Sources", "Narration", "Narration.docc", "RunningAService.md")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
TITLE = "Harbour lights restored"


def article_blocks(language):
    """The article's code blocks in `language`, verbatim, in order."""
    with open(ARTICLE) as f:
        return re.findall(r"^```" + language + r"\n(.*?)^```$", f.read(), re.MULTILINE | re.DOTALL)


def article_block(language, number=1, of=1):
    """The article's `number`th code block in `language` (of `of`), verbatim."""
    blocks = article_blocks(language)
    assert len(blocks) == of, f"RunningAService.md has {len(blocks)} {language} blocks, not {of}"
    return blocks[number - 1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    """nginx as this user: the article's server block inside a configuration of its own folder.
    With several upstream ports, the article's "Several hosts": its upstream group of them, and
    its lines that send the server block there in place of the one address."""

    def __init__(self, folder, port, certificate, key, upstream_ports):
        self.folder = os.path.join(folder, "nginx")
        os.makedirs(self.folder)
        self.port = port
        site = article_block("nginx", 1, of=3)
        # The article's server, with this test's port, certificate and service put in.
        replacements = {
            "listen 443 ssl;": f"listen 127.0.0.1:{port} ssl;",
            "/etc/letsencrypt/live/narrate.example.org/fullchain.pem": certificate,
            "/etc/letsencrypt/live/narrate.example.org/privkey.pem": key,
        }
        if len(upstream_ports) == 1:
            replacements["        proxy_pass http://127.0.0.1:8765;\n"] = f"        proxy_pass http://127.0.0.1:{upstream_ports[0]};\n"
        else:
            replacements["        proxy_pass http://127.0.0.1:8765;\n"] = article_block("nginx", 3, of=3)
            upstream = article_block("nginx", 2, of=3)
            addresses = re.findall(r"server (10\.0\.0\.\d+:8765) ", upstream)
            assert len(addresses) == len(upstream_ports), f"the article's upstream group has {len(addresses)} hosts, not {len(upstream_ports)}"
            for address, upstream_port in zip(addresses, upstream_ports):
                upstream = upstream.replace(f"server {address} ", f"server 127.0.0.1:{upstream_port} ")
            site = upstream + "\n" + site
        for old, new in replacements.items():
            assert site.count(old) == 1, f"the article's nginx block no longer has {old!r} once"
            site = site.replace(old, new)
        temporary = "\n".join(f"    {kind}_temp_path {self.folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        # As root (in a container), nginx would hand its workers to "nobody", who cannot read the key.
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
        self.access_log = os.path.join(self.folder, "access.log")
        self.error_log = os.path.join(self.folder, "error.log")
        self.configuration = os.path.join(self.folder, "nginx.conf")
        with open(self.configuration, "w") as f:
            f.write(f"{user}worker_processes 1;\npid {self.folder}/nginx.pid;\nerror_log {self.error_log};\n"
                    f"events {{ worker_connections 256; }}\nhttp {{\n    access_log {self.access_log};\n{temporary}\n\n{site}}}\n")
        self.process = subprocess.Popen([NGINX, "-p", self.folder, "-c", self.configuration, "-e", self.error_log, "-g", "daemon off;"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"nginx exited {self.process.returncode}: {self.process.stderr.read()} {self.log()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"nginx did not listen on {port}: {self.log()}")

    def log(self):
        try:
            with open(self.error_log) as f:
                return f.read()[-2000:]
        except OSError:
            return ""

    def access(self):
        with open(self.access_log) as f:
            return f.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(20)
        self.process.stderr.close()


class BehindNginxTests(ServiceTestCase):
    studio_name = "service-nginx"
    accounts = (("vera", "volunteer"), ("cora", "coordinator"))

    @classmethod
    def serve_arguments(cls):
        return ("--behind-proxy", "127.0.0.1")

    @classmethod
    def setUpStudio(cls):
        folder = cls.studio.folder
        cls.certificate, cls.key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", cls.key, "-out", cls.certificate,
                        "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                       check=True, capture_output=True)
        cls.nginx = Nginx(folder, free_port(), cls.certificate, cls.key, [cls.studio.port])
        cls.proxy = f"https://localhost:{cls.nginx.port}"
        text = os.path.join(folder, "harbour.txt")
        with open(text, "w") as f:
            f.write("The old harbour lights shine again after a winter of repairs.\n")
        cls.article = cls.studio.narrate_json("desk", "add", "--title", TITLE, "--text", text, "--deadline", "2031-05-04")["id"]
        result = cls.studio.narrate("desk", "assign", cls.article, "vera")
        if result.returncode != 0:
            raise AssertionError(f"narrate desk assign exited {result.returncode}: {result.stderr}")
        for name, _ in cls.accounts:
            status, _, body = cls.through_proxy("POST", "/api/invitations/accept",
                                                {"account": name, "token": cls.invitations[name][1], "passphrase": PASSPHRASE})
            if status != 201:
                raise AssertionError(f"accepting {name}'s invitation through nginx answered {status}: {body}")

    @classmethod
    def tearDownClass(cls):
        nginx = getattr(cls, "nginx", None)
        if nginx:
            nginx.stop()
        super().tearDownClass()

    @classmethod
    def through_proxy(cls, method, path, body=None, cookie=None, headers=None):
        """(status, lower-case headers, parsed JSON) of one request to nginx over https, as the page sends it."""
        sent = {"Origin": cls.proxy, **(headers or {})}
        if cookie:
            sent["Cookie"] = cookie
        data = None
        if body is not None:
            sent["Content-Type"] = "application/json"
            data = json.dumps(body).encode()
        connection = http.client.HTTPSConnection("localhost", cls.nginx.port, timeout=30, context=ssl._create_unverified_context())
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            answer = response.read()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(answer) if answer else {}
        finally:
            connection.close()

    def direct(self, method, path, body, headers):
        """One request straight to narrate serve from 127.0.0.2: loopback, but not the proxy's address."""
        connection = http.client.HTTPConnection(self.studio.host, self.studio.port, timeout=30, source_address=("127.0.0.2", 0))
        try:
            connection.request(method, path, body=json.dumps(body).encode(), headers={"Content-Type": "application/json", **headers})
            response = connection.getresponse()
            answer = response.read()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(answer) if answer else {}
        finally:
            connection.close()

    def test_1_signing_in_through_nginx_gives_a_secure_cookie(self):
        status, headers, body = self.through_proxy("POST", "/api/session", {"account": "cora", "passphrase": PASSPHRASE})
        self.assertEqual((status, body), (200, {"account": "cora", "role": "coordinator"}))
        cookie = headers["set-cookie"]
        self.assertTrue(cookie.startswith("narrate_account="), cookie)
        self.assertIn("; HttpOnly", cookie)
        self.assertIn("; SameSite=Strict", cookie)
        self.assertTrue(cookie.endswith("; Secure"), cookie)
        status, _, body = self.through_proxy("GET", "/api/me", cookie=cookie.split(";", 1)[0])
        self.assertEqual((status, body), (200, {"account": "cora", "role": "coordinator"}))
        # The page's origin is the proxy's https address: narrate's own plain http origin is foreign through it.
        status, _, _ = self.through_proxy("POST", "/api/session", {"account": "cora", "passphrase": PASSPHRASE},
                                          headers={"Origin": self.studio.base})
        self.assertEqual(status, 403)

    def test_2_an_articles_studio_connects_through_nginx_and_gets_its_state(self):
        browser = self.browser(arguments=("--ignore-certificate-errors",))
        browser.driver.get(self.proxy + "/signin")
        browser.wait_js("return document.activeElement && document.activeElement.id === 'signin-account'", "the sign-in page through nginx")
        browser.el("signin-account").send_keys("vera")
        browser.el("signin-passphrase").send_keys(PASSPHRASE)
        browser.click("signin-submit")
        browser.wait(lambda d: d.current_url == self.proxy + "/home", "the home page through nginx")
        cookie = browser.driver.get_cookie("narrate_account")
        self.assertTrue(cookie["secure"] and cookie["httpOnly"], cookie)
        browser.driver.get(f"{self.proxy}/?article={self.article}")
        browser.wait_js(f"return typeof state === 'object' && state.header && state.header.title === {json.dumps(TITLE)}",
                        "the article's studio state over the WebSocket through nginx", 20)
        self.assertTrue(browser.js("return page.connected"))
        # nginx passed the upgrade on: its log has the 101 of the page's WebSocket once the page has left.
        browser.driver.get("about:blank")
        upgrade = f"GET /live?article={self.article} HTTP/1.1\" 101 "
        deadline = time.monotonic() + 20
        while upgrade not in self.nginx.access() and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertIn(upgrade, self.nginx.access())

    def test_3_a_direct_connection_claiming_to_come_through_the_proxy_is_not_believed(self):
        claims = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": f"localhost:{self.nginx.port}", "X-Forwarded-For": "198.51.100.20"}
        # Its forwarded origin is not believed: the proxy's https origin is foreign to it.
        status, _, _ = self.direct("POST", "/api/session", {"account": "cora", "passphrase": PASSPHRASE}, {**claims, "Origin": self.proxy})
        self.assertEqual(status, 403)
        # Taken as it came (plain http, its own address): signed in, but the cookie is not Secure.
        status, headers, body = self.direct("POST", "/api/session", {"account": "cora", "passphrase": PASSPHRASE},
                                            {**claims, "Origin": self.studio.base})
        self.assertEqual(status, 200, body)
        self.assertNotIn("Secure", headers["set-cookie"])
        # The sign-in limit counts its own address, whatever address it claims each time.
        for attempt in range(20):
            status, _, body = self.direct("POST", "/api/session", {"account": f"made.up.{attempt}", "passphrase": "guess guess guess"},
                                          {"X-Forwarded-For": f"198.51.100.{attempt}", "Origin": self.studio.base})
            self.assertEqual((status, body), (401, {"error": WRONG}), attempt)
        status, _, body = self.direct("POST", "/api/session", {"account": "vera", "passphrase": PASSPHRASE},
                                      {"X-Forwarded-For": "198.51.100.99", "Origin": self.studio.base})
        self.assertEqual(status, 401)
        self.assertTrue(body["error"].startswith("Too many wrong passphrases"), body)
        # Through nginx, vera (another address as narrate counts it) signs in.
        status, _, body = self.through_proxy("POST", "/api/session", {"account": "vera", "passphrase": PASSPHRASE})
        self.assertEqual((status, body), (200, {"account": "vera", "role": "volunteer"}))


class SystemdUnitTests(unittest.TestCase):
    @unittest.skipUnless(shutil.which("systemd-analyze"), "systemd-analyze is not installed (Debian's systemd package)")
    def test_the_articles_unit_passes_systemd_analyze_verify(self):
        from studio_fixture import wait_for_binary
        unit = article_block("ini")
        self.assertIn("ExecStart=/usr/bin/narrate serve --listen 127.0.0.1:8765 --behind-proxy 127.0.0.1\n", unit)
        for line in ("User=narrate", "WorkingDirectory=/var/lib/narrate", "Restart=on-failure", "NoNewPrivileges=true",
                     "ProtectSystem=strict", "ReadWritePaths=/var/lib/narrate", "PrivateTmp=true"):
            self.assertIn(line + "\n", unit)
        folder = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"narrate-unit-{os.getpid()}")
        os.makedirs(folder, exist_ok=True)
        self.addCleanup(shutil.rmtree, folder, True)
        # systemd-analyze checks that the command exists: the built binary stands in for /usr/bin/narrate.
        path = os.path.join(folder, "narrate.service")
        with open(path, "w") as f:
            f.write(unit.replace("/usr/bin/narrate", wait_for_binary()))
        verified = subprocess.run(["systemd-analyze", "verify", "--man=no", path], capture_output=True, text=True)
        self.assertEqual((verified.returncode, verified.stdout + verified.stderr), (0, ""))


if __name__ == "__main__":
    unittest.main()
