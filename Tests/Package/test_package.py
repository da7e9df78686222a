"""The Debian package, installed where a volunteer's computer would have it.

Builds dist/narrate_<version>_amd64.deb with Scripts/package (lintian must report no errors),
makes a fresh Debian 12 root with debootstrap (minbase: no Swift, no compiler), installs the
package there with `apt-get install ./narrate_*.deb`, and inside it runs `narrate demo` as a
volunteer's account, `man narrate`, a bash completion of `narrate rec<TAB>` typed into an
interactive shell in tmux, and the desktop entry's command against the systemd unit's studio.

Needs root (debootstrap, chroot, mounts) and Debian's archive (NARRATE_DEBIAN_MIRROR, default
http://deb.debian.org/debian). Prints the package's size, its installed size and the time from
`apt-get install` to the end of the first `narrate demo`.
"""

import json
import os
import re
import select
import shlex
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.request
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
MIRROR = os.environ.get("NARRATE_DEBIAN_MIRROR", "http://deb.debian.org/debian")
VOLUNTEER = "volunteer"
VOLUNTEER_ID = 1500  # the account's user and group number, so that chroot needs no name lookup


def run(command, **options):
    """Runs a command, failing with its output when it fails."""
    result = subprocess.run(command, capture_output=True, text=True, **options)
    if result.returncode != 0:
        raise AssertionError(
            f"{shlex.join(command)} exited {result.returncode}\nstdout:\n{result.stdout[-4000:]}\nstderr:\n{result.stderr[-4000:]}")
    return result


class FreshDebianRoot:
    """A Debian 12 minbase root in a temporary folder, with /proc, /sys and /dev mounted."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="narrate-package-test-"))
        self.path = self.folder / "root"
        self.mounts = []

    def make(self):
        run(["debootstrap", "--variant=minbase", "bookworm", str(self.path), MIRROR])
        for source, target, kind in (("proc", "proc", "proc"), ("sysfs", "sys", "sysfs")):
            run(["mount", "-t", kind, source, str(self.path / target)])
            self.mounts.append(self.path / target)
        run(["mount", "--bind", "/dev", str(self.path / "dev")])
        self.mounts.append(self.path / "dev")
        shutil.copy("/etc/resolv.conf", self.path / "etc/resolv.conf")

    def chroot(self, *command, user=None, environment=None, check=True, timeout=600):
        """Runs a command in the root, as root or as `user` with a login-like environment."""
        prefix = ["chroot"]
        env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
        if user:
            prefix += [f"--userspec={VOLUNTEER_ID}:{VOLUNTEER_ID}"]
            env.update({"HOME": f"/home/{user}", "USER": user})
        else:
            env["HOME"] = "/root"
        env.update(environment or {})
        full = prefix + [str(self.path), "/usr/bin/env", "-i"] + [f"{k}={v}" for k, v in env.items()] + list(command)
        if check:
            return run(full, timeout=timeout)
        return subprocess.run(full, capture_output=True, text=True, timeout=timeout)

    def remove(self):
        """Unmounts and deletes the root; never deletes while anything is still mounted in it,
        since /dev there is the host's own."""
        for mount in reversed(self.mounts):
            subprocess.run(["umount", str(mount)], capture_output=True)
        inside = str(self.path) + "/"
        with open("/proc/self/mountinfo") as mounts:
            left = [line.split()[4] for line in mounts if (line.split()[4] + "/").startswith(inside)]
        if left:
            print(f"\nThe test root {self.path} still has mounts ({', '.join(left)}): left in place, not deleted.", flush=True)
            return
        subprocess.run(["rm", "-rf", "--one-file-system", str(self.folder)], capture_output=True)


