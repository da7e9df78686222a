"""Shared fixture of the web studio's browser tests.

`Studio` runs one `narrate serve` on a fresh data root with the emulated USB microphone
(Tests/Fixtures/usbaudio.c, compiled once per test process) as its booth device; `Browser` drives
headless Chromium at it through chromedriver, or WebKit (`engine="webkit"`, a test class's
`engine = "webkit"`) through Debian's webkit2gtk-driver. Everything else is a small helper: the
`narrate` command line on the same data root, WAV samples, a speech file for Chromium's fake
microphone, axe-core, screenshots, raw HTTP.

WebKit, as found by trying WebKitGTK 2.50.6 (Debian 12's webkit2gtk-driver, libwebkit2gtk-4.1-0):

- WebKitWebDriver starts MiniBrowser (/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser, in
  libwebkit2gtk-4.1-0) with the capability `webkitgtk:browserOptions` {binary, args}; `args`
  replace its own, so `--automation` must be among them, and `browserName` must be "MiniBrowser".
  The GTK MiniBrowser has no headless mode (that is WPE's): it needs an X display, so the fixture
  starts one Xvfb per test process. No window manager: fullscreen does nothing.
- Its window is at least 447 px wide (the toolbar), so a 375 px viewport cannot be had by size
  alone: `Browser(..., engine="webkit", zoom=PHONE_ZOOM)` starts MiniBrowser with GDK_DPI_SCALE=1.2,
  which WebKitGTK applies as the page's zoom, and `viewport(375, h)` then makes a 450 px window
  whose page is 375 CSS px wide (innerWidth 375, fonts still 16 px). Screenshots are in device
  pixels (450 px wide then). In a zoomed browser WebDriver's clicks land at the element's centre
  divided by the zoom (on whatever is there): drive it with the keyboard (Enter, Space), which
  is what the zoom-free browser is for otherwise.
- A microphone: the WebKitSettings `enable-media-stream` and `enable-mock-capture-devices`, on
  MiniBrowser's command line (`--enable-media-stream=true --enable-mock-capture-devices=true`),
  give "Mock audio device 1", 44.1 kHz mono: a 150 Hz hum at 0.1 of full scale and a 3 kHz tone
  at 0.05, with a 0.5 beep of about 140 ms every second (1.5 kHz and 500 Hz in turn). getUserMedia
  is granted with no prompt in an automation session (nothing to answer, no capability needed).
  Without those settings `enumerateDevices()` is empty and getUserMedia fails with
  OverconstrainedError.
- AudioWorklet works (`addModule` of a same-origin script, AudioContext at 44.1 kHz).
- IndexedDB works, and keeps what was written across a reload within the session (the session's
  data store is ephemeral: nothing outlives the browser).
- The Origin Private File System does not: `navigator.storage` is undefined (the StorageAPI and
  FileSystem features are off by default in WebKitGTK, unlike Safari). Switched on with
  `--features=+StorageAPI,+FileSystem,+FileSystemWritableStream`, `navigator.storage.getDirectory()`
  fails with UnknownError in the automation session, so `createWritable` and
  `createSyncAccessHandle` cannot be reached either. A page must fall back to IndexedDB.
- `<audio>` plays a WAV over HTTP with Range requests (currentTime advances; autoplay allowed
  with `--autoplay-policy=allow`).
- No browser log: WebKitWebDriver has no `goog:loggingPrefs` and no BiDi (`webSocketUrl` is
  refused), and `--enable-write-console-messages-to-stdout=true` printed nothing; a test collects
  errors with `window.onerror` installed once the page has loaded. No CDP, so no network
  emulation either.

Nothing here sleeps for a fixed time where a condition can be waited for.
"""

import atexit
import base64
import http.client
import json
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
import unittest
import wave

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("NARRATE_BINARY", os.path.join(REPO, ".build", "debug", "narrate"))
USBAUDIO_SOURCE = os.path.join(REPO, "Tests", "Fixtures", "usbaudio.c")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver")
CHROMIUM = os.environ.get("CHROMIUM") or next(
    (p for p in ("/usr/lib/chromium/chromium", "/usr/bin/chromium", shutil.which("chromium") or "") if p and os.path.exists(p)),
    "/usr/bin/chromium")
