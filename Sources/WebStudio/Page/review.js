// The proof-listener's review page: the articles ready for review; one of them played with the
// paragraph being heard marked (from the paragraph timings), paragraph jumps, notes pinned at a
// time of a paragraph ("said / should be" or free text), what changed since it was sent back,
// what the take check found in each paragraph's takes (restarts it proposes to cut, each heard
// as read and as cut, then cut or left as it is; flags, each played from its time), and the
// verdict: Approve or Send back, each confirmed first. One state, drawn by
// render(state); the server's answers (the routes under /api/review in Service.md) change it.
// The server checks everything again.
"use strict";

/** What the page shows. */
let state = {
  me: null,              // {account, role}
  allowed: null,         // null until known; false: review is not for this account
  articles: [],          // as GET /api/review answers them
  open: null,            // the article opened, as GET /api/review/ID answers it
  time: 0,               // where the audio is, in seconds
  playing: false,
  current: null,         // the number of the paragraph being heard
  noting: null,          // {paragraph, at} while the note form is open
  kind: "slip",          // the note form's kind: slip (said / should be) or remark
  confirming: null,      // "approve" or "send-back" while its confirmation is asked
  hearing: null,         // {cut, as} while a proposed cut is played ("read" or "cut")
  status: "",
  problem: "",
  busy: false,
};

/** What render drew last, so that the lists are rebuilt only when they change (focus stays). */
const drawn = { article: null, notes: null, list: null, findings: null };
/** Seconds heard since the last report (counted to the proof-listener's hours). */
const heard = { seconds: 0, last: null };

function update(changes) {
  state = Object.assign({}, state, changes);
  render(state);
}

const byId = (id) => document.getElementById(id);

function element(tag, attributes, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (name === "text") made.textContent = value;
    else made.setAttribute(name, value);
  }
  for (const child of children) if (child) made.append(child);
  return made;
}

/** 75.25 → "1:15.3". */
function clock(seconds) {
  const whole = Math.max(0, seconds || 0);
  const minutes = Math.floor(whole / 60);
  const rest = (whole - minutes * 60).toFixed(1).padStart(4, "0");
  return `${minutes}:${rest}`;
}

/** The paragraph heard at `time`: the last whose audio holds it; null before any. */
function paragraphAt(paragraphs, time) {
  let found = null;
  for (const p of paragraphs) if (p.start !== null && p.start <= time && time < p.end) found = p.number;
  return found;
}

function note(n) {
  return n.kind === "said-should-be" ? `said “${n.said}”, should be “${n.shouldBe}”` : n.text;
}

/** A proposed cut's place in the page: "cut 1 of paragraph 2". */
function cutName(c) {
  return `cut ${c.place} of paragraph ${c.paragraph}`;
}

/** What a cut takes out, in words: "“the storm” was read twice". */
function restart(c) {
  return c.kind === "false-start" ? `“${c.words}” was broken off and begun again` : `“${c.words}” was read twice`;
}

/** Each paragraph's open cuts and flags, numbered within the paragraph; only paragraphs with some. */
function findings(open) {
  return open.paragraphs.filter((p) => (p.cuts || []).length + (p.flags || []).length > 0).map((p) => ({
    number: p.number,
    cuts: p.cuts.map((c, i) => Object.assign({}, c, { paragraph: p.number, place: i + 1 })),
    flags: p.flags.map((f, i) => Object.assign({}, f, { paragraph: p.number, place: i + 1 })),
  }));
}

/** Where a cut's routes are. */
function cutPath(articleId, c) {
  return `/api/review/${encodeURIComponent(articleId)}/cuts/${encodeURIComponent(c.chunk)}/${c.number}`;
}

/** Whether the account may pin notes and give a verdict (the server checks it again). */
function mayDecide(s) {
  return Boolean(s.me && s.me.role === "proof-listener");
}

