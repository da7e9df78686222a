"""Hostile new-article requests to a real `narrate serve`: a NUL in the title is refused with a
sentence (it used to cut the title short), and a Markdown text built to make a reader backtrack
is read in well under a second, off the session's thread, with the studio answering after it."""

import json
import time

from studio_fixture import StudioTestCase


class HostileTextTests(StudioTestCase):
    studio_name = "hostile"

    @classmethod
    def setUpStudio(cls):
        cls.cookie = cls.studio.session_cookie()

    def post_article(self, form):
        return self.studio.request("POST", "/api/articles", {
            "Cookie": self.cookie, "Origin": self.studio.base, "Content-Type": "application/json"}, json.dumps(form).encode())

    def test_nul_in_the_title_is_refused_with_a_sentence(self):
        for detail, form in {
            "title": {"title": "Budget\u0000 vote"},
            "publication": {"title": "Budget vote", "publication": "Daily\u0000Post"},
            "narrator": {"title": "Budget vote", "narrator": "Ann\u0000"},
        }.items():
            status, _, body = self.post_article(form)
            self.assertEqual(status, 400, f"a NUL in the {detail}: {body[:300]!r}")
            error = json.loads(body)["error"]
            self.assertIn(f"The {detail} holds a NUL character (U+0000), which would cut it short: remove it and try again.", error)
        titles = [article["title"] for article in self.studio.narrate_json("list")]
        self.assertFalse([title for title in titles if title.startswith("Budget")], f"an article was made: {titles}")

    def test_a_markdown_bracket_bomb_is_read_in_well_under_a_second(self):
        text = "[" * 500_000 + "x" + "]" * 500_000  # Ink took 16.7 s at 24 brackets and crashed at 10,000
        started = time.monotonic()
        status, _, body = self.post_article({"title": "Bomb", "textName": "bomb.md", "text": text})
        elapsed = time.monotonic() - started
        print(f"figure: POST /api/articles with a 1 MB Markdown bracket bomb answered in {elapsed:.2f} s")
        self.assertEqual(status, 201, body[:300])
        self.assertLess(elapsed, 3.0)
        article = json.loads(body)["article"]
        paragraphs = self.studio.narrate_json("script", "--article", article)
        self.assertEqual([paragraph["text"] for paragraph in paragraphs], [text])
        # The session still answers: the page's state arrives after the upload.
        status, _, _ = self.studio.request("GET", "/", {"Cookie": self.cookie})
        self.assertEqual(status, 200)
