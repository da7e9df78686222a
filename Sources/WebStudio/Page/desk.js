// The coordinator's desk: every article on the desk with its state, deadline, volunteer and
// priority; filters; adding an article (text pasted or a file uploaded); assigning, leaving
// open, changing and withdrawing. One state, drawn by render(state); the server's answers (the
// routes under /api/desk in Service.md) change it. The server checks everything again.
"use strict";

const STATES = [
  ["open", "Open"], ["assigned", "Assigned"], ["recording", "Recording"], ["ready-for-review", "Ready for review"],
  ["pickups-requested", "Pickups requested"], ["approved", "Approved"], ["published", "Published"],
  ["expired", "Expired"], ["withdrawn", "Withdrawn"],
];
const STATE_WORDS = Object.fromEntries(STATES);
const PRIORITY_WORDS = { low: "Low", normal: "Normal", high: "High", urgent: "Urgent" };
/** The states in which an article may be given to a volunteer (DeskState.after). */
const ASSIGNABLE = new Set(["open", "assigned", "recording", "pickups-requested"]);
const FINISHED = new Set(["expired", "withdrawn"]);
const TEXT_LIMIT = 2 * 1024 * 1024;
/** Documents uploaded whole, and the most bytes one may have. */
const DOCUMENT = /\.(docx|odt|pdf)$/i;
const DOCUMENT_LIMIT = 3 * 1024 * 1024;

