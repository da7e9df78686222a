"""A reading service on two hosts behind a real proxy, as RunningAService.md's "Several hosts" sets
it up: two `narrate serve` with data folders of their own, sharing a catalog in a PostgreSQL server
the test starts (initdb into a temporary folder) and a recordings store (a folder both hosts
mount), behind Debian's nginx balancing between them with the article's configuration (its server
block, upstream group and the lines that send the one to the other, read from the article; a
throwaway certificate). A volunteer records with the browser's microphone (Chromium's fake capture
of a known speech file).

- `test_1`: a first take is kept and copied to the store; in the middle of the second take, the
  host receiving it is killed with kill -9. The page goes on through the other host, which takes
  the article up once the dead host's hold has run out and has the page send the take again from
  its start. The committed chunk equals the audio the page captured, sample for sample, and the
  first take, recorded through the dead host, is on the live one byte for byte, brought home from
  the store.
"""

import base64
import http.client
import json
import os
import shutil
import signal
import ssl
import subprocess
import tempfile
import time
import unittest

import numpy

from postgresql import PostgreSQL
from studio_fixture import Studio, StudioTestCase, speech_file
from test_browser_microphone import samples
from test_service import PASSPHRASE, add_account
from test_running_a_service import Nginx, free_port
from test_take_network_faults import CAPTURED, COPY_CAPTURE