/** Draws `s`: the one place the page's elements change. */
function render(s) {
  byId("status").textContent = s.status;
  byId("problem").textContent = s.problem;
  byId("who").textContent = s.me ? `Signed in as ${s.me.account}.` : "";
  byId("list-section").hidden = s.allowed !== true || s.open !== null;
  byId("article-section").hidden = s.open === null;
  if (s.allowed === true && s.open === null) renderList(s);
  if (s.open) renderArticle(s);
}

function renderList(s) {
  byId("list-empty").hidden = s.articles.length > 0;
  const key = JSON.stringify(s.articles) + s.busy;
  if (drawn.list === key) return;
  drawn.list = key;
  byId("list").replaceChildren(...s.articles.map((a) => {
    const open = element("button", { type: "button", "data-id": a.id, class: "open-article" }, `Open “${a.title}”`);
    open.disabled = s.busy;
    const about = [a.publication, a.volunteer ? `read by ${a.volunteer}` : "", a.deadline ? `deadline ${a.deadline}` : ""].filter((x) => x);
    const details = element("p", { class: "hint", text: about.join(" · ") });
    if (a.late) details.append(" ", element("strong", { class: "late", text: "Late" }));
    const returned = a.returned ? element("p", { class: "returned" }, element("strong", { text: "Came back" }), ": its pickups are done, hear what changed.") : null;
    return element("li", { class: a.returned ? "is-returned" : "" }, open, details, returned);
  }));
}

function renderArticle(s) {
  const a = s.open;
  byId("article-heading").textContent = a.article.title;
  byId("article-about").textContent = [a.article.publication, a.article.volunteer ? `read by ${a.article.volunteer}` : "",
    `${a.paragraphs.length} paragraphs`, `${clock(a.duration)} long`].filter((x) => x).join(" · ");
  const current = a.paragraphs.find((p) => p.number === s.current);
  byId("position").textContent = `${clock(s.time)} of ${clock(a.duration)}` +
    (current ? ` · paragraph ${current.number} of ${a.paragraphs.length}` : "");
  byId("play").textContent = s.playing ? "Pause" : "Play";

  const textKey = JSON.stringify([a.article.id, a.paragraphs.map((p) => [p.number, p.start, p.end]), a.changes]);
  if (drawn.article !== textKey) {
    drawn.article = textKey;
    drawn.notes = null;
    drawn.findings = null;
    byId("paragraphs").replaceChildren(...a.paragraphs.map((p) => {
      const words = element(p.kind === "heading" ? "strong" : "span", { class: "words", text: p.text });
      const item = element("li", { "data-number": String(p.number), class: "paragraph kind-" + p.kind }, words);
      if (p.start !== null) {
        const jump = element("button", { type: "button", class: "secondary jump", "data-seek": String(p.start), "data-number": String(p.number) },
          `Play from ${clock(p.start)}`, element("span", { class: "visually-hidden", text: `, paragraph ${p.number}` }));
        item.append(jump);
      } else {
        item.append(element("span", { class: "hint", text: "No audio for this paragraph." }));
      }
      return item;
    }));
    byId("changes").replaceChildren(...a.changes.map((c) => {
      const where = c.paragraph === null ? "Between paragraphs" : `Paragraph ${c.paragraph}`;
      const button = element("button", { type: "button", class: "secondary", "data-seek": String(c.start), "data-play": "true" },
        `${where}, ${c.kind}: play ${clock(c.start)} to ${clock(c.end)}`);
      return element("li", {}, button, c.text ? element("p", { class: "hint quote", text: c.text }) : null);
    }));
  }
  for (const item of byId("paragraphs").children) {
    const isCurrent = Number(item.dataset.number) === s.current;
    if (isCurrent) item.setAttribute("aria-current", "true"); else item.removeAttribute("aria-current");
    item.classList.toggle("is-current", isCurrent);
  }
  byId("changes-section").hidden = a.changes.length === 0;

  const notesKey = JSON.stringify(a.notes);
  if (drawn.notes !== notesKey) {
    drawn.notes = notesKey;
    byId("notes").replaceChildren(...a.notes.map((n) => {
      const button = element("button", { type: "button", class: "secondary", "data-seek": String(n.at), "data-number": String(n.paragraph) },
        `${clock(n.at)}, paragraph ${n.paragraph}: ${note(n)}`);
      return element("li", {}, button, element("p", { class: "hint", text: `By ${n.author}; pickup: ${n.done ? "done" : n.pickup}.` }));
    }));
  }
  byId("notes-empty").hidden = a.notes.length > 0;
  renderFindings(s);

  byId("note-form").hidden = s.noting === null;
  if (s.noting) byId("note-heading").textContent = `A note at ${clock(s.noting.at)} in paragraph ${s.noting.paragraph}`;
  byId("kind-slip").checked = s.kind === "slip";
  byId("kind-remark").checked = s.kind === "remark";
  byId("slip-fields").hidden = s.kind !== "slip";
  byId("remark-fields").hidden = s.kind !== "remark";

  // The server lets proof-listeners alone pin, send back and approve; others only look.
  const decides = mayDecide(s);
  byId("pin").hidden = !decides;
  byId("looking").hidden = decides;
  byId("confirm").hidden = s.confirming === null;
  byId("verdict").hidden = s.confirming !== null || !decides;
  if (s.confirming === "approve") {
    byId("confirm-question").textContent = `Approve “${a.article.title}”? It is delivered to listeners now.`;
    byId("confirm-yes").textContent = "Yes, approve it";
  } else if (s.confirming === "send-back") {
    const open = a.notes.filter((n) => !n.done).length;
    byId("confirm-question").textContent = `Send “${a.article.title}” back to ${a.article.volunteer || "its volunteer"} with its notes as pickups?`;
    byId("confirm-yes").textContent = "Yes, send it back";
    if (open === 0) byId("confirm-question").textContent += " There is no note to send yet.";
  }
  for (const id of ["approve", "send-back", "confirm-yes", "confirm-no", "note-submit", "back", "pin"]) byId(id).disabled = s.busy;
}

