"""A reading service expires what is overdue as it starts: an article whose "listen until" passed
while no service ran is Expired once `narrate serve` is up, as `narrate desk expire` leaves it
(the state and the audit log), and an article still to be heard is not. The five-minute passes
after the start are tested in process (DeskExpiryTests, with a clock in hand). No browser."""

import glob
import os
import sqlite3
import time
import unittest

from studio_fixture import Studio
from test_service import ServiceTestCase, add_account


class ServiceExpiryTests(ServiceTestCase):
    studio_name = "service-expiry"
    config = 'publication = "Daily News"\nnarrator = "Service"\n'

    @classmethod
    def setUpClass(cls):
        """Before the service starts: a coordinator, two articles, and one article's "listen
        until" moved into the past in the catalog (the desk refuses a past one, as it should)."""
        cls.browsers = []
        cls.studio = Studio(cls.studio_name, cls.config)
        cls.invitations = {"cora": add_account(cls.studio, "cora", "coordinator")}
        try:
            cls.stale = cls.studio.narrate_json("desk", "add", "--title", "Last week's flyer", "--listen-until", "2099-01-01")["id"]
            cls.fresh = cls.studio.narrate_json("desk", "add", "--title", "Today's news", "--listen-until", "2099-01-01")["id"]
            catalogs = glob.glob(os.path.join(cls.studio.home, "**", "*.sqlite"), recursive=True)
            if len(catalogs) != 1:
                raise AssertionError(f"want one catalog, found {catalogs}")
            with sqlite3.connect(catalogs[0]) as catalog:
                changed = catalog.execute("UPDATE desk_article SET listen_until_at = 1000 WHERE article_id = ?", (cls.stale,)).rowcount
            if changed != 1:
                raise AssertionError(f"the catalog has no desk record of {cls.stale}")
            cls.studio.start()
        except BaseException:
            cls.tearDownClass()
            raise

    def state(self, article):
        return self.studio.narrate_json("desk", "show", article)["state"]

    def test_overdue_article_is_expired_at_start(self):
        deadline = time.monotonic() + 15
        while self.state(self.stale) != "expired" and time.monotonic() < deadline:
            time.sleep(0.2)
        self.assertEqual((self.state(self.stale), self.state(self.fresh)), ("expired", "open"))
        audit = self.studio.narrate_json("audit")
        expiries = [entry for entry in audit if "expire open → expired" in entry.get("detail", "")]
        self.assertEqual(len(expiries), 1, expiries)
        self.assertIn(self.stale, expiries[0]["detail"])
        # Expired already: narrate desk expire has nothing more to do.
        self.assertEqual(self.studio.narrate_json("desk", "expire"), [])


if __name__ == "__main__":
    unittest.main()