class PackageTests(unittest.TestCase):
    deb: Path
    root: FreshDebianRoot
    figures: dict

    @classmethod
    def setUpClass(cls):
        if os.geteuid() != 0:
            raise unittest.SkipTest("the package test needs root: debootstrap, chroot and mounts")
        built = run([str(REPOSITORY / "Scripts/package"), "--lintian"], cwd=REPOSITORY)
        cls.lintian = built.stderr
        cls.deb = Path(built.stdout.strip().splitlines()[-1])
        cls.figures = {"package KiB": cls.deb.stat().st_size / 1024}
        cls.root = FreshDebianRoot()
        try:
            cls.root.make()
            # What a desktop Debian has and minbase lacks: the man reader and bash's completion; and
            # the other two shells the package brings completions for.
            cls.root.chroot("apt-get", "install", "-y", "-qq", "--no-install-recommends", "man-db", "bash-completion", "zsh", "fish")
            cls.root.chroot("groupadd", "--gid", str(VOLUNTEER_ID), VOLUNTEER)
            cls.root.chroot("useradd", "--create-home", "--shell", "/bin/bash", "--uid", str(VOLUNTEER_ID),
                            "--gid", str(VOLUNTEER_ID), VOLUNTEER)
            shutil.copy(cls.deb, cls.root.path / "tmp" / cls.deb.name)
            started = time.monotonic()
            cls.installed = cls.root.chroot(
                "apt-get", "install", "-y", "--no-install-recommends", f"/tmp/{cls.deb.name}",
                environment={"DEBIAN_FRONTEND": "noninteractive"})
            cls.demo = cls.root.chroot("narrate", "demo", "--json", user=VOLUNTEER, check=False)
            cls.figures["install to first demo s"] = time.monotonic() - started
            newly = re.search(r"(\d+) newly installed", cls.installed.stdout)
            cls.figures["packages installed"] = int(newly.group(1)) if newly else 0
            status = cls.root.chroot("dpkg-query", "-W", "-f=${Installed-Size}", "narrate").stdout
            cls.figures["installed KiB"] = int(status)
        except BaseException:
            cls.root.remove()
            raise
        print("\nPackage figures: " + ", ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}" for k, v in cls.figures.items()), flush=True)

    @classmethod
    def tearDownClass(cls):
        cls.root.remove()

    def test_lintian_reports_no_errors(self):
        errors = [line for line in self.lintian.splitlines() if line.startswith("E:")]
        self.assertEqual(errors, [], "lintian:\n" + self.lintian)

    def test_package_holds_the_binary_manual_completions_unit_and_desktop_entry(self):
        listing = run(["dpkg-deb", "--contents", str(self.deb)]).stdout
        modes = {line.split()[-1].lstrip("."): line.split()[0] for line in listing.splitlines()}
        expected = {
            "/usr/bin/narrate": "-rwxr-xr-x",
            "/usr/share/man/man1/narrate.1.gz": "-rw-r--r--",
            "/usr/share/bash-completion/completions/narrate": "-rw-r--r--",
            "/usr/share/zsh/vendor-completions/_narrate": "-rw-r--r--",
            "/usr/share/fish/vendor_completions.d/narrate.fish": "-rw-r--r--",
            "/usr/lib/systemd/user/narrate-serve.service": "-rw-r--r--",
            "/usr/share/applications/narrate.desktop": "-rw-r--r--",
            "/usr/share/icons/hicolor/scalable/apps/narrate.svg": "-rw-r--r--",
            "/usr/share/doc/narrate/copyright": "-rw-r--r--",
            "/usr/share/doc/narrate/changelog.gz": "-rw-r--r--",
        }
        self.assertEqual({path: modes.get(path) for path in expected}, expected)
        self.assertTrue(all(" root/root " in line for line in listing.splitlines()), listing)

    def test_depends_names_the_c_libraries_and_no_swift_runtime(self):
        control = run(["dpkg-deb", "--field", str(self.deb), "Depends"]).stdout
        names = {re.split(r"[ (]", part.strip())[0] for part in control.split(",")}
        for library in ("libasound2", "libsndfile1", "libmp3lame0", "librubberband2", "libebur128-1", "libxml2",
                        "libsoxr0", "libflac12", "libopusenc0", "libfftw3-single3", "libpocketsphinx3",
                        "libsqlite3-0", "pocketsphinx-en-us"):
            self.assertIn(library, names, control)
        self.assertFalse(any("swift" in name for name in names), control)
        needed = run(["chroot", str(self.root.path), "ldd", "/usr/bin/narrate"]).stdout
        self.assertNotIn("not found", needed)
        self.assertNotRegex(needed, r"libswift|libFoundation|libdispatch")
        self.assertEqual(self.root.chroot("sh", "-c", "command -v swift swiftc || true").stdout, "")
        self.assertEqual(list(self.root.path.glob("usr/lib/**/libswiftCore*")), [])

    def test_copyright_names_each_compiled_in_library_and_its_licence(self):
        copyright_text = (self.root.path / "usr/share/doc/narrate/copyright").read_text()
        self.assertTrue(copyright_text.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"))
        for stanza in ("Files: swift-packages/grdb.swift/*\nCopyright: 2015-2025 Gwendal Roué\nLicense: Expat",
                       "Files: swift-packages/hummingbird/*", "Files: swift-packages/swift-argument-parser/*",
                       "Files: swift-packages/zipfoundation/*", "License: Apache-2.0 with Runtime-Library exception",
                       "License: BoringSSL", "Original SSLeay License"):
            self.assertIn(stanza, copyright_text)
        licences = set(re.findall(r"^License: (.+)$", copyright_text, re.MULTILINE))
        self.assertEqual(licences, {"narrate", "Apache-2.0", "Apache-2.0 with Runtime-Library exception", "Expat", "BoringSSL",
                                    "Unicode-3.0", "Zlib"})
        notices = subprocess.run(["zcat", str(self.root.path / "usr/share/doc/narrate/NOTICE.gz")], capture_output=True, text=True).stdout
        for package in ("swift-nio", "swift-crypto", "async-http-client"):
            self.assertIn(f"==== {package} ====", notices)

    def test_first_demo_runs_in_the_fresh_root(self):
        self.assertEqual(self.demo.returncode, 0, self.demo.stderr)
        report = json.loads(self.demo.stdout)
        self.assertEqual(len(report["chunks"]), 3, report)
        self.assertEqual(len(report["tags"]["chapters"]), 3, report)
        self.assertGreater(report["check"]["decodedFrames"], 44100, report)
        self.assertTrue(report["folder"].startswith("/tmp/narrate-demo-"), report)
        self.assertRegex(self.installed.stdout, r"Setting up narrate \(\d+\.\d+\.\d+\)")

    def test_doctor_says_what_a_computer_without_sound_card_lacks(self):
        """The fresh root has no sound card, as a new volunteer's computer with the microphone not
        yet plugged in: doctor says so, with the remedy, and exits 1; the rest of its checks pass."""
        checked = self.root.chroot("narrate", "doctor", "--json", user=VOLUNTEER, check=False)
        self.assertEqual(checked.returncode, 1, checked.stderr)
        report = json.loads(checked.stdout)
        status = {finding["area"]: finding["status"] for finding in report["findings"]}
        self.assertEqual(status["devices"], "warning")
        self.assertEqual(status["microphone"], "problem")
        self.assertEqual({area for area, state in status.items() if state == "problem"}, {"microphone"}, report)
        self.assertEqual(report["dataRoot"], f"/home/{VOLUNTEER}/.local/share/narrate")
        microphone = next(finding for finding in report["findings"] if finding["area"] == "microphone")
        self.assertEqual(microphone["remedy"], 'Run "narrate devices" to list devices.')

    def test_man_page_is_the_commands_help(self):
        manual = self.root.chroot("man", "--no-hyphenation", "--no-justification", "narrate",
                                  environment={"MANPAGER": "cat", "MANWIDTH": "100"}).stdout
        self.assertIn("NAME", manual)
        self.assertRegex(manual, r"narrate\s+[—-]\s+Narrate newspaper and magazine articles")
        help_text = self.root.chroot("narrate", "record", "--help", user=VOLUNTEER).stdout
        abstract = help_text.splitlines()[0].removeprefix("OVERVIEW: ").strip()
        self.assertIn(abstract[:40], " ".join(manual.split()))
        for subcommand in ("record", "submit", "serve", "doctor", "hours", "config"):
            self.assertIsNotNone(re.search(rf"^\s+{subcommand}\s+[A-Z]", manual, re.MULTILINE), f"no {subcommand} in the manual")
        # Characters outside ASCII survive the manual generator (it drops them unless Scripts/package spells them out).
        example = next(line.strip() for line in self.root.chroot("narrate", "move-chunk", "--help", user=VOLUNTEER).stdout.splitlines()
                       if "# 5 becomes 2" in line)
        self.assertIn("–", example)
        self.assertIn(example, manual)
        # What the help cannot say: config.toml (the file `narrate config init` writes), the environment and the data root.
        for section in ("CONFIGURATION", "ENVIRONMENT", "FILES"):
            self.assertRegex(manual, rf"(?m)^{section}$")
        self.assertIn("# [destinations.archive]", manual)
        self.assertIn("# credentials_file = ", manual)
        self.assertIn("web-studio.link", manual)

    def interactive_shell(self, name, *shell):
        """A volunteer's interactive `shell` in the root, in a detached tmux session; its name."""
        session = f"narrate-package-{name}-{os.getpid()}"
        command = shlex.join(["chroot", f"--userspec={VOLUNTEER_ID}:{VOLUNTEER_ID}", str(self.root.path), "/usr/bin/env", "-i",
                              f"HOME=/home/{VOLUNTEER}", "TERM=xterm", "LANG=C.UTF-8", "PATH=/usr/bin:/bin", *shell])
        run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "30", command])
        self.addCleanup(subprocess.run, ["tmux", "kill-session", "-t", session], capture_output=True)
        return session

    def test_bash_completes_narrate_rec_to_record(self):
        session = self.interactive_shell("bash", "/bin/bash", "--login", "-i")
        self.wait_for_screen(session, lambda screen: "$" in screen)
        run(["tmux", "send-keys", "-t", session, "narrate rec", "Tab"])
        screen = self.wait_for_screen(session, lambda screen: "narrate record" in screen)
        self.assertRegex(screen, r"\$ narrate record ?\s*$")
        run(["tmux", "send-keys", "-t", session, "--", "--dev", "Tab"])
        screen = self.wait_for_screen(session, lambda screen: "--device" in screen)
        self.assertIn("narrate record --device", screen)

    def test_fish_completes_narrate_rec_to_record(self):
        completed = self.root.chroot("fish", "-c", "complete -C 'narrate rec'", user=VOLUNTEER).stdout
        self.assertEqual([line.split("\t")[0] for line in completed.splitlines()], ["record"], completed)
        options = self.root.chroot("fish", "-c", "complete -C 'narrate record --dev'", user=VOLUNTEER).stdout
        self.assertEqual([line.split("\t")[0] for line in options.splitlines()], ["--device"], options)

    def test_zsh_completes_narrate_rec_to_record(self):
        session = self.interactive_shell("zsh", "/usr/bin/zsh", "-f", "-i")
        self.wait_for_screen(session, lambda screen: screen.endswith(("%", "#", ">")))
        # A zsh user's usual setup: the completion system, which finds Debian's vendor completions.
        run(["tmux", "send-keys", "-t", session, "autoload -U compinit && compinit -u && PS1='zsh> '", "Enter"])
        self.wait_for_screen(session, lambda screen: screen.endswith("zsh>"))
        run(["tmux", "send-keys", "-t", session, "narrate rec", "Tab"])
        screen = self.wait_for_screen(session, lambda screen: "zsh> narrate record" in screen)
        self.assertRegex(screen, r"zsh> narrate record ?\s*$")

    def test_unit_and_desktop_entry_pass_their_validators(self):
        entry = self.root.path / "usr/share/applications/narrate.desktop"
        validated = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
        self.assertEqual((validated.returncode, validated.stdout + validated.stderr), (0, ""))
        # systemd-analyze checks the unit's keys and that its command runs: the installed binary,
        # reached here through the root's path, since this machine has no /usr/bin/narrate.
        unit = (self.root.path / "usr/lib/systemd/user/narrate-serve.service").read_text()
        folder = Path(tempfile.mkdtemp(prefix="narrate-unit-"))
        self.addCleanup(shutil.rmtree, folder, True)
        (folder / "narrate-serve.service").write_text(unit.replace("/usr/bin/narrate", str(self.root.path / "usr/bin/narrate")))
        runtime = folder / "runtime"
        runtime.mkdir(mode=0o700)
        verified = subprocess.run(["systemd-analyze", "verify", "--user", "--man=no", str(folder / "narrate-serve.service")],
                                  capture_output=True, text=True, env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)})
        self.assertEqual((verified.returncode, verified.stdout + verified.stderr), (0, ""))

    def test_desktop_entry_opens_the_studio_the_user_unit_started(self):
        unit = (self.root.path / "usr/lib/systemd/user/narrate-serve.service").read_text()
        service_command = shlex.split(re.search(r"^ExecStart=(.+)$", unit, re.MULTILINE).group(1))
        entry = (self.root.path / "usr/share/applications/narrate.desktop").read_text()
        entry_command = shlex.split(re.search(r"^Exec=(.+)$", entry, re.MULTILINE).group(1))
        self.assertEqual(entry_command, ["narrate", "serve", "--open"])
        # xdg-open, as the desktop has it: here it only writes down the link it was given.
        opener = self.root.path / "usr/local/bin/xdg-open"
        opener.write_text('#!/bin/sh\nprintf "%s\\n" "$1" >> /tmp/opened\n')
        opener.chmod(0o755)
        (self.root.path / "tmp/opened").unlink(missing_ok=True)
        environment = ["/usr/bin/env", "-i", f"HOME=/home/{VOLUNTEER}", "LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin"]
        server = subprocess.Popen(
            ["chroot", f"--userspec={VOLUNTEER_ID}:{VOLUNTEER_ID}", str(self.root.path)] + environment + service_command,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            ready, _, _ = select.select([server.stdout], [], [], 60)
            self.assertTrue(ready, "the unit's narrate serve printed no link within 60 s")
            line = server.stdout.readline()
            link = re.search(r"(http://\S+)", line).group(1)
            browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())  # the token becomes a cookie
            with browser.open(link, timeout=10) as page:
                self.assertEqual(page.status, 200)
                self.assertIn(b"<html", page.read().lower())
            # A link lets one browser in: the server prints (and records) the next one.
            ready, _, _ = select.select([server.stdout], [], [], 10)
            self.assertTrue(ready, "narrate serve printed no next link after the first was used")
            following = server.stdout.readline()
            self.assertIn("for another browser, open http://", following)
            link = re.search(r"(http://\S+)", following).group(1)
            opened = self.root.chroot(*entry_command, user=VOLUNTEER, environment={"PATH": "/usr/local/bin:/usr/bin:/bin"})
            self.assertIn("already running", opened.stdout)
            log = self.root.path / "tmp/opened"
            deadline = time.monotonic() + 10  # xdg-open runs on after narrate has left, as a desktop's does
            while time.monotonic() < deadline and not (log.exists() and log.read_text().strip()):
                time.sleep(0.1)
            self.assertEqual(log.read_text().split(), [link])
        finally:
            server.terminate()
            _, errors = server.communicate(timeout=30)
        self.assertEqual(server.returncode, 0, errors)

    @staticmethod
    def wait_for_screen(session, ready, seconds=20):
        deadline = time.monotonic() + seconds
        screen = ""
        while time.monotonic() < deadline:
            screen = run(["tmux", "capture-pane", "-p", "-t", session]).stdout.rstrip()
            if ready(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"the shell never showed what was expected; its screen:\n{screen}")


if __name__ == "__main__":
    unittest.main()