/** What the take check found, paragraph by paragraph: each cut with its sentence and four
 *  buttons (Listen as read, Listen as cut, and for proof-listeners Cut it and Leave it), each
 *  flag with its sentence and a button that plays the article from it. Every button's name
 *  says which cut or flag of which paragraph it is about. */
function renderFindings(s) {
  const a = s.open;
  const found = findings(a);
  const decides = mayDecide(s);
  byId("findings-empty").hidden = found.length > 0;
  const key = JSON.stringify([found, decides, s.busy]);
  if (drawn.findings === key) return;
  drawn.findings = key;
  const hidden = (text) => element("span", { class: "visually-hidden", text });
  byId("findings").replaceChildren(...found.map((p) => {
    const items = [];
    for (const c of p.cuts) {
      const data = { "data-chunk": c.chunk, "data-number": String(c.number) };
      const button = (action, label, extra) => {
        const made = element("button", Object.assign({ type: "button", class: extra || "secondary", "data-cut": action }, data),
          label, hidden(`, ${cutName(c)}`));
        made.disabled = s.busy;
        return made;
      };
      const buttons = [button("read", "Listen as read"), button("cut", "Listen as cut")];
      if (decides) buttons.push(button("accept", "Cut it", "cut-it"), button("dismiss", "Leave it"));
      items.push(element("li", { class: "finding cut" },
        element("p", {}, element("strong", { text: `Cut ${c.place}: ` }), c.sentence),
        element("div", { class: "button-row" }, ...buttons)));
    }
    for (const f of p.flags) {
      const play = element("button", { type: "button", class: "secondary", "data-seek": String(f.at), "data-number": String(p.number), "data-play": "true" },
        `Play from ${clock(f.at)}`, hidden(`, flag ${f.place} of paragraph ${p.number}`));
      items.push(element("li", { class: "finding flag" },
        element("p", {}, element("strong", { text: `Flag ${f.place}: ` }), f.sentence), play));
    }
    const heading = element("h4", { text: `Paragraph ${p.number}` });
    return element("li", { "data-paragraph": String(p.number) }, heading, element("ul", { class: "notes" }, ...items));
  }));
}

