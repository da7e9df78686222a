// narrate web studio: the page.
//
// How it works, in four parts:
//  1. The server owns the studio. Over the WebSocket /live it sends the studio's state (see
//     ../Protocol.md); the page keeps the latest in `state`, and a little of its own in `page`
//     (connection, outbox, settings, the browser's audio player, the microphone).
//  2. `render(state, page)` draws the DOM from those two values and nothing else. It never
//     rebuilds what is already right: text is written only when it differs, chunk rows are kept
//     (keyed by number) and redrawn only when their chunk changed, so focus stays where it was.
//  3. Buttons and keys only send messages: a key for the server (the terminal studio's own rules
//     decide what it means), or drive the <audio> player, which plays in the browser.
//  4. With "This computer's microphone", an AudioWorklet turns the microphone into 16-bit PCM;
//     takes.js keeps each take in the browser and uploads it in numbered pieces, so that no
//     break of the network, the page or the server loses any of it.
"use strict";

const $ = (id) => document.getElementById(id);
const MAX_TEXT_BYTES = 2 * 1024 * 1024;
const PRE_ROLL_SECONDS = 3;     // punch-and-roll plays this much before the point
const TAKE_KEYS = new Set(["r", "e", "i", "a"]); // keys that may start a take
const CHUNK_KEYS = new Set(["x", "e", "i", "y", "delete"]); // keys that act on one chunk: sent with its id

/** The state before the server's first message. */
const EMPTY_STATE = {
  header: null, activity: { kind: "ready" }, meter: null, peak: null, warning: null, reading: null,
  chunks: [], selection: 0, panel: { kind: "chunks" }, notice: null, microphone: "device",
  deviceName: "", format: { sampleRate: 44100, channels: 1 }, audioVersion: "",
};

let state = EMPTY_STATE;
const page = {
  account: null,          // in a reading service, the signed-in account's name (GET /api/me)
  connected: false,
  everConnected: false,
  jobs: [],
  settings: [],
  notice: null,         // a sentence of the page's own ("Playing from chunk 3.")
  problem: null,        // a problem of the page's own (microphone refused, retry failed)
  formProblem: null,    // why the new-article form was refused
  lastArticle: null,    // {id, title} of the article open last: the form offers to go back to it
  creating: false,      // the form is being sent
  audioFrom: null,      // the chunk number the <audio> source starts at, null: none loaded
  audioVersion: null,   // state.audioVersion of the loaded source
  punching: false,      // the pre-roll of a punch is playing
  streaming: false,     // microphone frames go to the server (a browser take runs)
  pickups: null,        // an article's studio in a reading service: GET /api/pickups/ID's answer
  pickupUnderway: false, // a pickup's fix was started from the list: focus returns there once it is done
};

// ---------------------------------------------------------------------------------------------
// Formatting

