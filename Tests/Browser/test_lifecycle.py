"""`narrate serve` starting and stopping: SIGINT ends it with status 0, keeps a booth take that
was being recorded, and does not crash when whoever read its link has gone (stdout closed)."""

import signal
import subprocess
import time
import unittest

from studio_fixture import Browser, Studio


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
        if not page.visible("article-section"):
            page.click("new-article")
        page.wait(lambda d: page.visible("article-section"), "the new-article form")
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


if __name__ == "__main__":
    unittest.main()