/** A JSON request to the service: {status, body}. The cookie goes along; the server checks it. */
async function call(method, path, body, keepalive) {
  const options = { method, credentials: "same-origin", headers: {}, keepalive: Boolean(keepalive) };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  try {
    const response = await fetch(path, options);
    let answer = {};
    try { answer = await response.json(); } catch { answer = {}; }
    return { status: response.status, body: answer };
  } catch {
    return { status: 0, body: { error: "The service cannot be reached: check the connection, then try again." } };
  }
}

async function loadList(status) {
  const answer = await call("GET", "/api/review");
  if (answer.status === 401) return location.assign("/signin");
  if (answer.status === 403) return update({ allowed: false, busy: false, status: "", problem: answer.body.error });
  if (answer.status !== 200) return update({ busy: false, problem: answer.body.error || "The list could not be read: reload the page." });
  update({ allowed: true, busy: false, articles: answer.body.articles, status: status === undefined ? state.status : status });
}

async function openArticle(id) {
  update({ busy: true, problem: "", status: "" });
  const answer = await call("GET", `/api/review/${encodeURIComponent(id)}`);
  if (answer.status !== 200) {
    update({ busy: false, problem: answer.body.error || "The article could not be opened: reload the list." });
    return loadList();
  }
  const player = byId("player");
  player.src = `/audio?article=${encodeURIComponent(id)}`;
  stopCut();
  heard.seconds = 0;
  heard.last = null;
  const first = answer.body.paragraphs.find((p) => p.start !== null);
  update({ busy: false, open: answer.body, time: 0, playing: false, current: first ? first.number : null, noting: null, confirming: null,
    status: `Opened “${answer.body.article.title}”: press Space to play.` });
  byId("article-heading").focus();
}

/** Tells the server how much was heard since the last report, for the hours. */
function reportHeard(keepalive) {
  const open = state.open;
  const seconds = Math.min(heard.seconds, open ? open.duration : 0);
  heard.seconds = 0;
  if (!open || !(seconds > 0)) return;
  call("POST", `/api/review/${encodeURIComponent(open.article.id)}/heard`, { seconds: Math.round(seconds * 1000) / 1000 }, keepalive);
}

async function leave(status) {
  reportHeard();
  stopCut();
  const player = byId("player");
  player.pause();
  player.removeAttribute("src");
  player.load();
  drawn.article = null;
  update({ open: null, noting: null, confirming: null, playing: false, busy: true });
  await loadList(status);
  byId("list-heading").focus();
}

/** Plays a proposed cut's surroundings, as read or as cut; the article's audio pauses. */
function hearCut(c, as) {
  const player = byId("player");
  if (!player.paused) player.pause();
  const cutPlayer = byId("cut-player");
  cutPlayer.src = `${cutPath(state.open.article.id, c)}/audio?as=${as}`;
  update({ hearing: { cut: c, as }, problem: "", status: `Playing ${cutName(c)} ${as === "read" ? "as it was read" : "as it would be cut"}…` });
  cutPlayer.play().catch(() => {});
}

function stopCut() {
  const cutPlayer = byId("cut-player");
  cutPlayer.pause();
  cutPlayer.removeAttribute("src");
  cutPlayer.load();
  state = Object.assign({}, state, { hearing: null });  // drawn by the update that follows
}