/** "1:23.4" (m:ss.s), or "1:02:03.4" past an hour. */
function clock(seconds, tenths = true) {
  const total = Math.max(0, seconds || 0);
  const whole = tenths ? Math.floor(total * 10) / 10 : Math.floor(total);
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  const ss = (s < 10 ? "0" : "") + (tenths ? s.toFixed(1) : String(Math.floor(s)));
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** "−6.0 dB" with a real minus sign. */
function decibels(value) {
  if (value == null || !isFinite(value)) return "";
  return `${value < 0 ? "−" : ""}${Math.abs(value).toFixed(1)} dB`;
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function megabytes(bytes) { return `${(bytes / 1048576).toFixed(1)} MB`; }

// ---------------------------------------------------------------------------------------------
// Small DOM helpers: each writes only when the value differs, so a re-render touches nothing
// that is already right.

function setText(el, text) { if (el.textContent !== text) el.textContent = text; }
function show(el, visible) { if (el.hidden === visible) el.hidden = !visible; }
function setAttr(el, name, value) {
  if (value == null) { if (el.hasAttribute(name)) el.removeAttribute(name); }
  else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}
/** Buttons are "disabled" with aria-disabled: they keep focus, and a click does nothing. */
function enable(el, on) { setAttr(el, "aria-disabled", on ? null : "true"); }
function isEnabled(el) { return el.getAttribute("aria-disabled") !== "true"; }
function setClass(el, name, on) { if (el.classList.contains(name) !== on) el.classList.toggle(name, on); }

// ---------------------------------------------------------------------------------------------
// Derived values (pure)

const isRecording = (s) => s.activity.kind === "recording";
const isPreRolling = (s) => s.activity.kind === "preRoll";
const isWorking = (s) => s.activity.kind === "working";
const panelKind = (s) => (s.panel ? s.panel.kind : "chunks");
const showsStudio = (s) => !!s.header && ["chunks", "help", "confirmDelete", "confirmSend"].includes(panelKind(s));

/** Where second `seconds` of the audio that starts at chunk `from` falls: which chunk, how far in. */
function chunkAt(s, from, seconds) {
  const start = s.chunks.findIndex((c) => c.number === from);
  if (start < 0) return null;
  let offset = 0;
  for (const chunk of s.chunks.slice(start)) {
    if (chunk.missing) continue; // a missing chunk has no audio in the article's WAV
    if (seconds < offset + chunk.duration) return { number: chunk.number, id: chunk.id, seconds: seconds - offset };
    offset += chunk.duration;
  }
  return null;
}

/** Seconds of audio from chunk `from` to the end. */
function lengthFrom(s, from) {
  const start = s.chunks.findIndex((c) => c.number === from);
  return start < 0 ? 0 : s.chunks.slice(start).reduce((sum, c) => sum + (c.missing ? 0 : c.duration), 0);
}

/** What the status line says. */
function statusText(s, p) {
  if (p.sessionEnded) return "Signed out.";
  if (!p.connected && p.streaming) return "Connection lost: trying again. Recording goes on here.";
  if (!p.connected) return p.everConnected ? "Connection lost: trying again…" : "Connecting to the studio…";
  if (p.problem) return p.problem;
  if (p.notice) return p.notice;
  // During a pre-roll its panel says what plays (aloud, assertively); the status line says it shortly.
  if (isPreRolling(s) && (!s.notice || s.notice.text === s.activity.text)) return `Fixing a slip in chunk ${s.activity.chunk}: listen.`;
  if (s.notice) return s.notice.text;
  if (isRecording(s)) return `Recording ${s.activity.where || ""}.`;
  if (isWorking(s)) return `${s.activity.stage}…`;
  if (!s.header) return panelKind(s) === "newArticle" ? "Fill in the form to start an article." : "Ready.";
  return "Ready.";
}

/** The meter's words for the canvas's label: how loud, in plain words. */
function meterLabel(s) {
  if (!s.meter) return "Sound level: nothing is being measured";
  const level = s.meter.heldPeak;
  const words = level < 0.05 ? "silent" : level < 0.5 ? "quiet" : level < 0.8 ? "good" : "too loud";
  return `Sound level: ${words}` + (s.peak != null ? `, peak ${decibels(s.peak)}` : "");
}

/** "Paragraph 3 of 12 · reading now": the reading pane's heading, as the terminal says it. */
function readingLabel(s) {
  const r = s.reading;
  const name = `${r.kind === "heading" ? "Heading" : "Paragraph"} ${r.number} of ${r.count}`;
  let remark = "";
  if (r.standing === "fixing") remark = "fixing a slip in it";
  else if (r.standing === "reading") remark = r.isRead ? "reading it again" : "reading now";
  else if (isRecording(s)) remark = "";
  else if (r.isSkipped) remark = "skipped: it is not read, and in no chapter or transcript";
  else if (r.standing === "next") remark = "Record reads it";
  else if (r.standing === "chosen") remark = r.isRead ? "read already: Read it again records it anew" : "not read yet: Record reads it";
  else if (r.standing === "allRead") remark = "every paragraph is read: choose one with Previous or Next, then Read it again";
  return remark ? `${name} · ${remark}` : name;
}

function articleLine(h) {
  const parts = [
    h.publication || "no publication",
    h.narrator ? `read by ${h.narrator}` : "no narrator",
    { open: "open", queued: "queued", delivered: "delivered", pruned: "pruned" }[h.state] || h.state,
    clock(h.duration),
    plural(h.chunkCount, "chunk"),
  ];
  if (h.exportReady) parts.push("ready to send");
  return parts.join(" · ");
}

/** A pickup's seconds as its button says them: "12.4". */
function pickupSeconds(seconds) { return String(Math.round(seconds * 10) / 10); }

/** What a pickup asks, in words: "Punch in at 12.4 s in chunk 2", "Read paragraph 3 again". */
function pickupAction(pickup) {
  const target = pickup.target || {};
  if (target.chunk) return `Punch in at ${pickupSeconds(target.seconds)} s in chunk ${target.chunk}`;
  return `Read paragraph ${target.paragraph} again`;
}

/** The note in words: what was said and what it should be, or the remark. */
function pickupNote(pickup) {
  const words = pickup.kind === "said-should-be" ? `Said “${pickup.said}”, should be “${pickup.shouldBe}”.` : pickup.text;
  return `${words} (${pickup.author})`;
}

/** Whether the pickups show, and whether all are done (the article went back to review). */
function pickupsShown(p) {
  const list = p.pickups;
  if (!list || !Array.isArray(list.pickups) || list.pickups.length === 0) return { shown: false, allDone: false };
  const allDone = list.state === "ready-for-review" && list.pickups.every((pickup) => pickup.done);
  return { shown: list.state === "pickups-requested" || allDone, allDone };
}

const ALL_PICKUPS_DONE = "All pickups are done: sent back to review.";

const JOB_STATES = { exporting: "Being made", queued: "Waiting to be sent", delivered: "Delivered" };

// ---------------------------------------------------------------------------------------------
// The renderer. `rendered` remembers what the last render drew, for the few things that depend
// on a change (a panel opening moves focus there; a new selection scrolls into view).

const rendered = { panel: null, selection: null, meter: null, meterLabelAt: 0, microphone: null, pickups: null };
const audio = $("player");
const cutAudio = $("cut-player");

function render(s, p) {
  const panel = panelKind(s);
  const studio = showsStudio(s);
  const recording = isRecording(s);
  const working = isWorking(s);
  const preRolling = isPreRolling(s) || p.punching;
  const busy = recording || working || p.streaming || preRolling;

  document.body.classList.toggle("is-recording", recording);
  $("account-home").hidden = !p.account;
  setText($("account-home"), p.account ? `${p.account}: your account` : "");

  // Header
  setText($("title"), s.header ? s.header.title : "narrate studio");
  setText($("article-line"), s.header ? articleLine(s.header) : "No article open.");
  setText($("status"), statusText(s, p));
  renderUploadStatus(s, p);
  // Alerts stay in the page (empty when there is nothing to say) so that screen readers hear them.
  setText($("problem"), p.problem || (s.notice && s.notice.isProblem && !p.notice ? s.notice.text : ""));
  show($("new-article"), panel !== "newArticle");
  enable($("new-article"), p.connected && !busy);
  show($("show-articles"), panel !== "articles" && (!!s.header || !!s.canListArticles));
  enable($("show-articles"), p.connected && !busy);

  renderForm(s, p, panel);
  renderArticles(s, p, panel);
  renderResult(s, panel);
  renderPickups(s, p, studio && !busy && p.connected);

  show($("record-section"), studio);
  show($("chunks-section"), studio);
  show($("send-section"), studio || working);
  if (studio) {
    renderReading(s, p);
    renderRecording(s, p);
    renderChunks(s, p);
    renderCuts(s, p, !busy && p.connected);
    renderUploads(s, p);
    renderPlayer(s, p);
    renderEditing(s, p);
  }
  renderSending(s, p);
  renderMicrophone(s, p);
  renderOutbox(p.jobs);
  renderSettings(p.settings);
  keepFocus(s, panel);
  rendered.panel = panel;
}

function renderForm(s, p, panel) {
  const open = panel === "newArticle";
  show($("article-section"), open);
  if (open && rendered.panel !== "newArticle") {
    // The form opens: publication and narrator come from the server's panel, the title starts empty.
    $("article-form").reset();
    $("form-publication").value = s.panel.publication || "";
    $("form-narrator").value = s.panel.narrator || "";
    $("form-title").focus();
  }
  const problem = p.formProblem || (open && s.panel.problem) || "";
  setText($("form-problem"), problem);
  enable($("form-create"), p.connected && !p.creating);
  setText($("form-create"), p.creating ? "Starting the article…" : "Start this article");
  // Back to the article that was open, unless it has been queued meanwhile.
  const back = open && p.lastArticle && p.lastArticle.state === "open" ? p.lastArticle : null;
  show($("form-back"), !!back);
  if (back) setText($("form-back"), `Back to “${back.title}”`);
}

/** "26 Nov 2026, 14:02" in the browser's own time zone and language. */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** The article list: each article with its details and an Open button; the open one marked. */
function renderArticles(s, p, panel) {
  const open = panel === "articles";
  show($("articles-section"), open);
  if (!open) return;
  const rows = s.panel.articles || [];
  show($("articles-empty"), rows.length === 0);
  const list = $("articles");
  const signature = JSON.stringify([rows, s.panel.openArticle, p.connected]);
  if (list.dataset.signature !== signature) {
    list.dataset.signature = signature;
    list.replaceChildren(...rows.map((row) => {
      const li = document.createElement("li");
      li.className = "article-row";
      li.dataset.article = row.id;
      const isOpen = row.id === s.panel.openArticle;
      setClass(li, "is-open", isOpen);
      li.innerHTML = '<div class="article-text"><p class="article-title"></p><p class="article-detail"></p></div>' +
        '<button type="button" class="open-article primary"></button>';
      li.querySelector(".article-title").textContent = row.title + (isOpen ? " (open now)" : "");
      const parts = [row.publication || "no publication", row.state, row.progress, clock(row.duration, false), `changed ${when(row.lastChange)}`];
      li.querySelector(".article-detail").textContent = parts.join(" · ");
      const button = li.querySelector("button");
      button.textContent = isOpen ? "Go back to it" : "Open";
      setAttr(button, "aria-label", `${isOpen ? "Go back to" : "Open"} “${row.title}”: ${parts.join(", ")}`);
      enable(button, row.canOpen && p.connected);
      if (!row.canOpen) setAttr(button, "title", "Its recordings were pruned: it cannot be opened.");
      return li;
    }));
  }
  if (rendered.panel !== "articles") {
    const first = list.querySelector("li.is-open button") || list.querySelector("button") || $("articles-new");
    first.focus();
  }
}

function renderResult(s, panel) {
  const open = panel === "result";
  show($("result"), open);
  if (!open) return;
  setText($("result-heading"), s.panel.heading || "");
  const lines = s.panel.lines || [];
  const list = $("result-lines");
  if (list.dataset.lines !== JSON.stringify(lines)) {
    list.dataset.lines = JSON.stringify(lines);
    list.replaceChildren(...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
  }
  setText($("result-remedy"), s.panel.remedy || "");
  show($("result-remedy"), !!s.panel.remedy);
  if (rendered.panel !== "result") $("next-article").focus();
}

/** The pickups list: one item per note, its button the fix it asks for (rebuilt only when the
 *  list changed; focus then goes to the next open pickup). */
function renderPickups(s, p, free) {
  const { shown, allDone } = pickupsShown(p);
  show($("pickups-section"), shown && !!s.header);
  if (!shown) return;
  const list = $("pickups");
  const key = JSON.stringify(p.pickups.pickups);
  if (rendered.pickups !== key) {
    // Focus goes on to the next pickup after one is done (or when it was in the list).
    const moveFocus = list.contains(document.activeElement) || (p.pickupUnderway && rendered.pickups !== null);
    list.replaceChildren(...p.pickups.pickups.map(makePickupItem));
    rendered.pickups = key;
    p.pickupUnderway = false;
    if (moveFocus) {
      const next = list.querySelector(".pickup-do");
      if (next) next.focus(); else $("pickups-heading").focus();
    }
  }
  for (const button of list.querySelectorAll(".pickup-do")) enable(button, free);
  setText($("pickups-intro"), allDone
    ? "The proof-listener hears what changed next."
    : "A proof-listener sent this article back with these notes. Choose one: the studio plays the seconds before it and records from there (or chooses the paragraph to read again). A pickup is marked done when the take that fixes it is kept.");
  setText($("pickups-done"), allDone ? ALL_PICKUPS_DONE : "");
}

function makePickupItem(pickup) {
  const li = document.createElement("li");
  li.className = "pickup" + (pickup.done ? " is-done" : "");
  li.dataset.note = String(pickup.id);
  const where = document.createElement("p");
  where.className = "pickup-where";
  where.id = `pickup-${pickup.id}-where`;
  where.textContent = `Pickup ${pickup.id}: paragraph ${pickup.paragraph} at ${clock(pickup.at)}`;
  const note = document.createElement("p");
  note.className = "pickup-note";
  note.id = `pickup-${pickup.id}-note`;
  note.textContent = pickupNote(pickup);
  li.append(where, note);
  if (pickup.done) {
    const done = document.createElement("p");
    done.className = "pickup-state";
    done.textContent = pickup.edit ? `Done with edit ${pickup.edit}.` : "Done.";
    li.append(done);
  } else {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "primary pickup-do";
    button.dataset.note = String(pickup.id);
    button.setAttribute("aria-describedby", `${where.id} ${note.id}`);
    button.textContent = pickupAction(pickup);
    li.append(button);
  }
  return li;
}

function renderReading(s, p) {
  const r = s.reading;
  const preRoll = isPreRolling(s);
  show($("pre-roll"), preRoll || p.punching);
  if (preRoll || p.punching) {
    setText($("pre-roll-text"), preRoll ? s.activity.text : "Playing the seconds before the slip…");
    if (!rendered.preRoll) $("cancel-fix").focus();
  }
  rendered.preRoll = preRoll || p.punching;
  show($("reading-box"), !!r);
  show($("no-text"), !r);
  if (!r) return;
  setClass($("reading-box"), "is-fixing", r.standing === "fixing");
  renderFlags(r.flags || [], s);
  setText($("reading-label"), readingLabel(s));
  setText($("reading"), r.text);
  setText($("next-reading"), r.next ? `Next: ${r.next}` : "End of the text.");
  setClass($("reading"), "is-heading", r.kind === "heading");
  setClass($("reading"), "is-quote", r.kind === "quote");
  setClass($("reading-box"), "is-read", r.isRead && r.standing !== "reading");
  const recording = isRecording(s) || preRoll;
  enable($("previous-paragraph"), !recording && r.number > 1);
  enable($("next-paragraph"), !recording && r.number < r.count);
  enable($("read-again"), !recording);
  setClass($("reading-box"), "is-skipped", !!r.isSkipped);
  setText($("skip-paragraph").querySelector(".label"), r.isSkipped ? "Read this paragraph after all" : "Skip this paragraph");
  enable($("skip-paragraph"), !recording && !(r.isRead && !r.isSkipped));
}

/** The paragraph's flagged takes: the hint's words and time, and a button to dismiss it. */
function renderFlags(flags, s) {
  const list = $("reading-flags");
  show(list, flags.length > 0);
  const signature = JSON.stringify(flags);
  if (list.dataset.signature === signature) return;
  list.dataset.signature = signature;
  list.replaceChildren(...flags.map((flag) => {
    const li = document.createElement("li");
    li.className = "flag";
    li.innerHTML = '<span class="flag-text"></span><button type="button" class="dismiss secondary"></button>';
    li.querySelector(".flag-text").textContent = `Chunk ${flag.chunk} may need a listen: ${flag.hint}`;
    const button = li.querySelector("button");
    button.dataset.chunk = String(flag.chunk);
    button.textContent = "It is fine: dismiss";
    setAttr(button, "aria-label", `Chunk ${flag.chunk} is fine: dismiss “${flag.hint}”`);
    return li;
  }));
}

function renderRecording(s, p) {
  // With this computer's microphone the take under way is the one this page captures; the server
  // recording (an upload of this page's, another page's take) is not one this button stops.
  const recording = isRecording(s) && s.microphone !== "browser";
  const record = $("record");
  const taking = recording || p.streaming; // a browser take is running from the moment r is pressed
  const preRolling = isPreRolling(s) || p.punching; // the fix's take starts by itself
  setText(record, taking ? "Stop" : preRolling ? "Record (the fix starts by itself)" : "Record");
  setClass(record, "is-stop", taking);
  // With this computer's microphone a take records into the browser even while the connection is away.
  enable(record, (p.connected || p.streaming || (s.microphone === "browser" && uploads.ready && !!uploads.article)) && !isWorking(s) && !preRolling);
  const local = p.streaming && uploads.capturing ? uploads.capturing.frames / uploads.capturing.sampleRate : null;
  setText($("elapsed"), local != null ? clock(local, false) : recording ? clock(s.activity.seconds, false) : "0:00");
  const onServer = p.streaming && uploads.capturing && (s.uploads || []).some((u) => u.live && u.take === uploads.capturing.take);
  setText($("where"), onServer ? `Recording ${s.activity.where}`
    : p.streaming ? "Recording a new chunk at the end, kept on this computer until it uploads"
    : recording ? `Recording ${s.activity.where}` : preRolling ? `Listening before the slip in chunk ${s.activity.chunk || ""}` : "Not recording");
  setText($("peak-level"), s.peak != null && s.meter ? `Peak ${decibels(s.peak)}` : "");
  setText($("warning"), s.warning || "");
  drawMeter(s.meter);
  // The canvas's label changes at most once a second (a screen reader must not chatter).
  const label = meterLabel(s);
  const meter = $("meter");
  if (meter.getAttribute("aria-label") !== label) {
    const wait = rendered.meterLabelAt + 1000 - performance.now();
    if (wait <= 0) { meter.setAttribute("aria-label", label); rendered.meterLabelAt = performance.now(); }
    else if (!rendered.meterLabelTimer) {
      rendered.meterLabelTimer = setTimeout(() => { rendered.meterLabelTimer = null; scheduleRender(); }, wait);
    }
  }
}

/**
 * The upload line, calm and always there once this computer's microphone is used: "All takes
 * saved on the server", or how many seconds wait to upload and that nothing is lost. Only a
 * change of kind is said at once; a count that only ticks down is said at most every 5 s, so that
 * a screen reader does not chatter.
 */
function uploadStatusText(s, p) {
  if (!uploads.ready || (s.microphone !== "browser" && uploads.takes.size === 0)) return "";
  let memory = uploads.persistent ? "" : " This browser lets the page keep takes only while it stays open.";
  if (uploads.nearlyFull()) {
    const used = Math.round((100 * uploads.room.usage) / uploads.room.quota);
    memory += ` This computer's room for takes is nearly full (${used} % used): let the takes upload before recording much more.`;
  }
  const takes = uploads.unfinished();
  const waiting = Math.ceil(uploads.waitingSeconds());
  if (takes.length === 0 || (waiting === 0 && p.connected)) {
    return (p.streaming ? "Recording: saved on the server as you read." : "All takes saved on the server.") + memory;
  }
  const first = takes.find((t) => t.frames > t.durable) || takes[0];
  const amount = waiting >= 120 ? `${Math.round(waiting / 60)} min` : `${waiting} s`;
  if (!p.connected) {
    return `No connection to the server: ${amount} of take ${first.number} kept on this computer, to upload when the connection is back. Keep recording, nothing is lost.` + memory;
  }
  return `Take ${first.number}: ${amount} waiting to upload. Keep recording, nothing is lost.` + memory;
}

function renderUploadStatus(s, p) {
  const line = $("upload-status");
  const text = uploadStatusText(s, p);
  const kind = text.replace(/[0-9]+/g, "#");
  const now = performance.now();
  if (text !== line.textContent && (kind !== rendered.uploadKind || now - (rendered.uploadAt || 0) > 5000)) {
    line.textContent = text;
    rendered.uploadKind = kind;
    rendered.uploadAt = now;
  } else if (text !== line.textContent && !rendered.uploadTimer) {
    rendered.uploadTimer = setTimeout(() => { rendered.uploadTimer = null; scheduleRender(); }, 5000);
  }
  line.hidden = text === "";
  setClass(line, "is-waiting", /waiting|No connection|nearly full/.test(text));
}

/** Takes not yet chunks: each a row after the chunks, "Take 5: uploading, 12 s of 40 s on the server". */
function renderUploads(s, p) {
  const list = $("uploads");
  const rows = uploads.unfinished().map((take) => {
    const all = take.frames / take.sampleRate;
    const on = Math.min(all, (take.onServer != null ? take.onServer : take.durable) / take.sampleRate);
    if (take === uploads.capturing) return { text: `Take ${take.number}: recording, ${clock(all, false)} so far, ${clock(on, false)} of it on the server` };
    if (take.server === "refused") return { text: `Take ${take.number}: kept on this computer; the server did not take it (${take.problem || "reload the page"})` };
    return { text: `Take ${take.number}: uploading, ${clock(on, false)} of ${clock(all, false)} on the server` };
  });
  // Takes set aside on the server whose rest is on another device (or lost with it): they wait
  // for that page, and can be kept as they are.
  for (const upload of s.uploads || []) {
    if (upload.live || uploads.takes.has(upload.take)) continue;
    const arrived = clock(upload.seconds, false);
    rows.push({
      text: `A take of which ${arrived} reached the server waits for the rest from the device it was recorded on.`,
      keep: upload.take, label: `Keep the ${arrived} that arrived`,
    });
  }
  while (list.children.length > rows.length) list.lastElementChild.remove();
  rows.forEach((row, index) => {
    let li = list.children[index];
    if (!li) {
      li = document.createElement("li");
      li.className = "upload-row";
      li.append(document.createElement("span"));
      list.appendChild(li);
    }
    setText(li.firstElementChild, row.text);
    let button = li.querySelector("button");
    if (row.keep && !button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "secondary keep-take";
      li.append(button);
    } else if (!row.keep && button) {
      button.remove();
      button = null;
    }
    if (button) {
      button.dataset.take = row.keep;
      setText(button, row.label);
      enable(button, p.connected && !isRecording(s) && !isWorking(s));
    }
  });
  list.hidden = rows.length === 0;
}

function renderChunks(s, p) {
  const list = $("chunks");
  show($("chunks-empty"), s.chunks.length === 0);
  setText($("chunks-heading"), s.chunks.length ? `Chunks (${s.chunks.length})` : "Chunks");
  const playing = p.audioFrom != null && !audio.paused ? chunkAt(s, p.audioFrom, audio.currentTime) : null;

  // Rows are kept by chunk number: a changed chunk updates its own row, nothing else.
  const rows = new Map([...list.children].map((li) => [li.dataset.number, li]));
  s.chunks.forEach((chunk, position) => {
    let li = rows.get(String(chunk.number));
    if (li) rows.delete(String(chunk.number));
    else li = makeChunkRow(chunk.number);
    if (list.children[position] !== li) list.insertBefore(li, list.children[position] || null);
    updateChunkRow(li, chunk, position === s.selection, playing && playing.number === chunk.number);
  });
  for (const li of rows.values()) li.remove();

  if (rendered.selection !== s.selection) {
    const li = list.children[s.selection];
    if (li) {
      // Scroll the list (not the page) so that the selected row is in view.
      if (li.offsetTop < list.scrollTop) list.scrollTop = li.offsetTop;
      else if (li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = li.offsetTop + li.offsetHeight - list.clientHeight;
      }
      // Focus follows the selection when it is in the list (↑/↓ while on a row).
      if (list.contains(document.activeElement) && document.activeElement !== list) li.querySelector("button").focus();
    }
    rendered.selection = s.selection;
  }
}

function makeChunkRow(number) {
  const li = document.createElement("li");
  li.className = "chunk";
  li.dataset.number = String(number);
  li.innerHTML =
    '<button type="button" class="chunk-button">' +
    '<span class="chunk-number"><span class="visually-hidden">Chunk </span><span class="n"></span></span>' +
    '<span class="chunk-text"><span class="words"></span> <span class="chunk-mark"></span><span class="chunk-flag"></span></span>' +
    '<span class="chunk-length"></span>' +
    '<span class="chunk-peak"></span>' +
    '<canvas class="wave" width="160" height="44" aria-hidden="true"></canvas>' +
    "</button>" +
    '<button type="button" class="dismiss secondary" hidden>It is fine: dismiss the mark</button>' +
    '<ul class="cuts" hidden></ul>';
  return li;
}

function updateChunkRow(li, chunk, selected, playing) {
  const canvas = li.querySelector("canvas");
  const levels = JSON.stringify(chunk.levels || []) + selected;
  if (canvas.dataset.levels !== levels && canvas.clientWidth > 0) { // (a hidden canvas has no size yet)
    canvas.dataset.levels = levels;
    drawWave(canvas, chunk.missing ? [] : chunk.levels || [], selected);
  }
  const signature = JSON.stringify([chunk, selected, playing]);
  if (li.dataset.signature === signature) return;
  li.dataset.signature = signature;
  li.dataset.number = String(chunk.number);
  setClass(li, "selected", selected);
  setClass(li, "playing", !!playing);
  setAttr(li, "aria-current", selected ? "true" : null);
  const button = li.querySelector("button");
  setAttr(button, "aria-current", selected ? "true" : null);
  setText(li.querySelector(".n"), String(chunk.number));
  const words = chunk.paragraphText || ""; // the whole paragraph; the stylesheet cuts it to one line
  setText(li.querySelector(".words"), chunk.paragraph != null ? `Paragraph ${chunk.paragraph}: ${words}` : words);
  setText(li.querySelector(".chunk-length"), clock(chunk.duration));
  setText(li.querySelector(".chunk-peak"), chunk.missing ? "" : `peak ${decibels(chunk.peak)}`);
  const mark = chunk.missing ? "missing" : chunk.recovered ? "recovered" : playing ? "playing"
    : chunk.suggestedParagraph != null ? `sounds like paragraph ${chunk.suggestedParagraph}` : "";
  setText(li.querySelector(".chunk-mark"), mark);
  // A take the check flagged stays marked, with the hint's words and time, until dismissed.
  const hints = chunk.hints || [];
  setClass(li, "flagged", hints.length > 0);
  setText(li.querySelector(".chunk-flag"), hints.length ? `May need a listen: ${hints.join("; ")}` : "");
  const dismiss = li.querySelector(".dismiss");
  show(dismiss, hints.length > 0);
  dismiss.dataset.chunk = String(chunk.number);
  setAttr(dismiss, "aria-label", `Chunk ${chunk.number} is fine: dismiss its mark`);
  // Under the hints, each restart the check proposes to cut, with what can be done about it.
  const cuts = chunk.cuts || [];
  const list = li.querySelector(".cuts");
  show(list, cuts.length > 0);
  setAttr(list, "aria-label", `Proposed cuts in chunk ${chunk.number}`);
  const hadFocus = list.contains(document.activeElement);
  list.replaceChildren(...cuts.map((cut) => makeCutItem(chunk, cut)));
  // A cut made or left goes from the list: focus goes on to the next one, else to the chunk.
  if (hadFocus) (list.querySelector("button") || li.querySelector(".chunk-button")).focus();
}

/** One proposed cut: its sentence, then Listen as read, Listen as cut, Cut it and Leave it. Each
 *  button's name says which cut it is about, for a screen reader's list of buttons. */
function makeCutItem(chunk, cut) {
  const li = document.createElement("li");
  li.className = "cut";
  li.dataset.id = chunk.id || "";
  li.dataset.cut = String(cut.cut);
  li.dataset.chunk = String(chunk.number);
  li.dataset.start = String(cut.start);
  const text = document.createElement("p");
  text.className = "cut-text";
  text.textContent = `Proposed cut ${cut.text}`;
  const where = `chunk ${chunk.number} at ${cutTime(cut.start)}`;
  const buttons = document.createElement("div");
  buttons.className = "button-row";
  for (const [label, kind, style] of [
    ["Listen as read", "cut-listen-read", "secondary"], ["Listen as cut", "cut-listen-cut", "secondary"],
    ["Cut it", "cut-accept", "primary"], ["Leave it", "cut-dismiss", "secondary"],
  ]) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `${kind} ${style}`;
    button.textContent = label;
    button.setAttribute("aria-label", `${label}: ${where}`);
    buttons.append(button);
  }
  li.append(text, buttons);
  return li;
}

/** "1.0 s": a time in a take, to a tenth, as the cuts' sentences say it. */
function cutTime(value) { return `${(Math.round((value || 0) * 10) / 10).toFixed(1)} s`; }

/** The line over the chunks while cuts are proposed: how many, and Cut all. The cuts' buttons
 *  work while nothing records or exports. */
function renderCuts(s, p, free) {
  const count = s.chunks.reduce((sum, chunk) => sum + (chunk.cuts || []).length, 0);
  show($("cuts-bar"), count > 0);
  setText($("cuts-summary"), count === 1
    ? "The take check found 1 place where words were read again: listen, then cut it or leave it."
    : `The take check found ${count} places where words were read again: listen to each, then cut it or leave it.`);
  setAttr($("cut-all"), "aria-label", count === 1 ? "Cut all: the 1 restart" : `Cut all ${count} restarts`);
  enable($("cut-all"), free && count > 0);
  for (const button of $("chunks").querySelectorAll(".cut-accept, .cut-dismiss")) enable(button, free);
}

function renderPlayer(s, p) {
  const loaded = p.audioFrom != null;
  const hasChunks = s.chunks.length > 0;
  const recording = isRecording(s);
  enable($("play"), hasChunks && !recording);
  setText($("pause").firstChild, loaded && audio.paused && !audio.ended ? "Resume " : "Pause ");
  enable($("pause"), loaded);
  const total = loaded ? (isFinite(audio.duration) ? audio.duration : lengthFrom(s, p.audioFrom)) : 0;
  const seek = $("seek");
  setAttr(seek, "max", String(Math.round(total * 10) / 10));
  if (document.activeElement !== seek || !audio.seeking) seek.value = String(loaded ? audio.currentTime : 0);
  enable(seek, loaded);
  const at = loaded ? chunkAt(s, p.audioFrom, audio.currentTime) : null;
  const position = loaded
    ? `${clock(audio.currentTime)} of ${clock(total)}` + (at ? ` · in chunk ${at.number} at ${clock(at.seconds)}` : "")
    : "Nothing playing";
  setText($("position"), position);
  setAttr(seek, "aria-valuetext", position);
  enable($("punch"), loaded && audio.paused && !audio.ended && !!at && !recording && !p.punching && !isPreRolling(s));
}

function renderEditing(s, p) {
  const has = s.chunks.length > 0;
  const free = !isRecording(s) && !isWorking(s) && !p.streaming && !isPreRolling(s) && !p.punching;
  for (const id of ["rerecord", "insert", "delete"]) enable($(id), has && free);
  enable($("undo"), free);
  const selected = s.chunks[s.selection];
  const suggested = selected && selected.suggestedParagraph != null ? selected.suggestedParagraph : null;
  show($("move-take"), suggested != null);
  if (suggested != null) setText($("move-take").querySelector(".label"), `Put this take on paragraph ${suggested}`);
  enable($("move-take"), suggested != null && free);
  const confirming = panelKind(s) === "confirmDelete";
  show($("confirm-panel"), confirming);
  if (confirming) {
    const chunk = s.chunks.find((c) => c.number === s.panel.chunk);
    setText($("confirm-question"),
      `Delete chunk ${s.panel.chunk}${chunk ? ` (${clock(chunk.duration)})` : ""}? It goes to the trash.`);
    if (rendered.panel !== "confirmDelete") $("cancel-delete").focus();
  }
}

function renderSending(s, p) {
  const working = isWorking(s);
  const ready = !!s.header && s.chunks.length > 0 && !isRecording(s) && !working && !p.streaming && !isPreRolling(s) && !p.punching;
  const asking = panelKind(s) === "confirmSend";
  enable($("queue"), ready && !asking);
  enable($("submit"), ready && !asking);
  show($("send-confirm"), asking);
  if (asking) {
    // The question names what is unread; No is the default, focused, and Enter or Escape says it.
    setText($("send-question"), s.panel.question || "");
    setText($("send-unread"), s.panel.unread || "");
    show($("send-unread"), !!s.panel.unread);
    setText($("confirm-send"), s.panel.submitting ? "Yes, send it as it is (y)" : "Yes, queue it as it is (y)");
    if (rendered.panel !== "confirmSend") $("cancel-send").focus();
  }
  show($("working"), working);
  if (working) {
    const fraction = Math.min(1, Math.max(0, s.activity.fraction || 0));
    setText($("working-label"), `${s.activity.stage}: ${Math.floor(fraction * 100)} %`);
    if ($("progress").value !== fraction) $("progress").value = fraction;
  }
}

function renderMicrophone(s, p) {
  setText($("mic-device-label"), s.deviceName ? `The booth microphone (${s.deviceName})` : "The booth microphone");
  // Only a change of the server's choice moves the radios: a click waits for the server.
  if (rendered.microphone !== s.microphone) {
    $("mic-device").checked = s.microphone !== "browser";
    $("mic-browser").checked = s.microphone === "browser";
    rendered.microphone = s.microphone;
  }
  const locked = isRecording(s) || p.streaming || !p.connected;
  for (const id of ["mic-device", "mic-browser"]) if ($(id).disabled !== locked) $(id).disabled = locked;
}

function renderOutbox(jobs) {
  const list = $("outbox");
  show($("outbox-empty"), jobs.length === 0);
  const rows = new Map([...list.children].map((li) => [li.dataset.job, li]));
  jobs.forEach((job, position) => {
    let li = rows.get(job.id);
    if (li) rows.delete(job.id);
    else {
      li = document.createElement("li");
      li.dataset.job = job.id;
      li.innerHTML =
        '<p class="job-head"><span class="job-title"></span> <span class="job-state"></span></p>' +
        '<p class="job-detail"></p><p class="job-problem"></p>' +
        '<button type="button" class="retry secondary">Retry</button>';
    }
    const signature = JSON.stringify([job, page.canRetry]);
    if (li.dataset.signature !== signature) {
      li.dataset.signature = signature;
      li.className = `job ${job.state}`;
      setText(li.querySelector(".job-title"), job.title);
      setText(li.querySelector(".job-state"), JOB_STATES[job.state] || job.state);
      setText(li.querySelector(".job-detail"),
        [job.destination && `to ${job.destination}`, megabytes(job.bytes || 0), plural(job.attempts || 0, "attempt")].filter(Boolean).join(" · "));
      setText(li.querySelector(".job-problem"), job.problem || "");
      show(li.querySelector(".job-problem"), !!job.problem);
      const retry = li.querySelector(".retry");
      // A delivered job with a problem is one whose podcast feed was not updated: sending it
      // again sends nothing twice and updates the feed.
      show(retry, (job.state === "queued" || (job.state === "delivered" && !!job.problem)) && page.canRetry);
      // A job never tried is sent, not retried.
      const tried = (job.attempts || 0) > 0;
      setText(retry, tried ? "Retry" : "Send now");
      setAttr(retry, "aria-label", tried ? `Retry sending “${job.title}”` : `Send “${job.title}” now`);
      retry.dataset.tried = tried ? "yes" : "no";
    }
    if (list.children[position] !== li) list.insertBefore(li, list.children[position] || null);
  });
  for (const li of rows.values()) li.remove();
}

function renderSettings(settings) {
  const body = $("settings-rows");
  const signature = JSON.stringify(settings);
  if (body.dataset.signature === signature) return;
  body.dataset.signature = signature;
  body.replaceChildren(...settings.map((setting) => {
    const tr = document.createElement("tr");
    for (const text of [setting.name, setting.value]) {
      tr.appendChild(Object.assign(document.createElement("td"), { textContent: text == null ? "" : String(text) }));
    }
    return tr;
  }));
}

// Focus is never lost to a re-render: if the focused element went away or was hidden, focus
// moves to the chunk list's selected row, or to the Record button, or to the page's heading.
let lastFocused = null;
document.addEventListener("focusin", (event) => { lastFocused = event.target; });

function keepFocus(s, panel) {
  const active = document.activeElement;
  const gone = lastFocused && (!lastFocused.isConnected || lastFocused.closest("[hidden]") || lastFocused.getClientRects().length === 0);
  if (!gone || (active && active !== document.body && active !== lastFocused)) return;
  const row = $("chunks").children[s.selection];
  const candidates = [
    panel === "result" && $("next-article"),
    panel === "newArticle" && $("form-title"),
    row && row.querySelector("button"),
    $("record"),
    $("new-article"),
  ];
  const target = candidates.find((el) => el && el.isConnected && !el.closest("[hidden]"));
  if (target) target.focus();
}

// ---------------------------------------------------------------------------------------------
// Canvas drawing

const COLOURS = {
  green: "#1d7a36", yellow: "#c28e00", red: "#c1121f",
  greenDim: "#cfe8d5", yellowDim: "#f5e6b8", redDim: "#f6cfd2",
  hold: "#111111", frame: "#3b3b3b", wave: "#0b3d91", waveSelected: "#111111",
};

/** Sizes a canvas's drawing buffer to its CSS box (sharp on high-density screens). */
function fit(canvas) {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
  return canvas.getContext("2d");
}

/** The level meter: green up to 0.5 of the scale, yellow to 0.8, red above; the average as a
 *  bar, the held peak as a black line. */
function drawMeter(meter, force = false) {
  const key = JSON.stringify(meter);
  const canvas = $("meter");
  if ((!force && key === rendered.meter) || canvas.clientWidth === 0) return; // hidden: drawn when shown
  rendered.meter = key;
  const ctx = fit(canvas);
  const w = canvas.width, h = canvas.height;
  const bands = [[0, 0.5, "green"], [0.5, 0.8, "yellow"], [0.8, 1, "red"]];
  ctx.clearRect(0, 0, w, h);
  for (const [from, to, colour] of bands) {
    ctx.fillStyle = COLOURS[colour + "Dim"];
    ctx.fillRect(from * w, 0, (to - from) * w, h);
  }
  if (meter) {
    const average = Math.min(1, Math.max(0, meter.average));
    const peak = Math.min(1, Math.max(0, meter.peak));
    for (const [from, to, colour] of bands) {
      ctx.fillStyle = COLOURS[colour];
      // The latest peak as a thin bar, the average as the thick one over it.
      if (peak > from) ctx.fillRect(from * w, h * 0.4, (Math.min(peak, to) - from) * w, h * 0.2);
      if (average > from) ctx.fillRect(from * w, h * 0.15, (Math.min(average, to) - from) * w, h * 0.7);
    }
    const held = Math.min(1, Math.max(0, meter.heldPeak));
    if (held > 0) {
      ctx.fillStyle = COLOURS.hold;
      ctx.fillRect(Math.min(w - 4, held * w - 2), 0, 4 * (window.devicePixelRatio || 1), h);
    }
  }
  ctx.strokeStyle = COLOURS.frame;
  ctx.lineWidth = 2;
  for (const mark of [0.5, 0.8]) { ctx.beginPath(); ctx.moveTo(mark * w, 0); ctx.lineTo(mark * w, h); ctx.stroke(); }
  ctx.strokeRect(1, 1, w - 2, h - 2);
}

/** A chunk's waveform from its levels (dB, −90…0): one mirrored bar per level; −60 dB and
 *  below draw as a hairline. */
function drawWave(canvas, levels, selected) {
  const ctx = fit(canvas);
  const w = canvas.width, h = canvas.height;
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = selected ? COLOURS.waveSelected : COLOURS.wave;
  if (!levels.length) { ctx.fillRect(0, h / 2 - 1, w, 2); return; }
  const step = w / levels.length;
  levels.forEach((db, i) => {
    const height = Math.max(2, ((Math.max(-60, Math.min(0, db)) + 60) / 60) * h);
    ctx.fillRect(i * step + step * 0.15, (h - height) / 2, Math.max(1, step * 0.7), height);
  });
}

window.addEventListener("resize", () => {
  drawMeter(state.meter, true);
  for (const canvas of document.querySelectorAll("#chunks canvas")) canvas.dataset.levels = "";
  scheduleRender();
});

// ---------------------------------------------------------------------------------------------
// Rendering is coalesced to one a frame: 20 states a second cost at most 20 renders.

let renderQueued = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => { renderQueued = false; render(state, page); });
}

