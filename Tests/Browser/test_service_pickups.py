"""The pickups routes of a reading service (`GET /api/pickups/ID`, `POST /api/pickups/ID/NOTE/done`)
with raw HTTP: every refusal (no session, another volunteer, the proof-listener, a coordinator
marking, malformed ids, note numbers and edits, a foreign page, a body too big) answers its one
sentence and changes nothing (the notes, the desk and the audit log are compared); then the
volunteer marks both pickups done through the route, the last sending the article back to review;
and a pickup to read a paragraph again, done from the studio page (the paragraph chosen, Read it
again, the server marking it done when the take is kept)."""

import json
import unittest

from selenium.webdriver.common.by import By

from studio_fixture import speech_file
from test_service import FOREIGN, PASSPHRASE, SIGN_IN_FIRST, ServiceTestCase

NOT_YOURS = "These pickups are not yours to see: open your articles from your home page."
NOT_A_NOTE = "That is not a pickup's number: pickups are numbered from 1, as the article's pickups list them."
NOT_AN_EDIT = "That is not an edit: give its number from the article's history (from 1), or leave it out for the latest."
NOT_AN_ID = "That is not an article id: ids are up to 32 of 0-9 and a-z without i, l, o, u, as the desk lists them."


class PickupRoutesTests(ServiceTestCase):
    studio_name = "service-pickups"
    accounts = (("cora", "coordinator"), ("vol", "volunteer"), ("vic", "volunteer"), ("dora", "proof-listener"))
    config = 'publication = "Daily News"\nnarrator = "Service"\n'

    @classmethod
    def setUpStudio(cls):
        cls.accept_invitations()
        path = cls.studio.folder + "/flyer.txt"
        with open(path, "w") as f:
            f.write("Apples are cheap this week.\n\nPears are cheaper still.\n")
        cls.article = cls.studio.narrate_json("desk", "add", "--title", "Shop flyer", "--text", path)["id"]
        cls.must("desk", "assign", cls.article, "vol")
        for _ in range(2):
            cls.must("record", "--article", cls.article, "--as", "vol", "--device", "usbmic", "--duration", "1.0")
        cls.must("desk", "send", cls.article, "--as", "vol")
        for paragraph, at in (("1", "0.4"), ("2", "1.3")):
            cls.must("review", "note", "--article", cls.article, "--as", "dora", "--paragraph", paragraph, "--at", at, "--text", "a door slams")
        cls.must("review", "send-back", "--article", cls.article, "--as", "dora")
        cls.cookies = {}
        for name, _ in cls.accounts:
            status, cookie, body = cls.sign_in_class(name)
            if status != 200:
                raise AssertionError(f"signing in {name} answered {status}: {body}")
            cls.cookies[name] = cookie

    @classmethod
    def must(cls, *args):
        result = cls.studio.narrate(*args)
        if result.returncode != 0:
            raise AssertionError(f"narrate {' '.join(args)} exited {result.returncode}: {result.stderr}")
        return result.stdout

    @classmethod
    def sign_in_class(cls, name):
        status, headers, body = cls.call("POST", "/api/session", {"account": name, "passphrase": PASSPHRASE})
        return status, headers.get("set-cookie", "").split(";", 1)[0] or None, body

    def held(self):
        """What a refusal must not change: the notes, the desk's record and the audit log."""
        notes = self.studio.narrate_json("review", "notes", "--article", self.article, "--as", "vol")
        return notes, self.studio.narrate_json("desk", "show", self.article), self.audit_lines()

    def get(self, name, article=None):
        return self.call("GET", f"/api/pickups/{article or self.article}", cookie=self.cookies.get(name), origin=None)

    def done(self, name, note, body=None, article=None, **options):
        return self.call("POST", f"/api/pickups/{article or self.article}/{note}/done", {} if body is None else body,
                         cookie=self.cookies.get(name), **options)

    def test_1_every_refusal_answers_one_sentence_and_changes_nothing(self):
        before = self.held()
        latest = self.studio.narrate_json("history", "--article", self.article)[0]["number"]
        refusals = [
            ("no session: list", self.get(None), 401, SIGN_IN_FIRST),
            ("no session: done", self.done(None, 1), 401, SIGN_IN_FIRST),
            ("another volunteer: list", self.get("vic"), 403, NOT_YOURS),
            ("another volunteer: done", self.done("vic", 1), 403, NOT_YOURS),
            ("the proof-listener: list", self.get("dora"), 403, NOT_YOURS),
            ("the proof-listener: done", self.done("dora", 1), 403, NOT_YOURS),
            ("a coordinator marks", self.done("cora", 1), 403, NOT_YOURS),
            ("a malformed id", self.get("vol", "X" * 40), 400, NOT_AN_ID),
            ("a malformed id: done", self.done("vol", 1, article="X" * 40), 400, NOT_AN_ID),
            ("no such article", self.get("vol", "zzzzzzzz"), 404, "There is no article zzzzzzzz on the desk: open your articles from your home page."),
            ("note 0", self.done("vol", 0), 400, NOT_A_NOTE),
            ("note -1", self.done("vol", -1), 400, NOT_A_NOTE),
            ("note abc", self.done("vol", "abc"), 400, NOT_A_NOTE),
            ("note 10^20", self.done("vol", 10 ** 20), 400, NOT_A_NOTE),
            ("no such pickup", self.done("vol", 99), 404, "There is no pickup 99 of “Shop flyer”: reload its studio to see its pickups."),
            ("edit -1", self.done("vol", 1, {"edit": -1}), 400, NOT_AN_EDIT),
            ("edit 0", self.done("vol", 1, {"edit": 0}), 400, NOT_AN_EDIT),
            ("edit 1.5", self.done("vol", 1, {"edit": 1.5}), 400, NOT_AN_EDIT),
            ("edit 1e300", self.done("vol", 1, b'{"edit": 1e300}'), 400, NOT_AN_EDIT),
            ("edit as text", self.done("vol", 1, {"edit": "7"}), 400, NOT_AN_EDIT),
            ("not JSON", self.done("vol", 1, b"edit=1"), 400, NOT_AN_EDIT),
            ("an edit before the send-back", self.done("vol", 1, {"edit": 1}), 400,
             "There is no edit 1 of this article after it was sent back: give the number its history shows for the take or punch."),
            ("no edit since the send-back (the latest)", self.done("vol", 1), 400,
             f"There is no edit {latest} of this article after it was sent back: give the number its history shows for the take or punch."),
            ("a huge edit", self.done("vol", 1, {"edit": 2147483647}), 400,
             "There is no edit 2147483647 of this article after it was sent back: give the number its history shows for the take or punch."),
            ("a body over 16 KiB", self.done("vol", 1, b'{"edit": 1, "pad": "' + b"x" * 17000 + b'"}'), 413,
             "The request is too big: marking a pickup done takes an edit's number, at most 16 KiB."),
            ("a foreign page", self.done("vol", 1, origin="http://evil.example"), 403, FOREIGN),
        ]
        for what, (status, _, body), want_status, want_sentence in refusals:
            with self.subTest(what):
                self.assertEqual(status, want_status, f"{what}: {body}")
                if want_sentence is not None:
                    self.assertEqual(body.get("error"), want_sentence, what)
        self.assertEqual(self.held(), before, "a refusal changed something")
        # A coordinator may look.
        status, _, body = self.get("cora")
        self.assertEqual((status, [p["id"] for p in body["pickups"]], body["state"]), (200, [1, 2], "pickups-requested"), body)

    def test_2_the_volunteer_marks_both_done_and_the_last_sends_it_back(self):
        self.must("record", "--article", self.article, "--device", "usbmic", "--duration", "0.5", "--continue")
        latest = self.studio.narrate_json("history", "--article", self.article)[0]["number"]
        status, _, body = self.get("vol")
        self.assertEqual(status, 200, body)
        self.assertEqual([(p["id"], p["paragraph"], p["kind"], p["text"], p["said"], p["done"], p["edit"]) for p in body["pickups"]],
                         [(1, 1, "remark", "a door slams", None, False, None), (2, 2, "remark", "a door slams", None, False, None)])
        self.assertEqual(body["pickups"][0]["target"], {"chunk": 1, "seconds": 0.4})
        self.assertEqual(body["pickups"][0]["pickup"], "punch in at 0.4 s into chunk 1")

        status, _, body = self.done("vol", 1)
        self.assertEqual(status, 200, body)
        self.assertEqual((body["note"]["id"], body["note"]["done"], body["note"]["edit"], body["allDone"], body["state"]),
                         (1, True, latest, False, "pickups-requested"))
        status, _, body = self.done("vol", 1)
        self.assertEqual((status, body.get("error")), (409, "Pickup 1 is done already."))

        status, _, body = self.done("vol", 2, {"edit": latest})
        self.assertEqual(status, 200, body)
        self.assertEqual((body["note"]["id"], body["note"]["edit"], body["allDone"], body["state"]), (2, latest, True, "ready-for-review"))
        self.assertEqual(self.studio.narrate_json("desk", "show", self.article)["state"], "ready-for-review")
        status, _, body = self.done("vol", 2)
        self.assertEqual(status, 403, body)  # in review the article is the proof-listener's
        # The volunteer still reads the list, all done.
        status, _, body = self.get("vol")
        self.assertEqual((status, body["state"], [p["done"] for p in body["pickups"]]), (200, "ready-for-review", [True, True]))
        details = [entry.get("detail", "") for entry in self.studio.narrate_json("audit")]
        self.assertTrue(any("pickups-done pickups-requested → ready-for-review" in d for d in details), details[-5:])

    def test_3_a_paragraph_to_read_again_from_the_studio_page(self):
        # A note on paragraph 2 pinned in chunk 1 (which reads paragraph 1): the pickup is to read paragraph 2 again.
        self.must("review", "note", "--article", self.article, "--as", "dora", "--paragraph", "2", "--at", "0.4", "--said", "Pear", "--should-be", "Pears")
        self.must("review", "send-back", "--article", self.article, "--as", "dora")
        page = self.browser(fake_audio=speech_file())
        page.driver.get(self.studio.base + "/signin")
        page.wait_js("return document.activeElement && document.activeElement.id === 'signin-account'", "the name field")
        page.el("signin-account").send_keys("vol")
        page.el("signin-passphrase").send_keys(PASSPHRASE)
        page.click("signin-submit")
        page.wait(lambda d: d.current_url.endswith("/home"), "the home page")
        page.driver.get(f"{self.studio.base}/?article={self.article}")
        page.wait_js("return document.querySelectorAll('#pickups .pickup-do').length === 1 && state.microphone === 'browser'",
                     "the pickup in the studio", 20)
        button = page.driver.find_element(By.CSS_SELECTOR, "#pickups li[data-note='3'] .pickup-do")
        self.assertEqual(button.text, "Read paragraph 2 again")
        button.send_keys("\n")
        page.wait_js("return state.reading && state.reading.number === 2", "paragraph 2 chosen")
        self.assertEqual(page.driver.switch_to.active_element.get_attribute("id"), "read-again")
        self.assertEqual(page.text("status"), "Paragraph 2 is chosen: press Read it again (a) to record it anew.")
        page.click("read-again")
        page.wait_recording(1.0, 20)
        page.click("record")
        page.wait_js("return document.getElementById('pickups-done').textContent === 'All pickups are done: sent back to review.'",
                     "the pickup done", 20)
        latest = self.studio.narrate_json("history", "--article", self.article)[0]["number"]
        notes = self.studio.narrate_json("review", "notes", "--article", self.article, "--as", "dora")
        self.assertEqual((notes[-1]["id"], notes[-1]["doneEdit"]), (3, latest))
        self.assertEqual(self.studio.narrate_json("desk", "show", self.article)["state"], "ready-for-review")
        self.assertEqual([c["paragraph"] for c in self.studio.chunks(self.article)], [1, 2])


if __name__ == "__main__":
    unittest.main()