/** Says why a cut could not be played: the server's sentence for its route. */
async function cutUnplayable() {
  const hearing = state.hearing;
  if (!hearing || !state.open) return;
  const answer = await call("GET", `${cutPath(state.open.article.id, hearing.cut)}/audio?as=${hearing.as}`);
  update({ hearing: null, status: "", problem: (answer.body && answer.body.error) || "The cut could not be played: reload the article." });
}

/** Cuts a proposed cut ("accept") or leaves its take as it is ("dismiss"), then reads the article again. */
async function decideCut(c, action) {
  if (!mayDecide(state)) return update({ status: "Only proof-listeners cut takes: coordinators and admins may look and listen." });
  stopCut();
  const a = state.open;
  update({ busy: true, problem: "", status: action === "accept" ? `Cutting ${cutName(c)}…` : `Leaving the take as it is at ${cutName(c)}…` });
  const answer = await call("POST", `${cutPath(a.article.id, c)}/${action}`, {});
  if (answer.status !== 200) {
    await reread("", action === "accept");
    update({ problem: answer.body.error || "That did not work: try again." });
    return byId("findings-heading").focus();
  }
  const said = action === "accept"
    ? `Done: ${answer.body.secondsCut.toFixed(2)} s cut from chunk ${answer.body.take} (paragraph ${c.paragraph}), where ${restart(c)}. Its volunteer can undo it.`
    : `Done: chunk ${answer.body.take} (paragraph ${c.paragraph}) left as it is where ${restart(c)}.`;
  await reread(said, action === "accept");
  byId("findings-heading").focus();
}

/** Reads the open article again (after a cut, with its audio, at the same time as far as it goes). */
async function reread(status, audioChanged) {
  const id = state.open.article.id;
  const answer = await call("GET", `/api/review/${encodeURIComponent(id)}`);
  if (answer.status !== 200) {
    update({ busy: false, status: "", problem: answer.body.error || "The article could not be read again: reload the list." });
    return;
  }
  if (audioChanged) {
    const player = byId("player");
    const at = player.currentTime || 0;
    player.pause();
    player.src = `/audio?article=${encodeURIComponent(id)}&v=${Date.now()}`;
    player.addEventListener("loadedmetadata", () => { player.currentTime = Math.min(at, answer.body.duration); }, { once: true });
  }
  update({ busy: false, open: answer.body, status });
}

function togglePlay() {
  const player = byId("player");
  if (player.paused) player.play().catch(() => update({ problem: "The audio could not be played: reload the page." }));
  else player.pause();
}

/** Plays from `seconds` (or only moves there), marking paragraph `number` as heard. */
function seek(seconds, number, play) {
  const player = byId("player");
  player.currentTime = seconds;
  heard.last = seconds;
  update({ time: seconds, current: number === undefined ? paragraphAt(state.open.paragraphs, seconds) : number });
  if (play && player.paused) togglePlay();
}

/** Jumps to the next (+1) or previous (-1) paragraph that has audio. */
function jump(step) {
  const timed = state.open.paragraphs.filter((p) => p.start !== null);
  if (timed.length === 0) return update({ status: "No paragraph has audio yet." });
  const at = timed.findIndex((p) => p.number === state.current);
  const next = at === -1 ? (step > 0 ? 0 : timed.length - 1) : at + step;
  if (next < 0) return update({ status: "This is the first paragraph." });
  if (next >= timed.length) return update({ status: "This is the last paragraph." });
  const p = timed[next];
  seek(p.start, p.number);
  const words = p.text.length > 60 ? p.text.slice(0, 60) + "…" : p.text;
  update({ status: `Paragraph ${p.number} of ${state.open.paragraphs.length}, at ${clock(p.start)}: ${words}` });
}

