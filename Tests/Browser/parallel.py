"""Runs the browser tests' modules in `jobs` processes at once (`Tests/Browser/run --jobs N`): the
suite spends most of its time waiting in real time (takes recorded at the microphone's pace,
network outages, page loads), about a quarter of two cores busy, so two or three modules at a time
take the wall time down without loading the machine. Each module runs whole in one process (its
server, browser, Xvfb and network namespace its own, as the fixtures make them per process);
the longest go first so that the processes end together. Each module's output is printed
whole once it ends, with its time; the exit status is 1 if any module failed."""

import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# The modules that take longest, longest first (a CI run's figures: network faults 145 s,
# accessibility and the API fuzz about 55 s together, the service's studios 50 s, connections
# 44 s, …); the rest follow in name order.
LONGEST_FIRST = ["test_several_hosts", "test_take_network_faults", "test_accessibility", "test_api_fuzz", "test_service_studios", "test_connections",
                 "test_service", "test_take_uploads", "test_netfault", "test_browser_microphone", "test_studio_review",
                 "test_service_expiry", "test_punch", "test_review", "test_webkit"]


def main(jobs):
    modules = sorted(name[:-3] for name in os.listdir(HERE) if name.startswith("test_") and name.endswith(".py"))
    queue = [m for m in LONGEST_FIRST if m in modules] + [m for m in modules if m not in LONGEST_FIRST]
    lock = threading.Lock()
    results = []

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                module = queue.pop(0)
            started = time.monotonic()
            run = subprocess.run([sys.executable, "-m", "unittest", "-v", module], cwd=HERE, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True, errors="replace")
            elapsed = time.monotonic() - started
            with lock:
                results.append((module, run.returncode, elapsed))
                sys.stdout.write(f"\n==== {module}: {'ok' if run.returncode == 0 else 'FAILED'} in {elapsed:.0f} s\n{run.stdout}")
                sys.stdout.flush()

    started = time.monotonic()
    threads = [threading.Thread(target=worker, name=f"browser tests {n}") for n in range(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failed = [module for module, code, _ in results if code != 0]
    times = ", ".join(f"{module} {elapsed:.0f} s" for module, _, elapsed in sorted(results, key=lambda r: -r[2])[:8])
    print(f"\n{len(results)} modules in {jobs} processes in {time.monotonic() - started:.0f} s (longest: {times})")
    if failed:
        print("FAILED modules: " + ", ".join(failed))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2))
