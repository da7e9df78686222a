#!/usr/bin/env python3
"""The web studio's benchmark (`Scripts/bench web` runs it and prints its rows with the rest).

Times, in headless Chromium (Debian's chromium and chromium-driver, driven by selenium) against
`narrate serve`:
  - page load to interactive: the link opened to the Record button enabled under the article's title;
  - button press to first captured frame: the click to the take's partial file holding audio,
    with the booth microphone (the emulated USB microphone, real time) and with the browser's
    (Chromium's fake capture device fed a speech file);
  - stop to durable: the click to the chunk committed (its partial file renamed into place);
  - the live meter: state messages a second each of 4 open pages receives during a take.
Each timing is the median of 5. Prints one JSON list of rows: [section, what, figure, target].

Environment: NARRATE (the binary), WORK (a scratch folder), FIXTURES (Tests/Fixtures).
"""
import glob, http.cookiejar, json, os, shutil, signal, statistics, subprocess, sys, tempfile, time, urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

narrate, work, fixtures = os.environ["NARRATE"], os.environ["WORK"], os.environ["FIXTURES"]
base = os.path.join(work, "web")
os.makedirs(base, exist_ok=True)


def note(text):
    print(text, file=sys.stderr, flush=True)


# The emulated USB microphone (real-time S16 mono) as the booth's ALSA device.
plugin = os.path.join(base, "libasound_module_pcm_usbaudio.so")
subprocess.run(["cc", "-shared", "-fPIC", "-DPIC", "-O2", "-o", plugin, os.path.join(fixtures, "usbaudio.c"), "-lasound", "-lm"], check=True)
with open(os.path.join(base, "asound.conf"), "w") as conf:
    conf.write('pcm_type.usbaudio { lib "%s" }\npcm.usbmic { type usbaudio channels 1 rate_min 44100 rate_max 48000 }\n' % plugin)

# A speech file for the browser's fake microphone.
speech = os.path.join(base, "speech.wav")
subprocess.run(["espeak-ng", "-w", os.path.join(base, "raw.wav"), "Volunteers read newspaper articles aloud for listeners who cannot read print."], check=True)
subprocess.run(["sox", os.path.join(base, "raw.wav"), "-r", "44100", "-c", "1", "-b", "16", speech, "repeat", "5"], check=True)

home = os.path.join(base, "home")
env = dict(os.environ, NARRATE_HOME=home, XDG_CONFIG_HOME=os.path.join(base, "config"), HOME=base,
           ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:" + os.path.join(base, "asound.conf"))
server = subprocess.Popen([narrate, "serve", "--listen", "127.0.0.1:0", "--device", "usbmic"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
link = server.stdout.readline().split()[1]
origin = link.split("/?")[0]


def current_link():
    """The newest link: each lets one browser in, and narrate serve records the next in web-studio.link."""
    with open(os.path.join(home, "web-studio.link")) as f:
        return json.load(f)["url"]


# A new article through the API, as the page's form makes it.
jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
opener.open(link).read()
request = urllib.request.Request(origin + "/api/articles", method="POST", headers={"Content-Type": "application/json", "Origin": origin},
                                 data=json.dumps({"title": "Web bench", "text": "\n\n".join("Paragraph %d of the bench's text." % n for n in range(1, 21)), "textName": "t.txt"}).encode())
article = json.load(opener.open(request))["article"]
chunks_folder = glob.glob(os.path.join(home, "**", article, "chunks"), recursive=True) or [os.path.join(home, "articles", article, "chunks")]
chunks_folder = chunks_folder[0]


def browser(logging=False):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
                 "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                 "--use-file-for-fake-audio-capture=" + speech, "--autoplay-policy=no-user-gesture-required",
                 "--user-data-dir=" + tempfile.mkdtemp(dir=base)]:
        options.add_argument(flag)
    if logging:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def interactive(driver):
    record = driver.find_element(By.ID, "record")
    return record.is_enabled() and driver.find_element(By.ID, "title").text.strip() == "Web bench"


def wait(predicate, limit=20, step=0.002):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return time.monotonic()
        time.sleep(step)
    raise SystemExit("timed out waiting in the web bench")


def partial_with_audio():
    return any(os.path.getsize(p) > 44 for p in glob.glob(os.path.join(chunks_folder, "*.partial.wav")))


def committed(count):
    return not glob.glob(os.path.join(chunks_folder, "*.partial.wav")) and len(glob.glob(os.path.join(chunks_folder, "*.wav"))) == count


rows = []
try:
    driver = browser()
    loads = []
    first_link = current_link()
    for _ in range(5):
        started = time.monotonic()
        driver.get(first_link)  # used once, then this browser's session takes it on to the page
        WebDriverWait(driver, 20, poll_frequency=0.005).until(interactive)
        loads.append(time.monotonic() - started)
    rows.append(["web studio", "page load to interactive (link to Record enabled)", "median %.0f ms (%s)" % (
        statistics.median(loads) * 1000, ", ".join("%.0f" % (x * 1000) for x in loads)), "5 loads"])

    for microphone in ("device", "browser"):
        driver.find_element(By.ID, "mic-" + microphone).click()
        time.sleep(1.5)  # the browser's microphone opens once, when it is chosen
        firsts, durables = [], []
        for _ in range(5):
            count = len(glob.glob(os.path.join(chunks_folder, "*.wav")))
            WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "record").text.strip().startswith("Record"))
            pressed = time.monotonic()
            driver.find_element(By.ID, "record").click()
            firsts.append(wait(partial_with_audio) - pressed)
            time.sleep(2)
            stopped = time.monotonic()
            driver.find_element(By.ID, "record").click()
            durables.append(wait(lambda: committed(count + 1)) - stopped)
            time.sleep(0.5)
        label = "booth microphone (emulated USB)" if microphone == "device" else "browser microphone (Chromium's fake device)"
        rows.append(["", "press to first captured frame, " + label, "median %.0f ms (worst %.0f)" % (
            statistics.median(firsts) * 1000, max(firsts) * 1000), "click to audio in the take's file"])
        rows.append(["", "stop to durable, " + label, "median %.0f ms (worst %.0f)" % (
            statistics.median(durables) * 1000, max(durables) * 1000), "click to the chunk committed"])
    driver.find_element(By.ID, "mic-device").click()
    driver.quit()

    note("Four pages open, one take of 5 s: counting state messages…")
    pages = [browser(logging=True) for _ in range(4)]
    for page in pages:
        page.get(current_link())
        WebDriverWait(page, 20).until(interactive)
        page.get_log("performance")  # drop what came before
    pages[0].find_element(By.ID, "record").click()
    time.sleep(1)
    for page in pages: page.get_log("performance")
    window_start = time.monotonic()
    time.sleep(5)
    counts = []
    for page in pages:
        frames = [json.loads(entry["message"])["message"] for entry in page.get_log("performance")]
        counts.append(sum(1 for f in frames if f["method"] == "Network.webSocketFrameReceived" and '"type":"state"' in f["params"]["response"]["payloadData"]))
    window = time.monotonic() - window_start
    pages[0].find_element(By.ID, "record").click()
    rates = [c / window for c in counts]
    rows.append(["", "live meter with 4 pages open (state messages a second, each page)", ", ".join("%.1f" % r for r in rates),
                 "20 a second: %s" % ("met" if min(rates) >= 19 else "NOT MET")])
    for page in pages: page.quit()
finally:
    server.send_signal(signal.SIGINT)
    server.wait(30)

print(json.dumps(rows))