function startNote() {
  if (!mayDecide(state)) return update({ status: "Only proof-listeners pin notes: coordinators and admins may look." });
  const player = byId("player");
  if (!player.paused) player.pause();
  const paragraph = state.current || (state.open.paragraphs[0] ? state.open.paragraphs[0].number : null);
  if (paragraph === null) return update({ problem: "The article has no text, so a note has no paragraph to be pinned to." });
  const at = Math.min(player.currentTime || 0, state.open.duration);
  for (const id of ["note-said", "note-should-be", "note-text"]) byId(id).value = "";
  update({ noting: { paragraph, at }, problem: "" });
  byId(state.kind === "slip" ? "note-said" : "note-text").focus();
}

function cancelNote() {
  update({ noting: null, status: "The note was not pinned." });
  byId("article-heading").focus();
}

async function pinNote(event) {
  event.preventDefault();
  const noting = state.noting;
  if (!noting) return;
  const body = { paragraph: noting.paragraph, at: Math.round(noting.at * 1000) / 1000 };
  if (state.kind === "slip") {
    body.said = byId("note-said").value.trim();
    body.shouldBe = byId("note-should-be").value.trim();
    if (!body.said || !body.shouldBe) {
      update({ problem: "Write what was said and what it should be, or choose free text." });
      return byId(body.said ? "note-should-be" : "note-said").focus();
    }
  } else {
    body.text = byId("note-text").value.trim();
    if (!body.text) {
      update({ problem: "Write the note first." });
      return byId("note-text").focus();
    }
  }
  update({ busy: true, problem: "" });
  const id = state.open.article.id;
  const answer = await call("POST", `/api/review/${encodeURIComponent(id)}/notes`, body);
  if (answer.status !== 201) {
    update({ busy: false, problem: answer.body.error || "The note was not pinned: try again." });
    return byId(state.kind === "slip" ? "note-said" : "note-text").focus();
  }
  const open = Object.assign({}, state.open, { notes: [...state.open.notes, answer.body] });
  update({ busy: false, open, noting: null, status: `Pinned a note at ${clock(answer.body.at)} in paragraph ${answer.body.paragraph}.` });
  byId("article-heading").focus();
}

function ask(verdict) {
  update({ confirming: verdict, problem: "" });
  byId("confirm-yes").focus();
}

function cancelVerdict() {
  const was = state.confirming;
  update({ confirming: null });
  byId(was === "approve" ? "approve" : "send-back").focus();
}

async function giveVerdict() {
  const verdict = state.confirming;
  const a = state.open;
  if (!verdict || !a) return;
  reportHeard();
  update({ busy: true, problem: "", status: verdict === "approve" ? "Approving and delivering…" : "Sending it back…" });
  const answer = await call("POST", `/api/review/${encodeURIComponent(a.article.id)}/${verdict}`, {});
  const elsewhere = verdict === "approve" && answer.status === 202;  // another server of the service is delivering it
  if (answer.status !== 200 && !elsewhere) {
    update({ busy: false, confirming: null, status: "", problem: answer.body.error || "That did not work: try again." });
    return byId(verdict === "approve" ? "approve" : "send-back").focus();
  }
  const said = elsewhere
    ? `Approved “${a.article.title}”: it is being delivered, and it is published once listeners can hear it.`
    : verdict === "approve"
    ? `Approved “${a.article.title}”: it is published, delivered to ${answer.body.delivered}.`
    : `Sent “${a.article.title}” back to ${a.article.volunteer || "its volunteer"} with ${answer.body.pickups} ${answer.body.pickups === 1 ? "pickup" : "pickups"}.`;
  await leave(said);
}

