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
- `test_2`: PostgreSQL is stopped for 3 s in the middle of a take: the page stays signed in and
  the take is committed whole after the restart.
- `test_3` and `test_4`: a proof-listener approves an article (8 minutes of audio) through nginx,
  and the host doing its delivery (the job of the catalog's queue, found by its process id) is
  killed with kill -9 in the middle of the export, then of the upload to the service's destination
  (a SeaweedFS bucket behind `Tests/Fixtures/faultproxy.py`, slowed to 6 MB/s). The other host
  takes the job up once its lease has run out and delivers the article once: the job done on its
  second try, Published once in the audit log, one audio file and one sidecar in the bucket, the
  audio equal to the chunk sample for sample, and no unfinished multipart upload left (the dead
  host's is given up by the next delivery there).
- `test_5`: while a page records a take and an approved article's upload is under way, SeaweedFS
  (the destination) is stopped for 2 s and started again, then PostgreSQL. The take is committed
  and copied to the store equal to the capture; the delivery's job is done once, the article
  Published once, the bucket holding its audio and sidecar only.
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

import threading
import wave

import numpy

from postgresql import PostgreSQL
from seaweedfs import SeaweedFS
from studio_fixture import Studio, StudioTestCase, speech_file
from test_browser_microphone import samples
from test_service import PASSPHRASE, add_account
from test_running_a_service import Nginx, free_port
from test_take_network_faults import CAPTURED, COPY_CAPTURE

class SeveralHostsTests(StudioTestCase):
    @classmethod
    def setUpClass(cls):
        cls.browsers, cls.hosts, cls.nginx, cls.database, cls.seaweed, cls.proxy = [], [], None, None, None, None
        cls.folder = tempfile.mkdtemp(prefix="narrate-several-hosts-")
        try:
            database_folder = os.path.join(cls.folder, "postgresql")
            os.makedirs(database_folder)
            os.chmod(cls.folder, 0o755)  # the postgres user goes through it to its own folder
            cls.database = PostgreSQL(database_folder)
            cls.recordings = os.path.join(cls.folder, "recordings")
            os.makedirs(cls.recordings)
            # The destination: a bucket behind a proxy that slows uploads, so that a test can act mid-upload.
            cls.seaweed = SeaweedFS(os.path.join(cls.folder, "seaweedfs"), "delivered")
            proxy_port = free_port()
            cls.proxy = subprocess.Popen(
                ["python3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "faultproxy.py"), str(proxy_port),
                 cls.seaweed.endpoint.rsplit(":", 1)[1], "--rate", "6000000"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            if "ready" not in cls.proxy.stdout.readline():
                raise AssertionError("the fault proxy in front of SeaweedFS did not start")
            config = (f'publication = "Daily News"\nnarrator = "Service"\ndestination = "service"\n\n'
                      f'[destinations.service]\nurl = "s3://delivered/service"\nendpoint = "http://127.0.0.1:{proxy_port}"\npath_style = true\n\n'
                      f'[service]\nreview = true\ncatalog = "{cls.database.address}"\nrecordings = "{cls.recordings}"\n')
            cls.hosts = [Studio("host-a", config), Studio("host-b", config)]
            cls.studio = cls.hosts[0]  # where the browsers keep their profiles
            _, token = add_account(cls.hosts[0], "vera", "volunteer")
            _, listener_token = add_account(cls.hosts[0], "dora", "proof-listener")
            for host in cls.hosts:
                host.env.update(SeaweedFS.credentials)
                host.start(extra=cls.serve_arguments)
            certificate, key = os.path.join(cls.folder, "cert.pem"), os.path.join(cls.folder, "key.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
                            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
            cls.nginx = Nginx(cls.folder, free_port(), certificate, key, [host.port for host in cls.hosts])
            cls.base = f"https://localhost:{cls.nginx.port}"
            for name, invitation in (("vera", token), ("dora", listener_token)):
                status, body = cls.through_proxy("POST", "/api/invitations/accept", {"account": name, "token": invitation, "passphrase": PASSPHRASE})
                if status != 201:
                    raise AssertionError(f"accepting {name}'s invitation through nginx answered {status}: {body}")
            cls.speech = speech_file()
        except BaseException:
            cls.tearDownClass()
            raise

    serve_arguments = ("--behind-proxy", "127.0.0.1", "--log", "json")

    @classmethod
    def tearDownClass(cls):
        for browser in cls.browsers:
            browser.quit()
        if cls.nginx:
            cls.nginx.stop()
        if cls.proxy:
            cls.proxy.kill()
            cls.proxy.wait()
        if cls.seaweed:
            cls.seaweed.stop()
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
    def through_proxy(cls, method, path, body=None, cookie=None, timeout=30, answer=None):
        """(status, body) of one request through nginx; with `answer`, the set-cookie header's value too."""
        connection = http.client.HTTPSConnection("localhost", cls.nginx.port, timeout=timeout, context=ssl._create_unverified_context())
        headers = {"Origin": cls.base, "Content-Type": "application/json"}
        if cookie:
            headers["Cookie"] = cookie
        try:
            connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            response = connection.getresponse()
            if answer is not None:
                answer["cookie"] = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
            return response.status, response.read().decode("utf-8", "replace")
        finally:
            connection.close()

    @classmethod
    def sql(cls, query):
        """The rows `query` gives in the shared catalog, each a list of its columns as text."""
        result = subprocess.run(cls.database.as_postgres(os.path.join(cls.database.bin, "psql"), "-h", cls.database.socket, "-p",
                                                         str(cls.database.port), "-U", "narrate", "-d", "narrate", "-tA", "-F", "\t", "-c", query),
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise AssertionError(f"psql -c {query!r}: {result.stderr.strip()}")
        return [line.split("\t") for line in result.stdout.splitlines() if line]

    def host_of(self, takenBy):
        """The host a catalog's "machine pid tag" names, by its process id."""
        words = (takenBy or "").split()
        return next((host for host in self.hosts if host.process and len(words) > 1 and str(host.process.pid) == words[1]), None)

    def restart_dead_hosts(self):
        """Starts again, on its own port (nginx's upstream), each host a test killed; then waits
        until nginx passes a request on. nginx leaves a host that failed alone for the 30 s of its
        `fail_timeout`, and answers 502 while it counts every host as failed (the one killed by
        the test before, and one that was down until it was started again)."""
        for host in self.hosts:
            if host.process is None or host.process.poll() is not None:
                host.start(extra=self.serve_arguments, listen=f"127.0.0.1:{host.port}")
        deadline = time.monotonic() + 90
        while True:
            try:
                status, _ = self.through_proxy("GET", "/signin", timeout=10)
            except OSError:
                status = None
            if status == 200:
                return
            self.assertLess(time.monotonic(), deadline, f"nginx did not pass a request on within 90 s of the hosts' restart (last answer {status})")
            time.sleep(1)

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
        rows = self.sql(f"SELECT host FROM article_lease WHERE article_id = '{article}'")
        return self.host_of(rows[0][0]) if rows else None

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

    # Deliveries done once by another host

    def approvable(self, title, seconds):
        """A desk article with `seconds` of noise in one chunk (imported on host A, copied to the
        recordings store), sent for review by its volunteer. - Returns: (its id, its samples)."""
        self.restart_dead_hosts()
        article = self.new_article(title)
        audio = (numpy.random.default_rng(len(title)).standard_normal(int(seconds * 44100)) * 3000).clip(-32768, 32767).astype("<i2")
        path = os.path.join(self.folder, "take.wav")
        with wave.open(path, "wb") as f:
            f.setnchannels(1)
            f.setsampwidth(2)
            f.setframerate(44100)
            f.writeframes(audio.tobytes())
        for arguments in (("import", path, "--article", article), ("desk", "send", article, "--as", "vera")):
            result = self.hosts[0].narrate(*arguments, timeout=300)
            self.assertEqual(result.returncode, 0, f"narrate {' '.join(arguments)}: {result.stderr}")
        deadline = time.monotonic() + 60  # host A's copier copies it within its round of 30 s
        while not self.sql(f"SELECT chunk_id FROM chunk_copy WHERE article_id = '{article}'") and time.monotonic() < deadline:
            time.sleep(0.5)
        self.assertTrue(self.sql(f"SELECT chunk_id FROM chunk_copy WHERE article_id = '{article}'"), "the chunk was not copied to the store within 60 s")
        return article, audio

    def approve_in_background(self, article):
        """dora approves `article` through nginx, in a thread. - Returns: the thread and where its answer lands."""
        answer = {}
        status, body = self.through_proxy("POST", "/api/session", {"account": "dora", "passphrase": PASSPHRASE}, answer=answer)
        self.assertEqual(status, 200, body)
        result = {}

        def approve():
            try:
                result["answer"] = self.through_proxy("POST", f"/api/review/{article}/approve", {}, cookie=answer["cookie"], timeout=300)
            except Exception as error:  # the host answering may be the one killed
                result["answer"] = (None, repr(error))
        thread = threading.Thread(target=approve, daemon=True)
        thread.start()
        return thread, result

    def kill_delivery_when(self, article, moment, condition):
        """Kills with kill -9 the host doing `article`'s delivery once `condition` holds in the catalog.
        - Returns: the killed host, the survivor, and when the kill landed."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            rows = self.sql(f"SELECT takenBy FROM work_job WHERE subject = '{article}' AND state = 'taken' AND ({condition})")
            if rows:
                dying = self.host_of(rows[0][0])
                self.assertIsNotNone(dying, f"no host has the process of {rows[0][0]}")
                dying.process.send_signal(signal.SIGKILL)
                dying.process.wait(10)
                return dying, next(host for host in self.hosts if host is not dying), time.monotonic()
            time.sleep(0.02)
        self.fail(f"the delivery of {article} never got {moment} within 120 s: jobs {self.sql('SELECT * FROM work_job')}")

    def assert_delivered_once(self, article, audio, survivor, killed_at, moment, expected_attempts=2):
        """The job of `article`'s delivery done (by `survivor`, on try `attempts`, unless None), the
        article Published once, and the bucket holding its audio, equal to `audio`, and its sidecar
        only, with no unfinished multipart upload."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and self.sql(f"SELECT state FROM work_job WHERE subject = '{article}'") != [["done"]]:
            time.sleep(0.2)
        done_at = time.monotonic()
        jobs = self.sql(f"SELECT state, attempts, takenBy FROM work_job WHERE subject = '{article}'")
        self.assertEqual(len(jobs), 1, f"jobs of the article: {jobs}")
        state, tries, taker = jobs[0]
        self.assertEqual(state, "done", f"the job was not done within 120 s: {jobs}; " + " | ".join(host.stderr()[-1500:] for host in self.hosts))
        if expected_attempts is not None:
            self.assertEqual(int(tries), expected_attempts, f"the job was tried {tries} times")
        if survivor is not None:
            self.assertIs(self.host_of(taker), survivor, f"the job was done by {taker}")
        self.assertEqual(self.sql(f"SELECT state FROM desk_article WHERE article_id = '{article}'"), [["published"]])
        published = self.sql(f"SELECT COUNT(*) FROM audit_entry WHERE detail LIKE 'article {article}: publish approved → published%'")
        self.assertEqual(published, [["1"]], "the audit log does not say Published exactly once")
        objects = [o for o in self.seaweed.peek_json("list", "delivered") if article in o["key"]]
        names = sorted(o["key"].rsplit(".", 1)[1] for o in objects)
        self.assertEqual(names, ["flac", "json"], f"the bucket holds {[o['key'] for o in objects]}")
        flac = next(o for o in objects if o["key"].endswith(".flac"))
        local = os.path.join(self.folder, "delivered.flac")
        subprocess.run(self.seaweed.command("get", "delivered", flac["key"], local), env=self.seaweed.environment, check=True, capture_output=True)
        decoded = numpy.frombuffer(subprocess.run(["sox", local, "-t", "raw", "-e", "signed", "-b", "16", "-L", "-"], capture_output=True,
                                                  check=True).stdout, dtype="<i2")
        self.assertEqual(len(decoded), len(audio), "the delivered audio is not as long as the chunk")
        self.assertTrue(numpy.array_equal(decoded, audio), "the delivered audio is not the chunk sample for sample")
        unfinished = self.seaweed.peek_json("uploads", "delivered")
        failures = [json.loads(line).get("error", "") for host in self.hosts for line in host.stderr().splitlines()
                    if line.startswith("{") and '"job failed"' in line and article in line]
        print(f"\n{moment}: the job was done {done_at - killed_at:.1f} s after (try {tries}); Published once; the bucket holds one FLAC ({flac['size']} bytes, "
              f"equal to the chunk sample for sample) and its sidecar; unfinished multipart uploads left: {len(unfinished)}"
              + (f"; tries that failed: {failures}" if failures else ""))
        self.assertEqual(unfinished, [], "the dead host's multipart upload was left unfinished")

    def killed_mid_delivery(self, title, moment, condition):
        """Approves an 8-minute article, kills the host delivering it once `condition` holds, and
        checks the other host delivers it once; the killed host never answered that it delivered."""
        article, audio = self.approvable(title, 480)
        thread, result = self.approve_in_background(article)
        _, survivor, killed_at = self.kill_delivery_when(article, moment, condition.format(article=article))
        self.assert_delivered_once(article, audio, survivor, killed_at, f"kill -9 of the host delivering an approved article {moment}")
        thread.join(60)
        self.assertNotEqual(result.get("answer", (None,))[0], 200, "the killed host answered that it delivered")

    def test_3_a_host_killed_mid_export_the_other_delivers_once(self):
        self.killed_mid_delivery("Killed while exporting", "mid-export",
                                 "EXISTS (SELECT 1 FROM outbox WHERE articleId = '{article}' AND state = 'exporting')")

    def test_4_a_host_killed_mid_upload_the_other_delivers_once(self):
        # The upload is under way once its multipart upload's id is on record.
        self.killed_mid_delivery("Killed while uploading", "mid-upload",
                                 "EXISTS (SELECT 1 FROM outbox WHERE articleId = '{article}' AND state = 'queued' AND uploadId IS NOT NULL)")

    def test_5_postgresql_and_seaweedfs_restarted_under_load_nothing_lost_nothing_doubled(self):
        article, audio = self.approvable("Delivered through restarts", 240)
        recorded = self.new_article("Recorded through restarts")
        page = self.open_page(recorded)
        page.press("r")
        page.wait_js("return !!uploads.capturing && uploads.capturing.durable > 44100", "1 s of the take on a host", 30)
        take = page.js("return uploads.capturing.take")
        thread, _ = self.approve_in_background(article)
        deadline = time.monotonic() + 120
        while not self.sql(f"SELECT 1 FROM outbox WHERE articleId = '{article}' AND state = 'queued' AND uploadId IS NOT NULL"):
            self.assertLess(time.monotonic(), deadline, "the delivery's upload did not begin within 120 s")
            time.sleep(0.05)
        began = time.monotonic()
        # The destination's server stops for 2 s mid-upload, then the catalog's, each started again on its data.
        self.seaweed.stop()
        time.sleep(2)
        self.seaweed.start()
        self.database.stop()
        time.sleep(2)
        self.database.start()
        page.wait_js("return !!uploads.capturing && uploads.capturing.frames > 12 * 44100", "the take to go on to 12 s", 30)
        page.press("r")
        deadline = time.monotonic() + 60
        chunks = []
        while time.monotonic() < deadline:
            result = self.hosts[0].narrate("chunks", "--article", recorded, "--json")
            chunks = json.loads(result.stdout) if result.returncode == 0 else []
            if len(chunks) == 1 and page.js("return uploads.takes.size === 0"):
                break
            time.sleep(0.25)
        self.assertEqual(len(chunks), 1, "the take recorded through the restarts was not committed within 60 s")
        # Whichever host committed it, its copy in the store is the take, and so is what the page captured.
        copies = self.sql(f"SELECT object_key FROM chunk_copy WHERE article_id = '{recorded}'")
        deadline = time.monotonic() + 60
        while not copies and time.monotonic() < deadline:
            time.sleep(0.5)
            copies = self.sql(f"SELECT object_key FROM chunk_copy WHERE article_id = '{recorded}'")
        self.assertEqual(len(copies), 1, "the take has no checked copy in the recordings store")
        _, stored = samples(os.path.join(self.recordings, copies[0][0]))
        captured = self.captured(page, take)
        self.assertEqual(len(stored), len(captured), "the take is not as long as what the microphone gave")
        self.assertTrue(numpy.array_equal(stored, captured), "the take is not the captured audio sample for sample")
        self.assert_delivered_once(article, audio, None, began, "SeaweedFS then PostgreSQL stopped 2 s each mid-upload", expected_attempts=None)
        thread.join(60)
        print(f"the take recorded meanwhile ({len(stored) / 44100:.3f} s) committed and copied, equal to the capture sample for sample")


if __name__ == "__main__":
    unittest.main()
