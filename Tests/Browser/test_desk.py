"""The coordinator's desk page (`/desk`) in a reading service, in Chromium: a coordinator adds an
article with a pasted text and a deadline, assigns it to a volunteer with the keyboard, filters
by state and by lateness, and sees a late article marked in words; the command line confirms
each change. A volunteer gets 403 and the page says why. axe-core finds nothing serious or
critical, and the page fits a phone (375 px) and 200 % zoom."""

import os
import zipfile

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from test_service import PASSPHRASE, ServiceTestCase

ONLY_COORDINATORS = "The desk is for coordinators and admins: ask the service's coordinator if you should have it."


class DeskPageTests(ServiceTestCase):
    studio_name = "service-desk"
    accounts = (("cora", "coordinator"), ("ann", "volunteer"), ("vic", "volunteer"))

    @classmethod
    def setUpStudio(cls):
        cls.accept_invitations()
        result = cls.studio.narrate("desk", "add", "--title", "Yesterday's notice", "--deadline", "2020-01-02", "--priority", "high")
        if result.returncode != 0:
            raise AssertionError(f"narrate desk add exited {result.returncode}: {result.stderr}")

    def desk(self):
        return {entry["title"]: entry for entry in self.studio.narrate_json("desk", "list")}

    def open_desk(self, browser):
        browser.driver.get(self.studio.base + "/desk")
        browser.wait_js("return document.getElementById('caption').textContent !== ''", "the desk's table")

    def rows(self, browser):
        """Each row's cells as text: title (with publication), state, deadline, volunteer, priority."""
        return browser.js("""return [...document.querySelectorAll('#rows tr')].map(tr =>
            [...tr.children].slice(0, 5).map(cell => cell.innerText.replace(/\\s+/g, ' ').trim()))""")

    def wait_status(self, browser, text):
        browser.wait_js(f"return document.getElementById('status').textContent === {text!r}",
                        f"the status {text!r} (problem: {browser.text('problem')!r})")

    def test_a_coordinator_adds_assigns_filters_and_sees_what_is_late(self):
        browser = self.browser_sign_in("cora")
        # The coordinator's home page leads to the desk.
        self.assertTrue(browser.visible("desk-link"), "the desk link on a coordinator's home page")
        browser.driver.find_element("css selector", "#desk-link a").click()
        browser.wait(lambda d: d.current_url.endswith("/desk"), "the desk from the home page")
        self.open_desk(browser)
        self.assertEqual(self.rows(browser), [["Yesterday's notice Daily Post", "Open", "2020-01-02 Late", "Nobody yet", "High"]])
        self.assertEqual(browser.text("caption"), "1 article, most urgent first; 1 late on this page.")
        self.assertEqual(browser.js("return document.querySelector('#rows .late').textContent"), "Late")

        # Add: the text pasted, a deadline, the publication.
        browser.el("add-title").send_keys("Budget vote")
        browser.el("add-publication").send_keys("Gazette")
        browser.el("add-section-name").send_keys("Council")
        browser.el("add-deadline").send_keys("2030-12-02T17:00")
        browser.el("add-text").send_keys("The council met on Monday.\n\nIt voted for the budget.")
        browser.click("add-submit")
        self.wait_status(browser, "Added “Budget vote” to the desk, Open.")
        self.assertEqual(browser.driver.switch_to.active_element.get_attribute("id"), "add-title")
        self.assertEqual(self.rows(browser)[1], ["Budget vote Gazette, Council", "Open", "2030-12-02T17:00", "Nobody yet", "Normal"])
        added = self.desk()["Budget vote"]
        self.assertEqual((added["state"], added["deadline"], added["publication"], added["section"], added["volunteer"]),
                         ("open", "2030-12-02T17:00", "Gazette", "Council", None))

        # Assign it to ann, with the keyboard: choose in the row's list, Enter on Assign.
        Select(browser.el("assign-to-" + added["id"])).select_by_value("ann")
        button = browser.driver.find_element(By.CSS_SELECTOR, f'button[data-action="assign"][data-id="{added["id"]}"]')
        button.send_keys(Keys.ENTER)
        self.wait_status(browser, "Assigned “Budget vote” to ann; it is Assigned.")
        self.assertEqual(browser.driver.switch_to.active_element.get_attribute("data-id"), added["id"], "focus stays on the row")
        assigned = self.desk()["Budget vote"]
        self.assertEqual((assigned["state"], assigned["volunteer"], assigned["taking"]), ("assigned", "ann", "assigned"))
        self.assertEqual(self.rows(browser)[1][1:4], ["Assigned", "2030-12-02T17:00", "ann"])

        # Filters: by state, then only the late ones, then every article again.
        Select(browser.el("filter-state")).select_by_value("assigned")
        browser.click("filter-submit")
        browser.wait_js("return document.getElementById('caption').textContent.startsWith('1 article matching')", "the state filter")
        self.assertEqual([row[0] for row in self.rows(browser)], ["Budget vote Gazette, Council"])
        Select(browser.el("filter-state")).select_by_value("")
        browser.click("filter-late")
        browser.click("filter-submit")
        browser.wait_js("return document.querySelectorAll('#rows tr').length === 1 && "
                        "document.querySelector('#rows th').innerText.startsWith('Yesterday')", "the late filter")
        self.assertEqual(self.rows(browser)[0][2], "2020-01-02 Late")
        browser.click("filter-clear")
        browser.wait_js("return document.querySelectorAll('#rows tr').length === 2", "every article again")

        # A refusal is one sentence on the page and changes nothing.
        before = self.desk()
        browser.driver.find_element(By.CSS_SELECTOR, f'button[data-action="change"][data-id="{added["id"]}"]').click()
        browser.wait_js("return !document.getElementById('change-section').hidden", "the change form")
        self.assertEqual(browser.driver.switch_to.active_element.get_attribute("id"), "change-heading")
        browser.el("change-deadline").clear()
        browser.el("change-deadline").send_keys("2030-02-30")
        browser.click("change-submit")
        browser.wait_js("return document.getElementById('problem').textContent !== ''", "the refusal")
        self.assertEqual(browser.text("problem"), 'The deadline "2030-02-30" is not a day or a time: give YYYY-MM-DD (the whole day) '
                                                  "or YYYY-MM-DDTHH:MM (UTC), e.g. 2026-12-03 or 2026-12-03T17:30.")
        self.assertEqual(self.desk(), before)

        self.axe_check(browser, "desk")
        browser.screenshot("service-desk")

    def test_an_uploaded_markdown_file_and_a_word_file_are_added_and_a_damaged_pdf_refused(self):
        folder = self.studio.folder
        notes = os.path.join(folder, "shop-news.md")
        with open(notes, "w") as f:
            f.write("# Shop news\n\nApples are *cheap* this week.\n")
        flyer = os.path.join(folder, "flyer.pdf")
        with open(flyer, "w") as f:
            f.write("%PDF-1.4 not really\n")
        browser = self.browser_sign_in("cora")
        self.open_desk(browser)
        before = self.desk()
        browser.el("add-title").send_keys("Flyer")
        browser.el("add-file").send_keys(flyer)
        browser.click("add-submit")
        browser.wait_js("return document.getElementById('problem').textContent !== ''", "the refusal of a damaged pdf")
        self.assertEqual(browser.text("problem"),
                         '"flyer.pdf" cannot be read as a PDF (PDF document is damaged): save it again as PDF or as text and try again.')
        self.assertEqual(self.desk(), before)
        browser.el("add-title").clear()
        browser.el("add-title").send_keys("Shop news")
        browser.el("add-file").send_keys(notes)
        browser.click("add-submit")
        self.wait_status(browser, "Added “Shop news” to the desk, Open.")
        added = self.desk()["Shop news"]
        text = self.studio.narrate("script", "--article", added["id"])
        self.assertIn("Apples are cheap this week.", text.stdout, text.stderr)
        self.assertNotIn("*", text.stdout)

        # A Word file goes whole and the server reads it, as narrate desk add --text does.
        word = os.path.join(folder, "ferry.docx")
        with zipfile.ZipFile(word, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("[Content_Types].xml", "<Types/>")
            z.writestr("word/document.xml",
                       '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                       "<w:body><w:p><w:r><w:t>Ferry timetable</w:t></w:r></w:p><w:p><w:r><w:t>The first ferry leaves at six.</w:t></w:r></w:p>"
                       "</w:body></w:document>")
        browser.el("add-title").send_keys("Ferry timetable")
        browser.el("add-file").send_keys(word)
        browser.click("add-submit")
        self.wait_status(browser, "Added “Ferry timetable” to the desk, Open.")
        text = self.studio.narrate("script", "--article", self.desk()["Ferry timetable"]["id"])
        self.assertIn("The first ferry leaves at six.", text.stdout, text.stderr)

    def test_a_volunteer_is_refused_the_desk_and_the_page_says_so(self):
        before = self.desk()
        _, cookie, _ = self.sign_in("vic")
        for method, path, body in (("GET", "/api/desk", None), ("GET", "/api/desk/volunteers", None),
                                   ("POST", "/api/desk", {"title": "Mine", "text": "Hello."})):
            status, _, answer = self.call(method, path, body, cookie=cookie)
            self.assertEqual((status, answer), (403, {"error": ONLY_COORDINATORS}), path)
        status, _, _ = self.call("GET", "/desk", cookie=cookie, origin=None)
        self.assertEqual(status, 403)
        browser = self.browser_sign_in("vic")
        self.assertFalse(browser.visible("desk-link"), "a volunteer's home page shows no desk")
        browser.driver.get(self.studio.base + "/desk")
        browser.wait_js("return document.getElementById('problem').textContent !== ''", "the page to say why")
        self.assertEqual(browser.text("problem"), ONLY_COORDINATORS)
        self.assertFalse(browser.visible("add"), "the add form stays hidden")
        self.axe_check(browser, "desk refused")
        self.assertEqual(self.desk(), before)

    def test_the_desk_fits_a_phone_and_200_percent_zoom(self):
        browser = self.browser_sign_in("cora")
        for width in (375, 640):  # a phone; 200 % zoom of a 1280 px window
            browser.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                           {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width == 375})
            self.open_desk(browser)
            wide = browser.js("return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > arguments[0] "
                              "&& !e.closest('.table-scroll')).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))", width)
            self.assertLessEqual(browser.js("return document.documentElement.scrollWidth"), width, f"the desk scrolls sideways at {width} px: {wide}")
            for element in browser.driver.find_elements(By.CSS_SELECTOR, "button, input, select, textarea"):
                if element.is_displayed():
                    self.assertGreaterEqual(element.size["height"], 44, f"a small target at {width} px: {element.get_attribute('id')}")
            self.axe_check(browser, f"desk at {width} px")
        browser.screenshot("service-desk-375")