/** The page's keys; none of them while typing in a field. Space is left to buttons and the player. */
function key(event) {
  if (!state.open || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const typing = target.matches && target.matches("input[type=text], input:not([type]), textarea, select");
  if (event.key === "Escape") {
    if (state.noting) { event.preventDefault(); return cancelNote(); }
    if (state.confirming) { event.preventDefault(); return cancelVerdict(); }
    return;
  }
  if (typing || state.noting) return;
  const onControl = target.matches && target.matches("button, a, audio, input");
  switch (event.key) {
    case " ":
      if (onControl) return;
      event.preventDefault();
      return togglePlay();
    case "j": case "J": case "ArrowDown":
      if (target.matches && target.matches("audio")) return;
      event.preventDefault();
      return jump(1);
    case "k": case "K": case "ArrowUp":
      if (target.matches && target.matches("audio")) return;
      event.preventDefault();
      return jump(-1);
    case "n": case "N":
      event.preventDefault();
      return startNote();
  }
}

function listen() {
  const player = byId("player");
  player.addEventListener("play", () => { heard.last = player.currentTime; update({ playing: true }); });
  player.addEventListener("pause", () => { update({ playing: false }); reportHeard(); });
  player.addEventListener("timeupdate", () => {
    const now = player.currentTime;
    // Only audio played counts as heard: a jump (or a seek) is not listening.
    if (!player.paused && heard.last !== null && now > heard.last && now - heard.last < 2) heard.seconds += now - heard.last;
    heard.last = now;
    if (!state.open) return;
    const number = paragraphAt(state.open.paragraphs, now);
    update({ time: now, current: number === null ? state.current : number });
  });
  player.addEventListener("seeking", () => { heard.last = player.currentTime; });
  player.addEventListener("error", () => { if (state.open) update({ problem: "The article's audio could not be loaded: reload the list." }); });
}

function start() {
  listen();
  document.addEventListener("keydown", key);
  byId("list").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-id]");
    if (button) openArticle(button.dataset.id);
  });
  const seekFrom = (event) => {
    const button = event.target.closest("button[data-seek]");
    if (!button) return;
    const number = button.dataset.number === undefined ? undefined : Number(button.dataset.number);
    seek(Number(button.dataset.seek), number, button.dataset.play === "true");
  };
  for (const id of ["paragraphs", "notes", "changes", "findings"]) byId(id).addEventListener("click", seekFrom);
  byId("findings").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-cut]");
    if (!button || !state.open) return;
    const c = findings(state.open).flatMap((p) => p.cuts).find((x) => x.chunk === button.dataset.chunk && String(x.number) === button.dataset.number);
    if (!c) return;
    const action = button.dataset.cut;
    if (action === "read" || action === "cut") hearCut(c, action);
    else decideCut(c, action);
  });
  const cutPlayer = byId("cut-player");
  cutPlayer.addEventListener("ended", () => {
    const hearing = state.hearing;
    if (hearing) update({ hearing: null, status: `Heard ${cutName(hearing.cut)} ${hearing.as === "read" ? "as it was read" : "as it would be cut"}.` });
  });
  cutPlayer.addEventListener("error", () => { if (state.hearing) cutUnplayable(); });
  byId("player").addEventListener("play", () => { if (state.hearing) { stopCut(); } });
  byId("play").addEventListener("click", togglePlay);
  byId("next-paragraph").addEventListener("click", () => jump(1));
  byId("previous-paragraph").addEventListener("click", () => jump(-1));
  byId("pin").addEventListener("click", startNote);
  byId("note-form").addEventListener("submit", pinNote);
  byId("note-cancel").addEventListener("click", cancelNote);
  byId("kind-slip").addEventListener("change", () => { update({ kind: "slip" }); byId("note-said").focus(); });
  byId("kind-remark").addEventListener("change", () => { update({ kind: "remark" }); byId("note-text").focus(); });
  byId("approve").addEventListener("click", () => ask("approve"));
  byId("send-back").addEventListener("click", () => ask("send-back"));
  byId("confirm-yes").addEventListener("click", giveVerdict);
  byId("confirm-no").addEventListener("click", cancelVerdict);
  byId("back").addEventListener("click", () => leave(""));
  window.addEventListener("pagehide", () => reportHeard(true));
  render(state);
  call("GET", "/api/me").then((me) => {
    if (me.status !== 200) return location.assign("/signin");
    update({ me: me.body });
    return loadList("");
  });
}

document.addEventListener("DOMContentLoaded", start);