class SeveralHostsTests(StudioTestCase):
    @classmethod
    def setUpClass(cls):
        cls.browsers, cls.hosts, cls.nginx, cls.database = [], [], None, None
        cls.folder = tempfile.mkdtemp(prefix="narrate-several-hosts-")
        try:
            database_folder = os.path.join(cls.folder, "postgresql")
            os.makedirs(database_folder)
            os.chmod(cls.folder, 0o755)  # the postgres user goes through it to its own folder
            cls.database = PostgreSQL(database_folder)
            cls.recordings = os.path.join(cls.folder, "recordings")
            os.makedirs(cls.recordings)
            config = (f'publication = "Daily News"\nnarrator = "Service"\n\n[service]\n'
                      f'catalog = "{cls.database.address}"\nrecordings = "{cls.recordings}"\n')
            cls.hosts = [Studio("host-a", config), Studio("host-b", config)]
            cls.studio = cls.hosts[0]  # where the browsers keep their profiles
            _, token = add_account(cls.hosts[0], "vera", "volunteer")
            for host in cls.hosts:
                host.start(extra=("--behind-proxy", "127.0.0.1", "--log", "json"))
            certificate, key = os.path.join(cls.folder, "cert.pem"), os.path.join(cls.folder, "key.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
                            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
            cls.nginx = Nginx(cls.folder, free_port(), certificate, key, [host.port for host in cls.hosts])
            cls.base = f"https://localhost:{cls.nginx.port}"
            status, body = cls.through_proxy("POST", "/api/invitations/accept", {"account": "vera", "token": token, "passphrase": PASSPHRASE})
            if status != 201:
                raise AssertionError(f"accepting vera's invitation through nginx answered {status}: {body}")
            cls.speech = speech_file()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        for browser in cls.browsers:
            browser.quit()
        if cls.nginx:
            cls.nginx.stop()
        problems = []
        for host in cls.hosts:
            killed = host.process is not None and host.process.poll() is not None
            status = host.stop()
            if not killed and status not in (0, None):
                problems.append(f"a host exited {status} after SIGINT (want 0); stderr: {host.stderr().strip()[-1500:]}")
            host.remove()
        if cls.database:
            cls.database.stop()
        shutil.rmtree(cls.folder, ignore_errors=True)
        if problems:
            raise AssertionError("; ".join(problems))

    @classmethod
    def through_proxy(cls, method, path, body=None):
        connection = http.client.HTTPSConnection("localhost", cls.nginx.port, timeout=30, context=ssl._create_unverified_context())
        try:
            connection.request(method, path, body=json.dumps(body) if body is not None else None,
                               headers={"Origin": cls.base, "Content-Type": "application/json"})
            response = connection.getresponse()
            return response.status, response.read().decode("utf-8", "replace")
        finally:
            connection.close()

    def new_article(self, title):
        path = os.path.join(self.folder, "text.txt")
        with open(path, "w") as f:
            f.write("\n\n".join(f"Paragraph {n} of {title}." for n in range(1, 41)) + "\n")
        article = self.hosts[0].narrate_json("desk", "add", "--title", title, "--text", path, "--deadline", "2031-05-04")["id"]
        result = self.hosts[0].narrate("desk", "assign", article, "vera")
        self.assertEqual(result.returncode, 0, result.stderr)
        return article

    def open_page(self, article):
        page = self.browser(fake_audio=self.speech, arguments=("--ignore-certificate-errors",))
        page.driver.get(self.base + "/signin")
        page.wait_js("return !!document.getElementById('signin-account')", "the sign-in page through nginx", 30)
        page.el("signin-account").send_keys("vera")
        page.el("signin-passphrase").send_keys(PASSPHRASE)
        page.click("signin-submit")
        page.wait(lambda d: d.current_url.endswith("/home"), "the home page after signing in", 30)
        page.driver.get(self.base + "/?article=" + article)
        page.wait_js("return typeof uploads !== 'undefined' && uploads.ready && state.header && state.microphone === 'browser'",
                     "the article's studio with the browser's microphone", 60)
        page.js(COPY_CAPTURE)
        return page

    def holder(self, article):
        """The host whose hold on `article` is in the catalog, by its process id; None when none holds it."""
        result = subprocess.run(self.database.as_postgres(os.path.join(self.database.bin, "psql"), "-h", self.database.socket, "-p",
                                                          str(self.database.port), "-U", "narrate", "-d", "narrate", "-tA", "-c",
                                                          f"SELECT host FROM article_lease WHERE article_id = '{article}'"),
                                capture_output=True, text=True, check=True)
        words = result.stdout.split()
        if len(words) < 2:
            return None
        return next((host for host in self.hosts if host.process and str(host.process.pid) == words[1]), None)

    def captured(self, page, take):
        data = base64.b64decode(page.driver.execute_script(CAPTURED, take))
        return numpy.frombuffer(data, dtype="<i2").astype(numpy.float64)

    def test_1_a_host_killed_mid_take_the_take_finishes_through_the_other(self):
        article = self.new_article("Two hosts")
        page = self.open_page(article)
        # Take 1, kept and copied to the store.
        page.press("r")
        page.wait_js("return !!uploads.capturing && uploads.capturing.durable > 1.5 * 44100", "1.5 s of take 1 on a host", 30)
        page.press("r")
        page.wait_js("return uploads.takes.size === 0", "take 1 to be committed", 30)
        first = self.hosts[0].chunks(article)
        self.assertEqual(len(first), 1)
        first_id = first[0]["id"]
        copy = os.path.join(self.recordings, "articles", article, first_id + ".wav")
        deadline = time.monotonic() + 30
        while not os.path.exists(copy) and time.monotonic() < deadline:
            time.sleep(0.2)
        self.assertTrue(os.path.exists(copy), "take 1 was not copied to the recordings store within 30 s")
        keeper = next(host for host in self.hosts if os.path.exists(os.path.join(host.home, "articles", article, "chunks", first_id + ".wav")))
        with open(os.path.join(keeper.home, "articles", article, "chunks", first_id + ".wav"), "rb") as f:
            first_bytes = f.read()

        # Take 2: 3 s on its host, then that host is killed.
        page.press("r")
        page.wait_js("return !!uploads.capturing && uploads.capturing.durable > 3 * 44100", "3 s of take 2 on a host", 30)
        take = page.js("return uploads.capturing.take")
        dying = self.holder(article)
        self.assertIsNotNone(dying, "no host holds the article in the catalog while take 2 records")
        survivor = next(host for host in self.hosts if host is not dying)
        dying.process.send_signal(signal.SIGKILL)
        dying.process.wait(10)
        killed_at = time.monotonic()
        # The page goes on through the survivor, which takes the article up once the hold has run out.
        page.wait_js("return page.connected", "the page to reconnect through nginx", 30)
        deadline = time.monotonic() + 40
        while self.holder(article) is not survivor and time.monotonic() < deadline:
            time.sleep(0.2)
        self.assertIs(self.holder(article), survivor, "the other host did not take the article up within 40 s of the kill")
        taken_up = time.monotonic() - killed_at
        page.wait_js("return !!uploads.capturing && uploads.capturing.durable > uploads.capturing.frames - 44100",
                     "the take to catch up on the other host", 40)
        page.press("r")
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and not (len(survivor.chunks(article)) == 2 and page.js("return uploads.takes.size === 0")):
            time.sleep(0.25)
        chunks = survivor.chunks(article)
        self.assertEqual(len(chunks), 2, f"the article has {len(chunks)} chunks after take 2; stderr {survivor.stderr()[-800:]}")
        page.wait_js("return document.getElementById('upload-status').textContent === 'All takes saved on the server.'",
                     "the line to say all is saved", 20)

        captured = self.captured(page, take)
        _, audio = samples(chunks[1]["file"])
        self.assertGreater(len(captured), 4 * 44100)
        self.assertEqual(len(audio), len(captured), "take 2 is not as long as what the microphone gave")
        self.assertTrue(numpy.array_equal(audio, captured), "take 2 is not the captured audio sample for sample")
        self.assertEqual(chunks[0]["id"], first_id)
        with open(chunks[0]["file"], "rb") as f:
            self.assertEqual(f.read(), first_bytes, "take 1 on the surviving host is not the bytes its host kept")
        print(f"\nTwo hosts: the host recording take 2 killed after 3 s; the other took the article up {taken_up:.1f} s later; "
              f"take 2 {len(audio) / 44100:.3f} s equal to the {len(captured) / 44100:.3f} s captured, sample for sample; "
              f"take 1 brought home byte for byte ({len(first_bytes)} bytes)")

    def test_2_postgresql_restarted_mid_take_the_take_is_kept_whole(self):
        article = self.new_article("Catalog restarted")
        page = self.open_page(article)
        page.press("r")
        page.wait_js("return !!uploads.capturing && uploads.capturing.durable > 2 * 44100", "2 s of the take on a host", 30)
        take = page.js("return uploads.capturing.take")
        recorder = self.holder(article)
        self.assertIsNotNone(recorder, "no host holds the article in the catalog while the take records")
        # The catalog's server stops (its connections ended) for 3 s, then starts on the same data.
        self.database.stop()
        time.sleep(3)
        self.database.start()
        restarted_at = time.monotonic()
        page.wait_js("return !!uploads.capturing && uploads.capturing.frames > 8 * 44100", "the take to go on to 8 s", 30)
        page.press("r")
        deadline = time.monotonic() + 60
        chunks = []
        while time.monotonic() < deadline:
            result = recorder.narrate("chunks", "--article", article, "--json")
            chunks = json.loads(result.stdout) if result.returncode == 0 else []
            if len(chunks) == 1 and page.js("return uploads.takes.size === 0"):
                break
            time.sleep(0.25)
        self.assertEqual(len(chunks), 1, f"the take was not committed within 60 s of the catalog's restart; "
                                         f"the page holds {page.js('return [...uploads.takes.values()].map((t) => [t.server, t.durable, t.frames, t.problem])')}; "
                                         f"{page.describe()}; logs: " + " | ".join(host.stderr()[-2500:] for host in self.hosts))
        committed = time.monotonic() - restarted_at
        captured = self.captured(page, take)
        _, audio = samples(chunks[0]["file"])
        self.assertEqual(len(audio), len(captured), "the take is not as long as what the microphone gave")
        self.assertTrue(numpy.array_equal(audio, captured), "the take is not the captured audio sample for sample")
        self.assertIsNone(self.holder(article), "the host still holds the article after its take was committed")
        print(f"\nPostgreSQL stopped 3 s mid-take and started again: the take ({len(audio) / 44100:.3f} s) committed "
              f"{committed:.1f} s after the restart, equal to the capture sample for sample")


if __name__ == "__main__":
    unittest.main()
