#!/usr/bin/env python3
"""The benchmark's catch-up part (Scripts/bench catch-up): how fast a take's upload catches up on a
1 Mbit/s link after a 60 s outage, at each rate a coordinator may give an article for takes at home
(`narrate desk add --rate`).

It runs the browser test's own measurement (Tests/Browser/test_take_network_faults.py, `catch_up`):
`narrate serve` (NARRATE, the release binary) in a network namespace reached through netfault.py's
link limited to 1 Mbit/s, Chromium's fake microphone capturing espeak-ng speech, the link cut for
60 s mid-take, the take stopped, the link back. Each chunk is compared with the captured audio
sample for sample. The namespace needs root; without it the rows say so.

Prints the rows as JSON for Scripts/bench's table: the target is 5x real time.
"""

import contextlib
import json
import os
import sys
import unittest

RATES = (44100, 22050, 16000)
TARGET = 5.0


def main():
    if os.geteuid() != 0:
        print(json.dumps([["catch-up", "after a 60 s outage on 1 Mbit/s", "not measured", "needs root (a network namespace)"]]))
        return
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    os.environ["NARRATE_BINARY"] = os.environ["NARRATE"]
    sys.path.insert(0, os.path.join(repo, "Tests", "Browser"))
    import test_take_network_faults

    figures = {}

    class CatchUp(test_take_network_faults.NetworkFaultTests):
        def runTest(self):
            for rate in RATES:
                figures[rate] = self.catch_up(f"Catch-up at {rate} Hz", rate)

    result = unittest.TestResult()
    with contextlib.redirect_stdout(sys.stderr):
        unittest.TestSuite([CatchUp()]).run(result)
    for test, trace in result.errors + result.failures:
        sys.exit(f"catch-up failed:\n{trace}")
    rows = []
    for rate in RATES:
        backlog, seconds, reconnected = figures[rate]
        speed = backlog / seconds
        rows.append(["catch-up" if not rows else "", f"{rate} Hz: 60 s outage on 1 Mbit/s",
                     f"{backlog:.1f} s of audio on the server in {seconds:.1f} s: {speed:.2f}x real time "
                     f"({backlog / max(0.1, seconds - reconnected):.2f}x after reconnecting in {reconnected:.1f} s)",
                     f"≥ {TARGET:g}x: {'met' if speed >= TARGET else 'NOT MET'}; chunk equal to the capture"])
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
