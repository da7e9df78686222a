"""`narrate serve` starting and stopping: SIGINT ends it with status 0, keeps a booth take that
was being recorded, and does not crash when whoever read its link has gone (stdout closed);
`serve --open` opens a studio already serving the same recordings, but not a killed one's link."""

import json
import os
import shutil
import signal
import stat
import subprocess
import time
import unittest
from pathlib import Path

from studio_fixture import Browser, Studio, wait_for_binary


class LifecycleTests(unittest.TestCase):

    def setUp(self):
        self.studio = Studio("lifecycle")
        self.browser = None

    def tearDown(self):
        if self.browser:
            self.browser.quit()
        try:
            self.studio.stop(10)
        except AssertionError:
            pass
        self.studio.remove()

    def test_sigint_keeps_the_take_being_recorded(self):
        studio = self.studio.start()
        self.browser = page = Browser(studio.folder)
        page.open(studio)
        page.show_new_article_form()
        page.el("form-title").send_keys("Interrupted")
        page.click("form-create")
        page.wait(lambda d: page.visible("record-section"), "the studio")
        page.click("record")
        started = time.monotonic()
        page.wait_recording(1.0)
        studio.process.send_signal(signal.SIGINT)
        stopped_at = time.monotonic()
        status = studio.process.wait(20)
        self.assertEqual(status, 0, f"exit status after SIGINT; stderr: {studio.stderr()[-1500:]}")
        studio._drain.join(5)  # the stdout reader has the last line
        self.assertIn("Stopped the web studio.", studio.stdout_lines)
        chunks = studio.chunks()
        self.assertEqual(len(chunks), 1, "the take being recorded at SIGINT was not kept")
        self.assertGreaterEqual(chunks[0]["duration"], 1.0)
        self.assertLessEqual(chunks[0]["duration"], stopped_at - started + 1.0)
        self.assertFalse(chunks[0]["recovered"], "the take was kept by the server itself, not recovered later")

    def test_sigint_with_stdout_closed_exits_cleanly(self):
        """Whoever started `narrate serve` read the link and went away (a launcher, `| head -1`):
        the stop's last line must not crash it (SIGPIPE/EPIPE on stdout)."""
        studio = self.studio
        process = subprocess.Popen(
            [__import__("studio_fixture").wait_for_binary(), "serve", "--listen", "127.0.0.1:0", "--device", "usbmic"],
            env={**studio.env, "SWIFT_BACKTRACE": "enable=no"},  # a crash's backtrace takes seconds
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        try:
            line = process.stdout.readline()
            self.assertTrue(line.startswith(b"Open http://127.0.0.1:"), line)
            process.stdout.close()  # the reader goes away
            process.send_signal(signal.SIGINT)
            status = process.wait(30)
            stderr = process.stderr.read().decode("utf-8", "replace")
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stderr.close()
        first = next((line for line in stderr.splitlines() if line.strip()), "")
        self.assertFalse("Fatal error" in stderr, f"narrate serve crashed on SIGINT with its stdout closed (exit {status}): {first}")
        self.assertEqual(status, 0, f"narrate serve exited {status} on SIGINT with its stdout closed; stderr: {first}")

    def opener(self):
        """An xdg-open first on PATH that writes down the links it is given: (environment, log path)."""
        folder = os.path.join(self.studio.folder, "bin")
        os.makedirs(folder, exist_ok=True)
        log = os.path.join(self.studio.folder, "opened")
        with open(os.path.join(folder, "xdg-open"), "w") as f:
            f.write(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{log}"\n')
        os.chmod(os.path.join(folder, "xdg-open"), 0o755)
        return {**self.studio.env, "PATH": folder + ":" + self.studio.env["PATH"]}, log

    def test_open_opens_the_studio_already_serving_and_stop_forgets_it(self):
        """The desktop entry runs `narrate serve --open`: with the systemd unit's studio serving the
        same recordings, it opens that one's link and leaves, instead of failing on the port."""
        studio = self.studio.start()
        record = os.path.join(studio.home, "web-studio.link")
        self.assertEqual(stat.S_IMODE(os.stat(record).st_mode), 0o600)
        self.assertEqual(json.loads(Path(record).read_text())["url"], studio.url)
        environment, log = self.opener()
        opened = subprocess.run([wait_for_binary(), "serve", "--open", "--device", "usbmic"],
                                env=environment, capture_output=True, text=True, timeout=30)
        self.assertEqual(opened.returncode, 0, opened.stderr)
        self.assertEqual(opened.stdout.splitlines(), [
            f"The web studio is already running (process {studio.process.pid}): opening {studio.url}",
            "It keeps its own settings: --device apply to a studio started anew (stop it first)."])
        deadline = time.monotonic() + 10  # xdg-open runs on after narrate has left, as a desktop's does
        while time.monotonic() < deadline and not (os.path.exists(log) and Path(log).read_text().strip()):
            time.sleep(0.1)
        self.assertEqual(Path(log).read_text().split(), [studio.url])
        self.assertEqual(studio.stop(), 0)
        self.assertFalse(os.path.exists(record), "the stopped studio's link was left behind")

    def wait_opened(self, log, seconds=10):
        """The links the stand-in xdg-open was given, once it has run (it runs on after narrate leaves)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not (os.path.exists(log) and Path(log).read_text().strip()):
            time.sleep(0.1)
        return Path(log).read_text().split() if os.path.exists(log) else []

    def test_open_believes_no_record_others_can_read_and_survives_an_upgrade(self):
        """The record holds the token: one that others may read is not believed. A studio whose
        program file was replaced since it started (an upgrade) is still found."""
        folder = os.path.join(self.studio.folder, "program")
        os.makedirs(folder)
        program = os.path.join(folder, "narrate")
        shutil.copy2(wait_for_binary(), program)
        studio = self.studio
        process = subprocess.Popen([program, "serve", "--listen", "127.0.0.1:0", "--device", "usbmic"], env=studio.env,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
        try:
            link = process.stdout.readline().split()[1]
            # The upgrade: a new file renamed over the running program's.
            shutil.copy2(wait_for_binary(), program + ".new")
            os.rename(program + ".new", program)
            self.assertTrue(os.readlink(f"/proc/{process.pid}/exe").endswith(" (deleted)"))
            environment, log = self.opener()
            opened = subprocess.run([program, "serve", "--open"], env=environment, capture_output=True, text=True, timeout=30)
            self.assertEqual(opened.stdout.splitlines(), [f"The web studio is already running (process {process.pid}): opening {link}"])
            self.assertEqual(self.wait_opened(log), [link])
            # The same record, readable by others: not believed, so a studio of its own is started.
            record = os.path.join(studio.home, "web-studio.link")
            os.chmod(record, 0o644)
            os.unlink(log)
            second = subprocess.Popen([program, "serve", "--open", "--listen", "127.0.0.1:0", "--device", "usbmic"], env=environment,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
            try:
                first_line = second.stdout.readline()
                self.assertTrue(first_line.startswith("Open http://127.0.0.1:"), first_line)
                self.assertEqual(self.wait_opened(log), [first_line.split()[1]])
            finally:
                second.send_signal(signal.SIGINT)
                self.assertEqual(second.wait(30), 0)
                second.stdout.close()
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(30)
            process.stdout.close()

    def test_open_after_a_killed_studio_starts_its_own(self):
        """A studio killed with SIGKILL leaves its record: the next --open must not trust it."""
        killed = self.studio.start()
        killed.process.kill()
        killed.process.wait()
        self.assertTrue(os.path.exists(os.path.join(killed.home, "web-studio.link")))
        environment, log = self.opener()
        second = Studio("lifecycle-second")
        try:
            second.env = {**environment, "NARRATE_HOME": killed.home}
            second.start(extra=("--open",))
            self.assertNotEqual(second.url, killed.url)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not os.path.exists(log):
                time.sleep(0.1)
            self.assertEqual(Path(log).read_text().split(), [second.url])
            self.assertEqual(json.loads(Path(killed.home, "web-studio.link").read_text())["url"], second.url)
            self.assertEqual(second.stop(), 0)
        finally:
            if second.process and second.process.poll() is None:
                second.process.kill()
            second.remove()


if __name__ == "__main__":
    unittest.main()
