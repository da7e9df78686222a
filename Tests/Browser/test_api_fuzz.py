"""The reading service's API fuzzed from its own OpenAPI document (GET /api/openapi.json) with
schemathesis: with no session, as a volunteer and as an admin (who reaches deepest into each
route), every operation is sent a bounded number of generated requests, valid and not. The
proof-listener's and the coordinator's refusals on every route are checked in process
(DeskRoutesTests, ReviewRoutesTests). No answer may be a 5xx, every answer's status,
content type and body must be as the document says, the server must still answer afterwards
(no trap), and every recording must be byte for byte what it was."""

import hashlib
import os
import shutil
import subprocess
import sys
import unittest

from studio_fixture import speech_file
from test_service import PASSPHRASE, ServiceTestCase

# Generated requests per operation and role: enough to reach every route's refusals, few
# enough that the whole run stays under two minutes.
EXAMPLES = 8
SEED = 33


class APIFuzzTests(ServiceTestCase):
    """A service with one account of each role and an article on the desk with a recording."""

    studio_name = "service-fuzz"
    accounts = (("ada", "admin"), ("cora", "coordinator"), ("pat", "proof-listener"), ("vera", "volunteer"))
    config = 'publication = "Daily News"\nnarrator = "Service"\n'

    @classmethod
    def setUpStudio(cls):
        cls.accept_invitations()
        text = os.path.join(cls.studio.folder, "budget.txt")
        with open(text, "w") as f:
            f.write("The council voted on the budget late on Tuesday.\n")
        cls.article = cls.studio.narrate_json("desk", "add", "--title", "Budget vote", "--text", text, "--deadline", "2031-05-04")["id"]
        cls.open_article = cls.studio.narrate_json("desk", "add", "--title", "Shop flyer", "--deadline", "2031-05-06")["id"]
        for command in (("desk", "assign", cls.article, "vera"), ("import", speech_file(), "--article", cls.article)):
            result = cls.studio.narrate(*command)
            if result.returncode != 0:
                raise AssertionError(f"narrate {' '.join(command)} exited {result.returncode}: {result.stderr}")

    def recordings(self):
        """Every audio file narrate keeps, by path, as its SHA-256."""
        found = {}
        for folder, _, names in os.walk(self.studio.home):
            for name in names:
                if name.endswith((".wav", ".flac", ".opus", ".mp3")):
                    path = os.path.join(folder, name)
                    with open(path, "rb") as f:
                        found[os.path.relpath(path, self.studio.home)] = hashlib.sha256(f.read()).hexdigest()
        return found

    def pending_operations(self):
        """The document's operations marked x-narrate-pending (not registered yet)."""
        status, _, document = self.call("GET", "/api/openapi.json", origin=None)
        self.assertEqual(status, 200)
        return [operation["operationId"] for item in document["paths"].values() for operation in item.values()
                if operation.get("x-narrate-pending")]

    def fuzz(self, who, cookie, report):
        """schemathesis over every operation as `who`; returns its exit status and output."""
        # Half the article ids sent are real ones (the article with the recording, one left
        # open), so that the fuzzing reaches past "no such article" into each route's rules.
        config = os.path.join(self.studio.folder, "schemathesis.toml")
        with open(config, "w") as f:
            f.write(f'[dictionaries.articles]\nvalues = ["{self.article}", "{self.open_article}"]\n'
                    '[parameters]\n"path.id" = { dictionary = "articles", probability = 0.5 }\n')
        command = [
            shutil.which("st") or os.path.join(os.path.dirname(sys.executable), "st"), "--config-file", config, "run", self.studio.base + "/api/openapi.json",
            # No 5xx; and every answer's status, type and body as the document says.
            "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
            "--max-examples", str(EXAMPLES), "--seed", str(SEED),
            "--phases", "examples,coverage,fuzzing", "--workers", "1", "--request-timeout", "20",
            "--header", "Origin: " + self.studio.base, "--no-shrink", "--continue-on-failure", "--generation-database", "none",
            "--report", "ndjson", "--report-ndjson-path", report,
            # Signing out is fuzzed last, on its own: here it would end the session under the rest.
            "--exclude-operation-id", "signOut", "--exclude-operation-id", "signOutEverywhere",
        ]
        # Operations written down before the server has them answer Hummingbird's bare 404.
        for operation in self.pending_operations():
            command += ["--exclude-operation-id", operation]
        if cookie:
            command += ["--header", "Cookie: " + cookie]
        # From the studio's own folder, which goes at the end: schemathesis keeps files where it runs.
        result = subprocess.run(command, capture_output=True, text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"},
                                cwd=self.studio.folder)
        return result.returncode, result.stdout + result.stderr

    def test_no_5xx_no_trap_and_the_recordings_untouched(self):
        before = self.recordings()
        self.assertTrue(before, "the article has no recording to keep")
        # Every session begins before the fuzzing, whose wrong passphrases soon reach the
        # sign-in limit for this address.
        cookies = {"nobody": None}
        for who in ("vera", "ada", "signing-out"):
            status, cookies[who], body = self.sign_in("vera" if who == "signing-out" else who)
            self.assertEqual(status, 200, body)
        failures = []
        for who in ("nobody", "vera", "ada"):
            cookie = cookies[who]
            report = os.path.join(self.studio.folder, f"fuzz-{who}.ndjson")
            code, output = self.fuzz(who, cookie, report)
            with open(report) as f:
                real = f.read().count(f"/api/desk/{self.article}/")
            print(f"\nschemathesis as {who}: exit {code}, {real} requests on the real article's desk routes\n"
                  + "\n".join(output.splitlines()[-12:]))
            if code != 0:
                failures.append(f"{who}: {output[-4000:]}")
            # The server still answers, signed in as before.
            if cookie:
                status, _, body = self.me(cookie)
                self.assertEqual((status, body.get("account")), (200, who), f"after fuzzing as {who}")
        # Signing out, last.
        for method, path in (("DELETE", "/api/session"), ("POST", "/api/session/everywhere")):
            status, _, body = self.call(method, path, cookie=cookies["signing-out"])
            self.assertLess(status, 500, f"{method} {path}: {body}")
        self.assertEqual(failures, [])
        self.assertEqual(self.studio.liveness(), "narrate serve: running")
        self.assertEqual(self.recordings(), before)


if __name__ == "__main__":
    unittest.main()