// ---------------------------------------------------------------------------------------------
// The WebSocket /live

let socket = null;
let retryDelay = 500;
// In a reading service the page may be one article's studio: /?article=ID (Service.md).
const articleParameter = new URLSearchParams(location.search).get("article");
const articleQuery = articleParameter ? `article=${encodeURIComponent(articleParameter)}` : "";

let lastMessageAt = 0;
const SILENT_CONNECTION_MS = 6000;

function connect() {
  lastMessageAt = performance.now();
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/live${articleQuery ? "?" + articleQuery : ""}`);
  socket.binaryType = "arraybuffer";
  socket.onopen = () => {
    page.connected = true;
    page.everConnected = true;
    page.notice = null;   // the server's state notice says what happened meanwhile
    page.problem = null;
    retryDelay = 500;
    uploads.pump(); // takes not yet on the server: asked about, then sent
    scheduleRender();
  };
  socket.onmessage = (event) => {
    lastMessageAt = performance.now();
    if (typeof event.data !== "string") return;
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    receive(message);
  };
  socket.onclose = (event) => connectionClosed(event);
  // A connection that does not open within 4 s is given up and tried again: after a network
  // outage the first attempt's packets may have been lost, and TCP would wait long before
  // sending them again.
  const attempt = socket;
  setTimeout(() => { if (attempt === socket && attempt.readyState === WebSocket.CONNECTING) attempt.close(); }, 4000);
}

/**
 * While a take records or waits to upload the server speaks many times a second (the state, the
 * meter). A connection silent for 6 s then has died without closing (a laptop that slept, a
 * network switched, a router gone): it is dropped and a new one made, which the browser would
 * otherwise do only minutes later.
 */
setInterval(() => {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (!page.streaming && uploads.waitingSeconds() === 0) return;
  if (performance.now() - lastMessageAt < SILENT_CONNECTION_MS) return;
  const dead = socket;
  dead.onclose = null;
  dead.onmessage = null;
  try { dead.close(); } catch { /* closing a dead socket may throw in some engines */ }
  connectionClosed({ code: 1006, reason: "" });
}, 1000);

function connectionClosed(event) {
  // A take goes on recording into the browser; its upload goes on when the socket is back.
  uploads.disconnected();
  page.connected = false;
  socket = null;
  if (event.code === 1008) {
    // A reading service ended the session (signed out, or the account disabled): the reason
    // says so, and reconnecting would only be refused.
    page.sessionEnded = true;
    page.problem = event.reason || "Your session has ended: sign in again.";
    scheduleRender();
    return;
  }
  // With takes waiting the page tries again soon; otherwise it backs off to every 10 s.
  setTimeout(connect, uploads.waitingSeconds() > 0 || page.streaming ? Math.min(retryDelay, 2000) : retryDelay);
  retryDelay = Math.min(retryDelay * 2, 10000);
  scheduleRender();
}

/** Sends a message if the socket is open, saying nothing when it is not (the upload asks again). */
function sendQuietly(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
}

/** Sends a message to the server; false when there is no connection. */
function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    page.problem = "The page is not connected to the studio: wait until it is back, then try again.";
    scheduleRender();
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

function receive(message) {
  if (message.type === "state" && message.state) {
    const next = Object.assign({}, EMPTY_STATE, message.state);
    next.activity = next.activity || EMPTY_STATE.activity;
    next.chunks = next.chunks || [];
    if (next.header && next.header.id) page.lastArticle = { id: next.header.id, title: next.header.title, state: next.header.state };
    const noticeChanged = JSON.stringify(next.notice) !== JSON.stringify(state.notice);
    if (noticeChanged && next.notice) { page.notice = null; page.problem = null; }
    if (page.audioVersion != null && next.audioVersion !== page.audioVersion) unloadAudio(); // the chunks changed
    if (next.panel && next.panel.kind !== "newArticle") page.formProblem = null;
    if (next.header && next.header.id) uploads.useArticle(next.header.id);
    uploads.observe(next);
    // A take kept (the chunks changed) or a new notice may have done a pickup: ask again.
    const askPickups = next.audioVersion !== state.audioVersion || noticeChanged;
    state = next;
    if (askPickups) loadPickups();
  } else if (message.type === "outbox") {
    page.jobs = message.jobs || [];
    page.canRetry = !!message.canRetry; // a destination is set: Retry can send
  } else if (message.type === "settings") {
    page.settings = message.settings || [];
  } else if (message.type === "upload" && typeof message.take === "string") {
    // A take this page does not hold: the answer to its "keep", which says why when refused.
    if (!uploads.takes.has(message.take) && typeof message.problem === "string") page.problem = message.problem;
    uploads.answer(message);
  } else if (message.type === "error" && typeof message.text === "string") {
    page.problem = message.text; // a message the server refused: it says why
  }
  scheduleRender();
}

// ---------------------------------------------------------------------------------------------
// Commands: what buttons and keys do. Each sends a message or drives the player.

/** A key for the server. Keys that start a take go through the browser microphone when chosen. */
function pressKey(key) {
  page.notice = null;
  page.problem = null;
  // With this computer's microphone only the take this page captures is stopped here; a take the
  // server records from another page (or one of this page's still uploading, which a state a
  // moment old may show) never is: "r" then starts a new take, which waits its turn if need be.
  const taking = page.streaming || (isRecording(state) && state.microphone !== "browser");
  if (isPreRolling(state) || page.punching) {
    if (key === "escape") return cancelFix();
    return send({ type: "key", key }); // the server says why it waits; the pre-roll plays on
  }
  if (key === "r" && taking) return stopTake();
  const message = { type: "key", key, id: chunkIdFor(key) }; // an undefined id is left out
  if (TAKE_KEYS.has(key) && !taking && state.microphone === "browser") return startBrowserTake(message);
  if (TAKE_KEYS.has(key) && !taking) stopAudio();
  send(message);
}

/** The id of the chunk a key acts on, as this page shows it: the one the delete confirmation
 *  names, else the selected one. The server acts on that chunk or, when another command has
 *  removed it meanwhile, on none. */
function chunkIdFor(key) {
  if (!CHUNK_KEYS.has(key)) return undefined;
  const panel = state.panel || {};
  const chunk = panel.kind === "confirmDelete" ? state.chunks.find((c) => c.number === panel.chunk) : state.chunks[state.selection];
  return chunk && chunk.id ? chunk.id : undefined;
}

function selectChunk(position) {
  const chunk = state.chunks[position];
  if (position !== state.selection && chunk) send(chunk.id ? { type: "select", id: chunk.id } : { type: "select", position });
}

function stopAudio() {
  cancelPunch();
  if (!audio.paused) audio.pause();
  stopCutAudio();
}

function unloadAudio() {
  cancelPunch();
  audio.pause();
  audio.removeAttribute("src");
  audio.load();
  page.audioFrom = null;
  page.audioVersion = null;
}

/** Plays the article from the chunk at `position` (0-based) to the end. */
function playFrom(position) {
  const chunk = state.chunks[position];
  if (!chunk || isRecording(state)) return;
  cancelPunch();
  page.audioFrom = chunk.number;
  page.audioVersion = state.audioVersion;
  const speed = Number($("speed").value);
  audio.src = `/audio?from=${chunk.number}&v=${encodeURIComponent(state.audioVersion)}${articleQuery ? "&" + articleQuery : ""}`;
  audio.defaultPlaybackRate = speed; // a new source starts at the default rate
  audio.playbackRate = speed;
  audio.preservesPitch = true;
  page.notice = `Playing from chunk ${chunk.number}.`;
  play();
}

function play() {
  stopCutAudio(); // one thing plays at a time
  audio.play().catch((error) => {
    if (error.name === "AbortError") return; // paused or replaced before it started
    page.problem = `The recording could not be played (${error.message}).`;
    scheduleRender();
  });
}

/** Space: pause and resume; with nothing loaded, play from the selected chunk. */
function togglePlay() {
  if (page.audioFrom == null || audio.ended) return playFrom(state.selection);
  cancelPunch();
  if (audio.paused) play(); else audio.pause();
}

/** Punch-and-roll: audio paused inside chunk n at s seconds: play the 3 seconds before the
 *  point, then the server records over chunk n from s. */
let punchFrame = 0;
function punch() {
  if (page.audioFrom == null || !audio.paused || isRecording(state)) {
    page.notice = "To fix a slip: play the chunk, pause where it went wrong, then press Fix a slip from here.";
    return scheduleRender();
  }
  const point = audio.currentTime;
  const at = chunkAt(state, page.audioFrom, point);
  if (!at) return;
  const message = { type: "punch", chunk: at.number, id: at.id, seconds: Math.round(at.seconds * 1000) / 1000 };
  const start = Math.max(0, point - PRE_ROLL_SECONDS);
  // The server shows the pre-roll to every page and refuses any other take until the punch.
  if (!send({ type: "preRoll", chunk: at.number, seconds: message.seconds, lead: Math.round((point - start) * 1000) / 1000 })) return;
  page.punching = true;
  page.notice = `Listen, then read on from ${clock(at.seconds)} into chunk ${at.number}.`;
  audio.playbackRate = 1; // the voice before the point at its own pace
  audio.currentTime = start;
  const finish = () => {
    audio.pause();
    audio.currentTime = point;
    audio.playbackRate = Number($("speed").value);
    page.punching = false;
    page.notice = null;
    if (state.microphone === "browser") startBrowserTake(message); else send(message);
  };
  if (point - start < 0.05) return finish();
  play();
  const watch = () => {
    if (!page.punching) return;
    if (audio.currentTime >= point - 0.02 || audio.ended) return finish();
    punchFrame = requestAnimationFrame(watch);
  };
  punchFrame = requestAnimationFrame(watch);
  scheduleRender();
}

function cancelPunch() {
  if (!page.punching) return;
  cancelAnimationFrame(punchFrame);
  page.punching = false;
  page.notice = null;
  audio.playbackRate = Number($("speed").value);
  if (isPreRolling(state)) send({ type: "key", key: "escape" }); // the server's pre-roll ends too
}

/** Cancel the fix: the pre-roll stops, no take starts, the chunk stays as it was. */
function cancelFix() {
  if (page.punching) {
    cancelPunch();
    audio.pause();
  } else if (isPreRolling(state)) {
    send({ type: "key", key: "escape" });
  }
  scheduleRender();
}

/** A pickup chosen: a punch opens the studio's own "Fix a slip" at its chunk and second (the
 *  seconds before it play, then the take records from there); a paragraph to read again is
 *  chosen for Read it again. The server marks the pickup done once the take that covers it is
 *  kept; the page only asks again what is done. */
function doPickup(id) {
  const pickup = page.pickups && page.pickups.pickups.find((x) => String(x.id) === String(id));
  if (!pickup || pickup.done) return;
  page.notice = null;
  page.problem = null;
  page.pickupUnderway = true;
  const target = pickup.target || {};
  if (target.chunk) return punchPickup(pickup, target.chunk, target.seconds);
  if (target.paragraph) return chooseParagraph(target.paragraph);
}

function punchPickup(pickup, number, seconds) {
  const position = state.chunks.findIndex((c) => c.number === number);
  const chunk = state.chunks[position];
  if (!chunk || chunk.missing || !(seconds >= 0 && seconds < chunk.duration)) {
    page.problem = `Chunk ${number} is not as the pickup found it: reload the page to see the pickups as they are now.`;
    return scheduleRender();
  }
  selectChunk(position);
  cancelPunch();
  audio.pause();
  page.audioFrom = number;
  page.audioVersion = state.audioVersion;
  audio.src = `/audio?from=${number}&v=${encodeURIComponent(state.audioVersion)}${articleQuery ? "&" + articleQuery : ""}`;
  page.notice = `Pickup ${pickup.id}: finding ${pickupSeconds(seconds)} s in chunk ${number}…`;
  audio.preload = "auto"; // load at once, so that the point can be found before anything plays
  audio.addEventListener("loadedmetadata", () => {
    if (seconds < 0.001) return punch();
    audio.addEventListener("seeked", () => punch(), { once: true });
    audio.currentTime = seconds;
  }, { once: true });
  audio.load();
  scheduleRender();
}

function chooseParagraph(number) {
  const reading = state.reading;
  if (!reading) {
    page.problem = "This article has no text here, so no paragraph can be chosen: reload the page.";
    return scheduleRender();
  }
  const steps = number - reading.number;
  for (let i = 0; i < Math.abs(steps); i++) send({ type: "key", key: steps > 0 ? "n" : "p" });
  page.notice = `Paragraph ${number} is chosen: press Read it again (a) to record it anew.`;
  $("read-again").focus();
  scheduleRender();
}

let pickupsLoading = false;
let pickupsAgain = false;
/** GET /api/pickups/ID for an article's studio in a reading service (nothing elsewhere). */
async function loadPickups() {
  if (!articleParameter) return;
  if (pickupsLoading) { pickupsAgain = true; return; }
  pickupsLoading = true;
  try {
    const response = await fetch(`/api/pickups/${encodeURIComponent(articleParameter)}`, { credentials: "same-origin" });
    page.pickups = response.ok ? await response.json() : null;
  } catch {
    // Unreachable for now: the list stays as it was, and the next state asks again.
  }
  pickupsLoading = false;
  if (pickupsAgain) {
    pickupsAgain = false;
    return loadPickups();
  }
  scheduleRender();
}

// ---------------------------------------------------------------------------------------------
// The browser microphone

let microphone = null;       // {stream, context, node, sampleRate, channels}
let microphoneOpening = null;
let stopped = null;          // resolves when the worklet has posted its last batch

/** Opens the microphone in the studio's format; null (with a sentence shown) when it cannot. */
async function openMicrophone() {
  const { sampleRate, channels } = state.format;
  if (microphone && microphone.sampleRate === sampleRate && microphone.channels === channels) return microphone;
  if (microphoneOpening) return microphoneOpening;
  closeMicrophone();
  microphoneOpening = (async () => {
    let stream;
    try {
      if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) throw new DOMException("no microphone access here", "NotSupportedError");
      stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: channels },
      });
    } catch (error) {
      page.problem = `The browser did not let the page use this computer’s microphone (${error.name}): browsers allow a microphone only on https or on localhost, and only when you allow it.`;
      return null;
    }
    try {
      const context = new AudioContext({ sampleRate });
      await context.audioWorklet.addModule("/microphone-worklet.js");
      const node = new AudioWorkletNode(context, "narrate-microphone", {
        numberOfInputs: 1, numberOfOutputs: 1, outputChannelCount: [1],
        channelCount: channels, channelCountMode: "explicit", channelInterpretation: "speakers",
        processorOptions: { channels },
      });
      node.port.onmessage = (event) => {
        if (event.data instanceof ArrayBuffer) {
          if (page.streaming) uploads.capture(event.data);
        } else if (event.data && event.data.type === "stopped" && stopped) {
          stopped();
        }
      };
      // The node's output goes nowhere audible; it is connected so that the browser runs it.
      const mute = new GainNode(context, { gain: 0 });
      context.createMediaStreamSource(stream).connect(node).connect(mute).connect(context.destination);
      microphone = { stream, context, node, sampleRate, channels };
      return microphone;
    } catch (error) {
      for (const track of stream.getTracks()) track.stop();
      page.problem = `The browser could not record from its microphone at ${sampleRate} Hz (${error.message}).`;
      return null;
    }
  })();
  const result = await microphoneOpening;
  microphoneOpening = null;
  scheduleRender();
  return result;
}

function closeMicrophone() {
  if (!microphone) return;
  for (const track of microphone.stream.getTracks()) track.stop();
  microphone.context.close();
  microphone = null;
}

/**
 * Starts a take on the browser microphone. It is named and kept in the browser from its first
 * frame. With the server reachable and nothing older still uploading, the key (or punch) goes to
 * the server with the take's name and pieces follow at once; otherwise only a new take at the
 * end can be recorded, and it starts on the server when its turn to upload comes.
 */
async function startBrowserTake(message) {
  stopAudio();
  const online = !!socket && socket.readyState === WebSocket.OPEN;
  const queued = !online || uploads.hasBacklog() || isRecording(state);
  const plainTake = message.type === "key" && message.key === "r";
  if (queued && !plainTake) {
    page.problem = online
      ? "A take is still uploading: re-record, insert or fix once it is on the server (the line at the top says when)."
      : "The page is not connected: only a new take at the end can be recorded until the connection is back.";
    return scheduleRender();
  }
  if (!uploads.ready || !uploads.article) {
    page.problem = "The page is still opening the article: try again in a moment.";
    return scheduleRender();
  }
  const mic = await openMicrophone();
  if (!mic) return scheduleRender();
  await mic.context.resume();
  const number = (state.chunks || []).length + uploads.unfinished().length + 1;
  const take = uploads.begin(state.format, number);
  take.plain = plainTake;
  if (!queued) {
    take.server = "starting";
    if (!sendQuietly(Object.assign({}, message, { take: take.take }))) take.server = "unknown";
  }
  mic.node.port.postMessage({ type: "start" });
  page.streaming = true;
  page.takeStartedAt = performance.now();
  scheduleRender();
}

/** Stops a take: the worklet's last batch is kept, then the server is told the take's length. */
async function stopTake() {
  if (page.stopping) return;
  if (page.streaming && microphone) {
    page.stopping = true;
    await new Promise((resolve) => {
      stopped = resolve;
      microphone.node.port.postMessage({ type: "stop" });
      setTimeout(resolve, 500); // a worklet that does not answer does not hold the stop
    });
    stopped = null;
    page.stopping = false;
    page.streaming = false;
    await uploads.end();
  } else if (state.microphone === "browser") {
    // A take of this computer's microphone that this page does not capture is another page's (or
    // another device's): it is stopped there, never by a key that might start one here.
    page.problem = "Another page is recording this article: stop the take there.";
  } else {
    send({ type: "key", key: "r" }); // the booth's take: the server stops it
  }
  scheduleRender();
}

/** The server ended the take this page captures (someone kept what had arrived): capture stops. */
function serverEndedTake() {
  page.streaming = false;
  if (microphone) microphone.node.port.postMessage({ type: "stop" });
  if (uploads.capturing) uploads.capturing.pending = null;
  uploads.capturing = null;
  scheduleRender();
}

/**
 * The server would not start the take (it said why). A new take at the end that found the server
 * busy (with an older take of this page's) goes on recording and starts on the server when it is
 * free; a take the server refused outright stops, and nothing of it is kept.
 */
function serverRefusedStart(take, problem, refused = false) {
  if (take.plain && !refused) {
    take.server = "waiting";
    take.askedAt = Date.now();
    return;
  }
  if (uploads.capturing === take) {
    page.streaming = false;
    if (microphone) microphone.node.port.postMessage({ type: "stop" });
  }
  uploads.discard(take);
  if (problem) page.problem = problem;
  scheduleRender();
}

async function chooseMicrophone(source) {
  page.notice = null;
  page.problem = null;
  if (source === "browser") {
    const mic = await openMicrophone();
    if (!mic) {
      rendered.microphone = null; // puts the radios back to the server's choice
      return scheduleRender();
    }
  } else {
    closeMicrophone();
  }
  send({ type: "microphone", source });
}

// ---------------------------------------------------------------------------------------------
// The new-article form and the outbox: HTTP

function readText(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

async function createArticle(event) {
  event.preventDefault();
  if (page.creating) return;
  page.formProblem = null;
  const file = $("form-text").files[0] || null;
  const title = $("form-title").value.trim();
  if (!title) {
    page.formProblem = "Give the article a title.";
    $("form-title").focus();
    return scheduleRender();
  }
  const tooBig = (name) => `The file ${name} is too big: the studio takes texts of at most 2 MB.`;
  if (file && file.size > MAX_TEXT_BYTES) { page.formProblem = tooBig(file.name); return scheduleRender(); }
  page.creating = true;
  scheduleRender();
  try {
    const text = file ? await readText(file) : null;
    const body = JSON.stringify({
      title, publication: $("form-publication").value.trim(), narrator: $("form-narrator").value.trim(),
      textName: file ? file.name : null, text,
    });
    const response = await fetch("/api/articles", {
      method: "POST", headers: { "Content-Type": "application/json" }, body, credentials: "same-origin",
    });
    if (!response.ok) {
      page.formProblem = await errorSentence(response, "The studio did not start the article");
      // The studio requires both credits: take the volunteer to the first one left empty.
      const empty = ["form-publication", "form-narrator"].find((id) => !$(id).value.trim());
      if (empty) $(empty).focus();
    }
  } catch (error) {
    page.formProblem = `The article could not be sent to the studio (${error.message}).`;
  } finally {
    page.creating = false;
    scheduleRender();
  }
}

/** The one sentence of an `/api` error, or a plain one with the HTTP status. */
async function errorSentence(response, fallback) {
  try {
    const json = await response.json();
    if (json && json.error) return json.error;
  } catch { /* not JSON */ }
  return `${fallback} (HTTP ${response.status}).`;
}

async function retryJob(id, title, tried) {
  page.notice = null;
  page.problem = null;
  try {
    const response = await fetch(`/api/outbox/${encodeURIComponent(id)}/retry`, { method: "POST", credentials: "same-origin" });
    if (response.ok) page.notice = tried ? `Sending “${title}” again.` : `Sending “${title}”.`;
    else page.problem = await errorSentence(response, tried ? `“${title}” could not be sent again` : `“${title}” could not be sent`);
  } catch (error) {
    page.problem = `The studio could not be reached (${error.message}).`;
  }
  scheduleRender();
}

// ---------------------------------------------------------------------------------------------
// Events: buttons and keys only call the commands above.

document.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (button && !isEnabled(button)) return;
  if (button && button.classList.contains("dismiss")) return dismissHints(Number(button.dataset.chunk));
  if (button && button.classList.contains("open-article")) return send({ type: "open", article: button.closest("[data-article]").dataset.article });
  if (button && button.id === "cancel-fix") return cancelFix();
  if (button && button.classList.contains("pickup-do")) return doPickup(button.dataset.note);
  if (button && button.classList.contains("keep-take")) return send({ type: "keep", take: button.dataset.take });
  const cut = button && button.closest("li.cut");
  if (cut) return cutButton(button, cut);
  if (button && button.id === "cut-all") return cutAll();
  if (event.target.closest("li.cut")) return; // the cut's own words: nothing to do
  const row = event.target.closest("#chunks > li");
  if (row) return selectChunk([...row.parentNode.children].indexOf(row));
  if (!button) return;
  const job = button.classList.contains("retry") && button.closest("[data-job]");
  if (job) return retryJob(job.dataset.job, job.querySelector(".job-title").textContent, button.dataset.tried === "yes");
  if (button.dataset.key) return pressKey(button.dataset.key);
  switch (button.id) {
    case "new-article": return send({ type: "newArticle" });
    // The list is "o" on the chunks and Esc in the form (where letters are typed into the title).
    case "show-articles": return pressKey(panelKind(state) === "newArticle" ? "escape" : "o");
    case "form-back": return page.lastArticle && send({ type: "open", article: page.lastArticle.id });
    case "play": return playFrom(state.selection);
    case "pause": return togglePlay();
    case "punch": return punch();
  }
});

$("article-form").addEventListener("submit", createArticle);
$("form-text").addEventListener("change", () => {
  const file = $("form-text").files[0];
  page.formProblem = file && file.size > MAX_TEXT_BYTES ? `The file ${file.name} is too big: the studio takes texts of at most 2 MB.` : null;
  scheduleRender();
});
for (const id of ["mic-device", "mic-browser"]) $(id).addEventListener("change", (event) => chooseMicrophone(event.target.value));
$("speed").addEventListener("change", () => {
  const speed = Number($("speed").value);
  audio.defaultPlaybackRate = speed;
  if (!page.punching) audio.playbackRate = speed;
  audio.preservesPitch = true;
});
$("seek").addEventListener("input", () => {
  if (page.audioFrom == null) return;
  cancelPunch();
  audio.currentTime = Number($("seek").value);
});
for (const name of ["play", "pause", "timeupdate", "seeked", "ended", "loadedmetadata", "durationchange"]) {
  audio.addEventListener(name, scheduleRender);
}
audio.addEventListener("ended", () => { page.notice = "Played to the end."; });
audio.addEventListener("error", () => {
  if (!audio.getAttribute("src")) return;
  page.problem = "The recording could not be loaded: there may be nothing to play yet.";
  page.audioFrom = null;
  scheduleRender();
});

/** What a cut's button does: listen in the browser, or ask the server to cut it or leave it. */
function cutButton(button, item) {
  const id = item.dataset.id, number = Number(item.dataset.cut);
  if (button.classList.contains("cut-listen-read")) return listenToCut(item, "read");
  if (button.classList.contains("cut-listen-cut")) return listenToCut(item, "cut");
  page.notice = null;
  page.problem = null;
  if (button.classList.contains("cut-accept")) { stopCutAudio(); return send({ type: "cut", id, cut: number, action: "accept" }); }
  if (button.classList.contains("cut-dismiss")) { stopCutAudio(); return send({ type: "cut", id, cut: number, action: "dismiss" }); }
}

function cutAll() {
  page.notice = null;
  page.problem = null;
  stopCutAudio();
  send({ type: "cutAll" });
}

/** Plays a proposed cut's surroundings in the browser: the take as read, or as it would be cut. */
function listenToCut(item, as) {
  if (isRecording(state) || page.streaming) return;
  stopAudio();
  const where = `chunk ${item.dataset.chunk} at ${cutTime(Number(item.dataset.start))}`;
  const url = `/api/cuts/${encodeURIComponent(item.dataset.id)}/${item.dataset.cut}/audio?as=${as}` +
    `&v=${encodeURIComponent(state.audioVersion)}${articleQuery ? "&" + articleQuery : ""}`;
  page.problem = null;
  page.notice = as === "cut"
    ? `Playing ${where} as it would be cut: 2.5 s before and after.`
    : `Playing ${where} as read: 2.5 s before the restart, the restart, and 2.5 s after.`;
  page.cutHeard = { where, as, url };
  cutAudio.src = url;
  cutAudio.play().catch((error) => {
    if (error.name === "AbortError") return; // stopped or replaced before it started
    cutAudioFailed(url);
  });
  scheduleRender();
}

/** The cut's audio could not be had: the server's sentence says why (a cut made or left meanwhile). */
async function cutAudioFailed(url) {
  if (!page.cutHeard || page.cutHeard.url !== url) return;
  page.cutHeard = null;
  page.notice = null;
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    page.problem = response.ok ? "The cut could not be played in this browser." : await errorSentence(response, "The cut could not be heard");
  } catch (error) {
    page.problem = `The studio could not be reached (${error.message}).`;
  }
  scheduleRender();
}

function stopCutAudio() {
  page.cutHeard = null;
  if (!cutAudio.paused) cutAudio.pause();
}

cutAudio.addEventListener("ended", () => {
  const heard = page.cutHeard;
  if (!heard) return;
  page.cutHeard = null;
  page.notice = `Heard ${heard.where} ${heard.as === "cut" ? "as it would be cut" : "as read"}. Cut it, or leave it as it is.`;
  scheduleRender();
});
cutAudio.addEventListener("error", () => {
  if (cutAudio.getAttribute("src") && page.cutHeard) cutAudioFailed(page.cutHeard.url);
});

/** t: to the first proposed cut's first button, where its sentence is read out with it. */
function goToCuts() {
  const first = $("chunks").querySelector("li.cut button");
  if (!first) {
    page.notice = "The take check proposes no cut: it found no place where words were read again.";
    return scheduleRender();
  }
  first.focus();
  first.scrollIntoView({ block: "nearest" });
}

/** Dismisses the marks of chunk `number`'s take: select it, then d (the server keeps the order). */
function dismissHints(number) {
  const position = state.chunks.findIndex((c) => c.number === number);
  if (position < 0) return;
  selectChunk(position);
  send({ type: "key", key: "d" });
}

/** Whether the key goes to a control the person is using (typing, choosing, sliding). */
function isTyping(target, key) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable || target.matches("textarea, select")) return true;
  const moves = key.startsWith("Arrow") || key === "Home" || key === "End" || key.startsWith("Page");
  if (target.matches("input[type=radio], input[type=checkbox]")) return moves || key === " ";
  if (target.matches("input[type=range]")) return moves;
  if (target.matches("summary")) return key === " ";
  return target.matches("input");
}

document.addEventListener("keydown", (event) => {
  const key = event.key;
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  if (event.repeat && key !== "ArrowUp" && key !== "ArrowDown") return; // a held r must not stop and start again
  if (isTyping(event.target, key)) return;
  const onControl = event.target instanceof Element && event.target.closest("button, a, summary");
  const panel = panelKind(state);
  const letter = key.length === 1 ? key.toLowerCase() : key;
  let handled = true;
  if (panel === "newArticle") {
    handled = false;
  } else if (isPreRolling(state) || page.punching) {
    if (key === "Escape") cancelFix();
    else if (["r", "e", "i", "a", "x", "u", "q", "s", "c", " "].includes(letter)) pressKey(letter === " " ? "space" : letter);
    else handled = false;
  } else if (panel === "articles") {
    if (key === "Escape") pressKey("escape");
    else if (letter === "n") pressKey("n");
    else handled = false;
  } else if (panel === "result") {
    if (key === "Enter" && !onControl) pressKey("enter"); else handled = false;
  } else if (panel === "confirmDelete") {
    if (letter === "y") pressKey("y");
    else if (letter === "n" || key === "Escape") pressKey("n");
    else handled = false;
  } else if (panel === "confirmSend") {
    if (letter === "y") pressKey("y");
    else if (letter === "n" || key === "Escape" || (key === "Enter" && !onControl)) pressKey("n");
    else handled = false;
  } else if (["r", "x", "e", "i", "u", "q", "s", "p", "n", "a", "o", "d", "k", "m"].includes(letter)) {
    pressKey(letter);
  } else if (letter === "t") {
    goToCuts();
  } else if (key === "ArrowUp" || key === "ArrowDown") {
    pressKey(key === "ArrowUp" ? "up" : "down");
  } else if (key === " ") {
    togglePlay();  // even on a button: space is the player's key here
  } else if (key === "Enter" && event.target.closest && event.target.closest("#chunks .chunk-button")) {
    const row = event.target.closest("#chunks li");  // Enter on a row: select it and play from it (not on its dismiss button)
    const position = [...row.parentNode.children].indexOf(row);
    selectChunk(position);
    playFrom(position);
  } else if (key === "Enter" && !onControl) {
    playFrom(state.selection);
  } else if (letter === "c") {
    punch();
  } else {
    handled = false;
  }
  if (handled) event.preventDefault();
});

audio.preservesPitch = true;
// Takes are kept in the browser and uploaded from there (takes.js); the store opens first, so
// that takes a closed or crashed page left are found before anything new is recorded.
uploads.start(articleParameter, {
  socket: () => socket,
  send: sendQuietly,
  render: scheduleRender,
  serverEndedTake,
  serverRefusedStart,
}).finally(() => { connect(); scheduleRender(); });
scheduleRender();
// Closing the page with takes not yet on the server: the browser asks first.
window.addEventListener("beforeunload", (event) => {
  if (uploads.waitingSeconds() > 0 || page.streaming) {
    event.preventDefault();
    event.returnValue = "A take is not on the server yet. If you leave, it is kept on this computer and uploads when you open the article again.";
  }
});
// In a reading service the page belongs to a signed-in account: a way back to its home page
// (the personal studio has no such route, and shows no link).
fetch("/api/me", { credentials: "same-origin" })
  .then((response) => (response.ok ? response.json() : null))
  .then((me) => { if (me && typeof me.account === "string") { page.account = me.account; scheduleRender(); } })
  .catch(() => {});
