"""The new-article form requires a publication and a narrator: the server refuses an article
without them in a sentence naming what is missing (whatever the page does), the page shows that
sentence and puts the cursor in the empty field, and an empty config.toml leaves the form to
offer the last article's credits."""

import json
import unittest

from studio_fixture import StudioTestCase


class ArticleFormTests(StudioTestCase):
    studio_name = "credits"
    config = ""  # config.toml names no publication and no narrator

    @classmethod
    def setUpStudio(cls):
        cls.page = cls.browser()
        cls.page.open(cls.studio)

    def post_article(self, fields):
        cookie = self.studio.session_cookie()
        return self.studio.request(
            "POST", "/api/articles", {"Cookie": cookie, "Origin": self.studio.base, "Content-Type": "application/json"},
            json.dumps(fields).encode())

    def test_credits_required_then_offered(self):
        page = self.page
        # The server refuses, whatever a page sends.
        status, _, body = self.post_article({"title": "Quiet", "publication": "", "narrator": " "})
        self.assertEqual(status, 400, body)
        self.assertEqual(json.loads(body)["error"],
                         "Fill in the publication and your name as narrator: deliveries are filed under the publication, "
                         "and the narrator is credited and counted in the volunteer hours.")
        status, _, body = self.post_article({"title": "Quiet", "publication": "Daily Post"})
        self.assertEqual(status, 400, body)
        self.assertEqual(json.loads(body)["error"],
                         "Fill in your name as narrator: it is credited in the recording and counted in the volunteer hours.")
        self.assertEqual(self.studio.narrate_json("list"), [])

        # The page: both fields empty (config.toml names neither), the refusal shown, the cursor in Publication.
        page.show_new_article_form()
        self.assertEqual(page.el("form-publication").get_attribute("value"), "")
        self.assertEqual(page.el("form-publication").get_attribute("required"), "true")
        page.el("form-title").send_keys("Harbour")
        page.click("form-create")
        page.wait(lambda d: page.text("form-problem").startswith("Fill in the publication"), "the refusal")
        self.assertEqual(page.driver.switch_to.active_element.get_attribute("id"), "form-publication")

        page.el("form-publication").send_keys("Daily Post")
        page.el("form-narrator").send_keys("Ann Reader")
        page.click("form-create")
        page.wait(lambda d: page.visible("record-section") and page.text("title") == "Harbour", "the studio on Harbour")

        # The next form offers the last article's publication and narrator.
        page.click("new-article")
        page.wait(lambda d: page.visible("article-section"), "the new-article form")
        page.wait(lambda d: page.el("form-publication").get_attribute("value") == "Daily Post", "the offered publication")
        self.assertEqual(page.el("form-narrator").get_attribute("value"), "Ann Reader")


if __name__ == "__main__":
    unittest.main()