WEBKIT_DRIVER = os.environ.get("WEBKIT_DRIVER") or shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
MINIBROWSER = os.environ.get("MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
PHONE_ZOOM = 1.2  # WebKit's GDK_DPI_SCALE for a phone: 375 CSS px in a 450 px window, above MiniBrowser's 447 px minimum
SCREEN = (1280, 1000)
PUBLICATION = "Daily Post"
NARRATOR = "Ann Reader"

_process_folder = None
_plugin = None
_running = []  # servers started and not yet stopped: stopped at exit, whatever happened
_plugin_lock = threading.Lock()
_display = None  # (Xvfb's process, ":N") for WebKit, started once per test process


def webkit_available():
    """Whether WebKitWebDriver and MiniBrowser are installed (webkit2gtk-driver)."""
    return os.access(WEBKIT_DRIVER, os.X_OK) and os.access(MINIBROWSER, os.X_OK)


def x_display():
    """An X display for MiniBrowser: one Xvfb per test process (it picks a free number itself),
    stopped at exit."""
    global _display
    with _plugin_lock:
        if _display is None:
            read, write = os.pipe()
            process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1400x24", "-nolisten", "tcp"],
                                       pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.close(write)
            with os.fdopen(read) as pipe:
                number = pipe.readline().strip()
            if not number:
                process.kill()
                raise AssertionError("Xvfb did not start (is the xvfb package installed?)")
            def stop():
                process.kill()
                process.wait()
            atexit.register(stop)
            _display = (process, ":" + number)
    return _display[1]


def process_folder():
    """A temporary folder for the whole test process (the plugin, the speech file), removed at exit."""
    global _process_folder
    if _process_folder is None:
        _process_folder = tempfile.mkdtemp(prefix="narrate-webtests-")
        atexit.register(shutil.rmtree, _process_folder, True)
    return _process_folder


def usbaudio_plugin():
    """Compiles the emulated USB audio ALSA plugin once per test process; its path."""
    global _plugin
    with _plugin_lock:
        if _plugin is None:
            output = os.path.join(process_folder(), "libasound_module_pcm_usbaudio.so")
            subprocess.run(
                ["cc", "-shared", "-fPIC", "-DPIC", "-O2", "-o", output, USBAUDIO_SOURCE, "-lasound", "-lm"],
                check=True, capture_output=True, text=True)
            _plugin = output
    return _plugin


def wait_for_binary(timeout=600):
    """The narrate binary, once it exists and has not changed for 3 s (another engineer may be
    rebuilding it)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            st = os.stat(BINARY)
            signature = (st.st_size, st.st_mtime)
            if signature == last and os.access(BINARY, os.X_OK) and time.time() - st.st_mtime > 3:
                return BINARY
            last = signature
        except FileNotFoundError:
            last = None
        time.sleep(1)
    raise AssertionError(f"{BINARY} did not appear (or kept changing) for {timeout} s: build narrate first")


# ---------------------------------------------------------------------------------------------
# The server


class Studio:
    """One `narrate serve --listen 127.0.0.1:0 --device usbmic` on a fresh data root."""

    def __init__(self, name="studio", config=None):
        self.folder = tempfile.mkdtemp(prefix=f"narrate-{name}-")
        self.home = os.path.join(self.folder, "home")
        self.config_home = os.path.join(self.folder, "config")
        os.makedirs(self.home)
        os.makedirs(os.path.join(self.config_home, "narrate"))
        with open(os.path.join(self.config_home, "narrate", "config.toml"), "w") as f:
            # "{folder}" in a given config stands for this studio's own folder.
            f.write(config.replace("{folder}", self.folder) if config is not None else f'publication = "{PUBLICATION}"\nnarrator = "{NARRATOR}"\n')
        self.asound_conf = os.path.join(self.folder, "asound-test.conf")
        with open(self.asound_conf, "w") as f:
            f.write(
                f'pcm_type.usbaudio {{ lib "{usbaudio_plugin()}" }}\n'
                f"pcm.usbmic {{\n    type usbaudio channels 1 rate_min 44100 rate_max 48000\n"
                f'    busy_file "{self.folder}/usb.busy"\n    unplug_file "{self.folder}/usb.unplugged"\n}}\n')
        self.env = dict(os.environ)
        for key in list(self.env):
            if key.startswith("NARRATE_") and key != "NARRATE_SCREENSHOTS":
                del self.env[key]
        self.env.update({
            "HOME": self.folder,
            "NARRATE_HOME": self.home,
            "XDG_CONFIG_HOME": self.config_home,
            "ALSA_CONFIG_PATH": f"/usr/share/alsa/alsa.conf:{self.asound_conf}",
        })
        self.process = None
        self.first_url = None
        self.stdout_lines = []
        self.stderr_path = os.path.join(self.folder, "serve.stderr")

    def start(self, timeout=30, extra=(), listen="127.0.0.1:0", open_files=None, command_prefix=()):
        """Starts `narrate serve` (with `extra` arguments) and reads the link it prints.
        `open_files`: the soft limit of open files it starts with (as a login's 1024);
        `command_prefix`: words run before the binary (`NetFault.server_command([])` runs it in a
        network namespace behind a faulty link)."""
        binary = wait_for_binary()
        self._close_streams()
        self._stderr = open(self.stderr_path, "w")

        def limits():
            if open_files is not None:
                import resource
                resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
        self.process = subprocess.Popen(
            [*command_prefix, binary, "serve", "--listen", listen, "--device", "usbmic", *extra],
            env=self.env, stdout=subprocess.PIPE, stderr=self._stderr, stdin=subprocess.DEVNULL, text=True,
            preexec_fn=limits)
        first = threading.Event()

        def drain():
            for line in self.process.stdout:
                self.stdout_lines.append(line.rstrip("\n"))
                first.set()
            first.set()
        self._drain = threading.Thread(target=drain, daemon=True)
        self._drain.start()
        if not first.wait(timeout) or not self.stdout_lines:
            self.process.kill()
            raise AssertionError(f"narrate serve printed no link within {timeout} s; stderr: {self.stderr()}")
        line = self.stdout_lines[0]
        words = [w for w in line.split() if w.startswith(("http://", "https://"))]
        # A library with accounts is a reading service: its first line names the sign-in page.
        service = line.startswith("Serving the reading service") and words and words[0].endswith("/signin")
        if not service and (not line.startswith("Open ") or not words or "?token=" not in words[0]):
            raise AssertionError(f"narrate serve's first line is not 'Open http://…/?token=… in a browser': {line!r}")
        _running.append(self)
        self.first_url = words[0]
        self.base = self.first_url.rsplit("/signin", 1)[0] if service else self.first_url.split("/?token=", 1)[0]
        self.hostport = self.base.split("://", 1)[1]
        self.host, port = self.hostport.rsplit(":", 1)
        self.port = int(port)
        return self

    def _close_streams(self):
        """Closes the files of a server started before (a restart), once it has stopped."""
        process = getattr(self, "process", None)
        if process is not None and process.poll() is not None:
            self._drain.join(5)
            if process.stdout:
                process.stdout.close()
        if getattr(self, "_stderr", None) is not None:
            self._stderr.close()
            self._stderr = None

    @property
    def url(self):
        """The newest link: each link lets one browser in, and narrate serve records the next one
        in web-studio.link (as it prints it) once a link is used."""
        try:
            with open(os.path.join(self.env["NARRATE_HOME"], "web-studio.link")) as f:
                record = json.load(f)
            if self.process is not None and record["processID"] == self.process.pid:
                return record["url"]
        except (OSError, ValueError, KeyError):
            pass
        return self.first_url

    @property
    def token(self):
        return self.url.split("/?token=", 1)[1]

    def liveness(self):
        """"running", or how it ended and what it printed: for failure messages."""
        if self.process is None:
            return "narrate serve: not started"
        code = self.process.poll()
        if code is None:
            return "narrate serve: running"
        return (f"narrate serve EXITED with status {code} while the test ran; stdout: {self.stdout_lines}; "
                f"stderr: {self.stderr().strip()[-1500:]!r}")

    def stderr(self):
        try:
            with open(self.stderr_path) as f:
                return f.read()
        except OSError:
            return ""

    def stop(self, timeout=30):
        """SIGINT, then the exit status (None if it was never started)."""
        if self.process is None:
            return None
        if self in _running:
            _running.remove(self)
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise AssertionError(f"narrate serve did not stop within {timeout} s of SIGINT")
        self._stderr.close()
        self._drain.join(5)
        if not self._drain.is_alive():
            self.process.stdout.close()
        return self.process.returncode


    def remove(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    # The command line on the same data root

    def narrate(self, *args, timeout=60):
        return subprocess.run([BINARY, *args], env=self.env, capture_output=True, text=True, timeout=timeout)

    def narrate_json(self, *args):
        result = self.narrate(*args, "--json")
        if result.returncode != 0:
            raise AssertionError(f"narrate {' '.join(args)} --json exited {result.returncode}: {result.stderr.strip()}")
        return json.loads(result.stdout)

    def chunks(self, article=None):
        return self.narrate_json("chunks", *(["--article", article] if article else []))

    # Raw HTTP

    def session_cookie(self):
        """Exchanges the token for the session cookie, as a browser does: `narrate_session=…`."""
        status, headers, _ = self.request("GET", "/?token=" + self.token)
        if status != 303:
            raise AssertionError(f"GET /?token=T answered {status}, not 303")
        cookie = headers.get("set-cookie", "")
        return cookie.split(";", 1)[0]

    def request(self, method, path, headers=None, body=None, timeout=30):
        """(status, lower-case headers, body bytes) of one request on a fresh connection."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            data = response.read()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, data
        finally:
            connection.close()


def _stop_leftovers():
    for studio in list(_running):
        try:
            studio.stop(10)
        except Exception:
            pass


atexit.register(_stop_leftovers)


# ---------------------------------------------------------------------------------------------
# The browser


class Browser:
    """Headless Chromium through chromedriver, with a temporary profile; or, with
    `engine="webkit"`, WebKitGTK's MiniBrowser through WebKitWebDriver on Xvfb, its mock
    microphone on (`arguments` are then MiniBrowser's own; `zoom` its page zoom, PHONE_ZOOM for a
    375 px viewport)."""

    def __init__(self, folder, fake_audio=None, arguments=(), engine="chromium", zoom=1.0, profile=None):
        # `profile`: another browser's profile folder, to open what it stored (a killed tab's takes).
        self.engine = engine
        self.zoom = zoom
        self.killed = False
        self.studio = None
        if engine == "webkit":
            if fake_audio:
                raise AssertionError("WebKit cannot capture from a file: its mock microphone plays a fixed hum and beeps")
            self._start_webkit(folder, arguments)
            return
        self.profile = profile or tempfile.mkdtemp(prefix="chromium-", dir=folder)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in [
            "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--user-data-dir={self.profile}",
            f"--window-size={SCREEN[0]},{SCREEN[1]}", "--autoplay-policy=no-user-gesture-required",
            "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            "--disable-gpu", "--no-first-run", "--disable-background-timer-throttling",
            "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows", *arguments,
        ]:
            options.add_argument(argument)
        if fake_audio:
            options.add_argument(f"--use-file-for-fake-audio-capture={fake_audio}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # Chromium's own temporary files (its singleton socket folder) stay in the test's folder.
        self.tmp = tempfile.mkdtemp(prefix="tmp-", dir=folder)
        self.service = Service(CHROMEDRIVER, log_output=os.path.join(folder, "chromedriver.log"),
                               env={**os.environ, "TMPDIR": self.tmp})
        self.driver = webdriver.Chrome(service=self.service, options=options)
        self.driver.set_script_timeout(60)
        # The viewport, exactly: screenshots are 1280×1000.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": SCREEN[0], "height": SCREEN[1], "deviceScaleFactor": 1, "mobile": False})

    def _start_webkit(self, folder, arguments):
        from selenium.webdriver import WebKitGTKOptions
        from selenium.webdriver.webkitgtk.service import Service as WebKitService
        options = WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        for argument in ["--automation", "--enable-media-stream=true", "--enable-mock-capture-devices=true",
                         "--autoplay-policy=allow", *arguments]:
            options.add_argument(argument)
        self.profile = tempfile.mkdtemp(prefix="webkit-", dir=folder)
        self.tmp = tempfile.mkdtemp(prefix="tmp-", dir=folder)
        environment = {**os.environ, "DISPLAY": x_display(), "GDK_DPI_SCALE": str(self.zoom), "TMPDIR": self.tmp,
                       "XDG_CACHE_HOME": self.profile, "XDG_DATA_HOME": self.profile}
        environment.pop("WAYLAND_DISPLAY", None)
        self.service = WebKitService(WEBKIT_DRIVER, log_output=os.path.join(folder, "webkitwebdriver.log"), env=environment)
        self.driver = webdriver.WebKitGTK(service=self.service, options=options)
        self.driver.set_script_timeout(60)
        self.viewport(*SCREEN)

    def viewport(self, width, height):
        """Makes the page's viewport `width`×`height` CSS px (Chromium: device metrics, `mobile`
        below 500 px; WebKit: the window, by the zoom it runs at)."""
        if self.engine != "webkit":
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
            return
        if width * self.zoom < 447:
            raise AssertionError(f"MiniBrowser's window is at least 447 px wide: for {width} CSS px start WebKit with zoom=PHONE_ZOOM")
        for _ in range(3):  # the toolbar's height is known once the window exists
            inner = self.js("return [innerWidth, innerHeight, outerHeight]")
            toolbar = inner[2] - round(inner[1] * self.zoom)
            self.driver.set_window_rect(width=round(width * self.zoom), height=round(height * self.zoom) + toolbar)
            if self.js("return [innerWidth, innerHeight]") == [width, height]:
                return
        raise AssertionError(f"WebKit's viewport is {self.js('return [innerWidth, innerHeight]')}, not {[width, height]}")

    def quit(self):
        if self.killed:
            try:
                self.service.stop()
            except Exception:
                pass
        else:
            try:
                self.driver.quit()
            except Exception:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def chromium_pids(self):
        """The processes chromedriver started (Chromium and its helpers), from /proc."""
        root = self.service.process.pid
        children = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
        found, todo = [], [root]
        while todo:
            for child in children.get(todo.pop(), []):
                found.append(child)
                todo.append(child)
        return found

    def kill_chromium(self):
        """SIGKILL to every Chromium process of this browser (not chromedriver): the tab dies
        without closing anything properly. Returns how many were killed."""
        pids = self.chromium_pids()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.killed = True
        return len(pids)

    # The studio page

    def open(self, studio, timeout=20):
        """Opens the printed link and waits until the page is connected (its status line says
        something other than "Connecting…") and has drawn the server's first state."""
        self.driver.get(studio.url)
        self.wait(lambda d: d.current_url.rstrip("/") == studio.base, "the link to redirect to /", timeout)
        # Connected, and the server's first state drawn: between the two the page shows its
        # empty state's buttons, which the first state may hide.
        self.wait_js("return typeof state === 'object' && state !== EMPTY_STATE "
                     "&& document.getElementById('status').textContent !== '' "
                     "&& !document.getElementById('status').textContent.startsWith('Connecting')",
                     "the page to connect to /live and draw the server's state", timeout)
        return self

    def wait(self, condition, what, timeout=15):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(condition)
        except TimeoutException:
            raise AssertionError(f"Timed out after {timeout} s waiting for {what}. {self.describe()}") from None

    def wait_js(self, script, what, timeout=15):
        return self.wait(lambda d: d.execute_script(script), what, timeout)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def state(self):
        """The studio state the page last received (studio.js's `state`)."""
        return self.js("return state")

    def el(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def text(self, element_id):
        return self.js("return document.getElementById(arguments[0]).textContent", element_id)

    def visible(self, element_id):
        return self.js("const e = document.getElementById(arguments[0]);"
                       "return !!e && !e.closest('[hidden]') && e.getClientRects().length > 0", element_id)

    def chunk_numbers(self):
        return self.js("return [...document.querySelectorAll('#chunks > li')].map(li => Number(li.dataset.number))")

    def wait_chunk_count(self, count, timeout=15):
        self.wait(lambda d: len(self.chunk_numbers()) == count, f"#chunks to have {count} rows", timeout)

    def click(self, element_id):
        self.el(element_id).click()

    def show_new_article_form(self, timeout=15):
        """Shows the new-article form: on an empty library the studio may show it by itself, a
        moment after its first state (the form and its button are never both on screen), so this
        waits for one of the two before deciding whether to click."""
        self.wait(lambda d: self.visible("article-section") or self.visible("new-article"),
                  "the new-article form or its button", timeout)
        if not self.visible("article-section"):
            self.click("new-article")
        self.wait(lambda d: self.visible("article-section"), "the new-article form", timeout)

    def press(self, keys):
        """Keys on the page itself (focus off any control first)."""
        self.js("if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur()")
        ActionChains(self.driver).send_keys(keys).perform()

    def wait_recording(self, seconds=0.0, timeout=15):
        self.wait_js(f"return state.activity.kind === 'recording' && state.activity.seconds >= {seconds}",
                     f"the studio to be recording for {seconds} s", timeout)

    def wait_ready(self, timeout=15):
        self.wait_js("return state.activity.kind === 'ready'", "the studio to be ready", timeout)

    def fetch(self, path, headers=None):
        """fetch() in the page (same origin: the cookie goes along): status, headers and body."""
        result = self.driver.execute_async_script("""
            const [path, headers, done] = arguments;
            fetch(path, {headers: headers || {}, credentials: 'same-origin'}).then(async (r) => {
              const bytes = new Uint8Array(await r.arrayBuffer());
              let text = '';
              for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
              const h = {};
              r.headers.forEach((v, k) => { h[k] = v; });
              done({status: r.status, headers: h, body: btoa(text)});
            }).catch((e) => done({error: String(e)}));
        """, path, headers or {})
        if "error" in result:
            raise AssertionError(f"fetch({path}) failed in the page: {result['error']}")
        return result["status"], result["headers"], base64.b64decode(result["body"])

    def describe(self):
        """The page's status, problem and state, for failure messages."""
        try:
            info = self.js("""return {status: document.getElementById('status').textContent,
                problem: document.getElementById('problem').textContent,
                formProblem: document.getElementById('form-problem').textContent,
                state: typeof state === 'object' ? Object.assign({}, state, {chunks: state.chunks.length, meter: null}) : null,
                page: typeof page === 'object' ? page : null}""")
            text = "Page: " + json.dumps(info)[:2500]
        except Exception as error:  # the browser may be gone
            text = f"(page not readable: {error.__class__.__name__})"
        return text + (" " + self.studio.liveness() if self.studio else "")

    def console(self):
        try:
            return [e["message"] for e in self.driver.get_log("browser")]
        except Exception:
            return []

    # axe-core and screenshots

    def axe(self):
        """axe-core's violations on the page as it is now."""
        from axe_selenium_python import Axe
        axe = Axe(self.driver)
        axe.inject()
        results = axe.run(options="{resultTypes: ['violations']}")
        return results["violations"]

    def screenshot(self, name):
        """Saves NAME.png into $NARRATE_SCREENSHOTS (nothing when unset); the path, or None."""
        folder = os.environ.get("NARRATE_SCREENSHOTS")
        if not folder:
            return None
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, name + ".png")
        if not self.driver.save_screenshot(path):
            raise AssertionError(f"Chromium did not save the screenshot {path}")
        return path


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise AssertionError(f"{path} is not a PNG")
    return struct.unpack(">II", head[16:24])


# ---------------------------------------------------------------------------------------------
# Audio


def wav_frames(path_or_bytes):
    """(sample rate, channels, sample width, raw frames) of a WAV file or WAV bytes."""
    import io
    source = io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, (bytes, bytearray)) else path_or_bytes
    with wave.open(source, "rb") as w:
        return w.getframerate(), w.getnchannels(), w.getsampwidth(), w.readframes(w.getnframes())


def wav_duration(path):
    with wave.open(path, "rb") as w:
        return w.getnframes() / w.getframerate()


_speech = None


def speech_file():
    """A known speech WAV (espeak-ng, then sox to 44.1 kHz mono 16-bit), made once per process:
    what Chromium's fake microphone captures (it loops the file)."""
    global _speech
    with _plugin_lock:
        if _speech is None:
            raw = os.path.join(process_folder(), "speech-espeak.wav")
            path = os.path.join(process_folder(), "speech.wav")
            text = ("The city council met on Tuesday evening to vote on the budget for next year. "
                    "Seven members voted for it, two against, and the mayor thanked the volunteers.")
            subprocess.run(["espeak-ng", "-s", "150", "-w", raw, text], check=True, capture_output=True)
            subprocess.run(["sox", raw, "-r", "44100", "-c", "1", "-b", "16", path], check=True, capture_output=True)
            _speech = path
    return _speech


def ffprobe(path):
    result = subprocess.run(["ffprobe", "-v", "error", "-show_format", "-show_chapters", "-of", "json", path],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"ffprobe {path} exited {result.returncode}: {result.stderr.strip()}")
    return json.loads(result.stdout)


# ---------------------------------------------------------------------------------------------
# Test cases


class StudioTestCase(unittest.TestCase):
    """A test class with one server (started in setUpClass, stopped with SIGINT in
    tearDownClass, which asserts exit status 0) and browsers made with `cls.browser()`."""

    studio_name = "studio"
    engine = "chromium"  # or "webkit": what `cls.browser()` starts
    config = None  # config.toml's text; None: the publication and narrator only
    studio = None
    browsers = ()

    @classmethod
    def setUpClass(cls):
        cls.browsers = []
        cls.studio = Studio(cls.studio_name, cls.config)
        try:
            cls.studio.start()
            cls.setUpStudio()
        except BaseException:
            try:
                cls.tearDownClass()  # unittest does not call it when setUpClass fails
            except AssertionError:
                pass
            raise

    @classmethod
    def setUpStudio(cls):
        """What a class does once its server runs (a failure here still stops the server)."""

    @classmethod
    def tearDownClass(cls):
        for browser in cls.browsers:
            browser.quit()
        status = cls.studio.stop() if cls.studio else None
        stderr = cls.studio.stderr() if cls.studio else ""
        if cls.studio:
            cls.studio.remove()
        if status not in (0, None):
            raise AssertionError(f"narrate serve exited {status} after SIGINT (want 0); stderr: {stderr.strip()[-2000:]}")

    @classmethod
    def browser(cls, fake_audio=None, arguments=(), profile=None):
        """A new browser of the class's engine; `arguments`: the browser's own flags beside the
        fixture's; `profile`: the profile folder of an earlier browser (killed), to start from what
        it stored."""
        browser = Browser(cls.studio.folder, fake_audio, arguments, cls.engine, profile=profile)
        cls.browsers.append(browser)
        return browser

    def axe_check(self, browser, screen):
        """Fails when axe-core finds a violation of impact "serious" or "critical"; every
        violation found is listed (and printed for the report)."""
        violations = browser.axe()
        lines = []
        for v in violations:
            targets = [" ".join(map(str, n.get("target", []))) for n in v.get("nodes", [])][:6]
            lines.append(f"  [{v.get('impact')}] {v['id']}: {v.get('help')} — {len(v.get('nodes', []))} node(s): {targets}")
        if lines:
            print(f"\naxe-core on '{screen}':\n" + "\n".join(lines))
        bad = [v for v in violations if v.get("impact") in ("serious", "critical")]
        self.assertFalse(bad, f"axe-core found serious or critical violations on '{screen}':\n" + "\n".join(lines))
        return violations


class DeliveringStudioTestCase(StudioTestCase):
    """A studio whose config.toml names a folder destination, `delivered` in the studio's own
    folder, with one browser page open on it."""

    config = f'publication = "{PUBLICATION}"\nnarrator = "{NARRATOR}"\ndestination = "{{folder}}/delivered"\n'

    @classmethod
    def setUpStudio(cls):
        os.makedirs(os.path.join(cls.studio.folder, "delivered"))
        cls.page = cls.browser()
        cls.page.open(cls.studio)

    def delivered_files(self, sidecars=True):
        """Every file delivered so far, sorted; without the JSON sidecars unless `sidecars`."""
        folder = os.path.join(self.studio.folder, "delivered")
        return sorted(os.path.join(root, name) for root, _, names in os.walk(folder) for name in names
                      if sidecars or not name.endswith(".json"))