/** `bytes` in base64, a piece at a time (String.fromCharCode takes a bounded argument list). */
function base64(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** What the page shows. */
let state = {
  me: null,               // {account, role}
  allowed: null,          // null until known; false: the desk is not for this account
  articles: [],           // rows as GET /api/desk answers them
  total: 0, page: 1, pages: 1,
  volunteers: [],         // [{account, role}] one may assign to
  filters: { state: "", volunteer: "", publication: "", dueBefore: "", late: false },
  editing: null,          // the id of the article whose change form is open
  status: "",
  problem: "",
  busy: false,
};

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

/** A button whose visible words are followed, for screen readers, by the article's title. */
function rowButton(words, title, action, id, secondary) {
  const button = element("button", { type: "button", "data-action": action, "data-id": id, class: secondary ? "secondary" : "" });
  button.append(words, element("span", { class: "visually-hidden", text: ` “${title}”` }));
  return button;
}

function options(select, choices, chosen) {
  select.replaceChildren(...choices.map(([value, words]) => {
    const option = element("option", { value, text: words });
    if (value === chosen) option.selected = true;
    return option;
  }));
}

/** Draws `s`: the one place the page's elements change. */
function render(s) {
  byId("status").textContent = s.status;
  byId("problem").textContent = s.problem;
  byId("who").textContent = s.me ? `Signed in as ${s.me.account}.` : "";
  byId("desk").hidden = s.allowed !== true;
  options(byId("filter-state"), [["", "Any state"], ...STATES], s.filters.state);
  options(byId("filter-volunteer"), [["", "Anyone or nobody"], ...s.volunteers.map((v) => [v.account, v.account])], s.filters.volunteer);
  byId("filter-late").checked = s.filters.late;
  const editing = s.articles.find((a) => a.id === s.editing) || null;
  byId("change-section").hidden = editing === null;
  if (editing) byId("change-heading").textContent = `Change “${editing.title}”`;

  const filtered = s.filters.state || s.filters.volunteer || s.filters.publication || s.filters.dueBefore || s.filters.late;
  const late = s.articles.filter((a) => a.late).length;
  byId("caption").textContent = s.allowed !== true ? "" : s.total === 0
    ? (filtered ? "No article on the desk matches these filters." : "The desk is empty: add an article above.")
    : `${s.total} ${s.total === 1 ? "article" : "articles"}${filtered ? " matching the filters" : ""}, most urgent first` +
      (s.pages > 1 ? `; page ${s.page} of ${s.pages}` : "") + (late ? `; ${late} late on this page` : "") + ".";
  byId("rows").replaceChildren(...s.articles.map((a) => row(a, s)));
  byId("paging").hidden = s.pages <= 1;
  byId("previous").disabled = s.busy || s.page <= 1;
  byId("next").disabled = s.busy || s.page >= s.pages;
  for (const id of ["add-submit", "change-submit", "filter-submit", "filter-clear"]) byId(id).disabled = s.busy;
  for (const button of byId("rows").querySelectorAll("button")) button.disabled = s.busy;
}

/** One article's row. */
function row(a, s) {
  const where = [a.publication, a.section].filter((x) => x).join(", ");
  const article = element("th", { scope: "row" }, element("span", { class: "title", text: a.title }),
    where ? element("span", { class: "hint where", text: where }) : null);
  const stateCell = element("td", { class: "state state-" + a.state, text: STATE_WORDS[a.state] || a.state });
  const deadline = element("td", {}, a.deadline || "None");
  if (a.late) deadline.append(" ", element("strong", { class: "late", text: "Late" }));
  if (a.listenUntil) deadline.append(element("span", { class: "hint where", text: `Listen until ${a.listenUntil}` }));
  const volunteer = element("td", {},
    a.volunteer ? `${a.volunteer}${a.taking === "claimed" ? " (claimed)" : ""}` : "Nobody yet");
  const priority = element("td", { class: "priority-" + a.priority, text: PRIORITY_WORDS[a.priority] || a.priority });

  const actions = element("div", { class: "actions" });
  if (ASSIGNABLE.has(a.state) && s.volunteers.length > 0) {
    const select = element("select", { id: "assign-to-" + a.id, "aria-label": `Volunteer for “${a.title}”` });
    const choices = s.volunteers.map((v) => [v.account, v.account]);
    options(select, a.volunteer ? choices : [["", "Choose a volunteer"], ...choices], a.volunteer || "");
    actions.append(element("div", { class: "assign" }, select, rowButton("Assign", a.title, "assign", a.id)));
  }
  if (a.state === "assigned") actions.append(rowButton("Leave open", a.title, "open", a.id, true));
  if (!FINISHED.has(a.state)) {
    actions.append(rowButton("Change", a.title, "change", a.id, true));
    actions.append(rowButton("Withdraw", a.title, "withdraw", a.id, true));
  }
  const tr = element("tr", { "data-id": a.id, class: a.late ? "is-late" : "" },
    article, stateCell, deadline, volunteer, priority, element("td", {}, actions));
  return tr;
}

/** A JSON request to the service: {status, body}. The cookie goes along; the server checks it. */
async function call(method, path, body) {
  const options = { method, credentials: "same-origin", headers: {} };
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

/** Asks for page `page` of the articles the filters let through. */
async function load(page, status) {
  const f = state.filters;
  const query = new URLSearchParams();
  if (f.state) query.set("state", f.state);
  if (f.volunteer) query.set("volunteer", f.volunteer);
  if (f.publication) query.set("publication", f.publication);
  if (f.dueBefore) query.set("dueBefore", f.dueBefore);
  if (f.late) query.set("late", "true");
  query.set("page", String(page));
  const answer = await call("GET", "/api/desk?" + query.toString());
  if (answer.status === 401) return location.assign("/signin");
  if (answer.status === 403) return update({ allowed: false, busy: false, status: "", problem: answer.body.error });
  if (answer.status !== 200) return update({ busy: false, status: "", problem: answer.body.error || "The desk could not be read: reload the page." });
  const editing = answer.body.articles.some((a) => a.id === state.editing) ? state.editing : null;
  update({
    allowed: true, busy: false, articles: answer.body.articles, total: answer.body.total, page: answer.body.page,
    pages: answer.body.pages, editing, status: status === undefined ? state.status : status, problem: "",
  });
}

function readFilters() {
  return {
    state: byId("filter-state").value, volunteer: byId("filter-volunteer").value,
    publication: byId("filter-publication").value.trim(), dueBefore: byId("filter-due").value.trim(),
    late: byId("filter-late").checked,
  };
}

async function filter(event) {
  event.preventDefault();
  update({ filters: readFilters(), busy: true, problem: "" });
  await load(1, "");
}

async function clearFilters() {
  byId("filter-publication").value = "";
  byId("filter-due").value = "";
  update({ filters: { state: "", volunteer: "", publication: "", dueBefore: "", late: false }, busy: true, problem: "" });
  await load(1, "");
}

async function add(event) {
  event.preventDefault();
  const title = byId("add-title").value.trim();
  if (!title) {
    update({ problem: "Give the article a title.", status: "" });
    return byId("add-title").focus();
  }
  const body = {
    title, publication: byId("add-publication").value.trim(), section: byId("add-section-name").value.trim(),
    deadline: byId("add-deadline").value.trim(), listenUntil: byId("add-listen-until").value.trim(),
    priority: byId("add-priority").value, text: byId("add-text").value,
  };
  const file = byId("add-file").files[0];
  if (file) {
    const whole = DOCUMENT.test(file.name);
    if (file.size > (whole ? DOCUMENT_LIMIT : TEXT_LIMIT)) {
      update({
        problem: whole ? `“${file.name}” is bigger than 3 MB: the desk takes Word, OpenDocument and PDF files of at most 3 MB.`
                       : `“${file.name}” is bigger than 2 MB: the desk takes texts of at most 2 MB.`,
        status: "",
      });
      return byId("add-file").focus();
    }
    // Word, OpenDocument and PDF files go whole (base64) and the server reads them; text files as text.
    if (whole) body.file = base64(new Uint8Array(await file.arrayBuffer()));
    else body.text = await file.text();
    body.textName = file.name;
  }
  update({ busy: true, problem: "", status: "Adding the article…" });
  const answer = await call("POST", "/api/desk", body);
  if (answer.status !== 201) {
    update({ busy: false, status: "", problem: answer.body.error || "The article could not be added: try again." });
    return byId("add-title").focus();
  }
  byId("add").reset();
  await load(state.page, `Added “${answer.body.title}” to the desk, Open.`);
  byId("add-title").focus();
}

/** A button in a row: assign, leave open, change or withdraw that row's article. */
async function rowAction(event) {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  const id = button.dataset.id, action = button.dataset.action;
  const article = state.articles.find((a) => a.id === id);
  if (!article) return;
  if (action === "change") {
    update({ editing: id, problem: "" });
    byId("change-deadline").value = article.deadline || "";
    byId("change-listen-until").value = article.listenUntil || "";
    byId("change-priority").value = article.priority;
    byId("change-section-name").value = article.section;
    return byId("change-heading").focus();
  }
  if (action === "withdraw" && !confirm(`Withdraw “${article.title}” for good? Nobody will record, review or claim it any more.`)) return;
  let body = {};
  if (action === "assign") {
    body = { account: byId("assign-to-" + id).value };
    if (!body.account) {
      update({ problem: `Choose the volunteer for “${article.title}” in the list beside Assign.`, status: "" });
      return byId("assign-to-" + id).focus();
    }
  }
  update({ busy: true, problem: "", status: "" });
  const answer = await call("POST", `/api/desk/${encodeURIComponent(id)}/${action}`, body);
  if (answer.status !== 200) return update({ busy: false, problem: answer.body.error || "That did not work: try again." });
  const said = {
    assign: `Assigned “${article.title}” to ${answer.body.volunteer}; it is ${STATE_WORDS[answer.body.state]}.`,
    open: `“${article.title}” is Open: anyone who narrates may claim it.`,
    withdraw: `Withdrew “${article.title}”.`,
  }[action];
  await load(state.page, said);
  const again = document.querySelector(`button[data-id="${id}"][data-action="${action}"]`);
  (again || byId("articles-heading")).focus();
}

async function change(event) {
  event.preventDefault();
  const id = state.editing;
  const article = state.articles.find((a) => a.id === id);
  if (!article) return;
  update({ busy: true, problem: "", status: "" });
  const answer = await call("POST", `/api/desk/${encodeURIComponent(id)}/change`, {
    deadline: byId("change-deadline").value.trim(), listenUntil: byId("change-listen-until").value.trim(),
    priority: byId("change-priority").value, section: byId("change-section-name").value.trim(),
  });
  if (answer.status !== 200) {
    update({ busy: false, problem: answer.body.error || "The changes were not saved: try again." });
    return byId("change-deadline").focus();
  }
  state.editing = null;
  await load(state.page, `Saved the changes to “${article.title}”.`);
  const again = document.querySelector(`button[data-id="${id}"][data-action="change"]`);
  (again || byId("articles-heading")).focus();
}

function cancelChange() {
  const id = state.editing;
  update({ editing: null });
  const again = document.querySelector(`button[data-id="${id}"][data-action="change"]`);
  (again || byId("articles-heading")).focus();
}

async function start() {
  byId("add").addEventListener("submit", add);
  byId("change").addEventListener("submit", change);
  byId("change-cancel").addEventListener("click", cancelChange);
  byId("filters").addEventListener("submit", filter);
  byId("filter-clear").addEventListener("click", clearFilters);
  byId("rows").addEventListener("click", rowAction);
  byId("previous").addEventListener("click", () => { update({ busy: true }); load(state.page - 1, ""); });
  byId("next").addEventListener("click", () => { update({ busy: true }); load(state.page + 1, ""); });
  render(state);
  const me = await call("GET", "/api/me");
  if (me.status !== 200) return location.assign("/signin");
  update({ me: me.body, status: "Reading the desk…" });
  const volunteers = await call("GET", "/api/desk/volunteers");
  if (volunteers.status === 200) update({ volunteers: volunteers.body.accounts });
  await load(1, "");
}

document.addEventListener("DOMContentLoaded", start);
