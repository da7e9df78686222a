// The reading service's own pages: sign in, the invitation, and the signed-in home page.
// One state, drawn by render(state); the server's answers (GET /api/me and the routes listed in
// Service.md) change the state. The page decides nothing the server does not check again.
"use strict";

const ROLE_WORDS = {
  "volunteer": "Volunteer: you record the articles given to you or chosen by you.",
  "proof-listener": "Proof-listener: you listen to articles before listeners hear them.",
  "coordinator": "Coordinator: you manage the day's articles.",
  "admin": "Administrator: you manage the service and its accounts.",
};

/** What the page shows. `view` comes from the address: "signin", "invitation" or "home". */
let state = {
  view: viewOf(location.pathname),
  me: null,            // {account, role} once signed in
  rule: "",            // the passphrase rule in words, from the server
  invitation: null,    // {account, token} from the link's fragment
  status: "",
  problem: "",
  busy: false,
  articles: null,      // {mine, open} from GET /api/my-articles, on the home page of an account that records
};

/** Roles whose home page lists their articles and the open ones. */
const RECORDING_ROLES = ["volunteer", "coordinator", "admin"];

function viewOf(path) {
  if (path === "/invitation") return "invitation";
  if (path === "/home") return "home";
  return "signin";
}

function update(changes) {
  state = Object.assign({}, state, changes);
  render(state);
}

/** Draws `s`: the one place the page's elements change. */
function render(s) {
  const byId = (id) => document.getElementById(id);
  const headings = { signin: "Sign in", invitation: "Choose your passphrase", home: "Reading service" };
  byId("heading").textContent = headings[s.view];
  document.title = headings[s.view] + " · Reading service";
  byId("status").textContent = s.status;
  byId("problem").textContent = s.problem;
  byId("signin").hidden = s.view !== "signin";
  const invitationUsable = s.view === "invitation" && s.invitation !== null;
  byId("invitation").hidden = !invitationUsable;
  byId("to-signin").hidden = !(s.view === "invitation" && s.invitation === null);
  if (invitationUsable) {
    byId("invitation-intro").textContent =
      `Welcome, ${s.invitation.account}. Choose the passphrase you will sign in with, and type it twice.`;
    byId("rule").textContent = s.rule;
  }
  byId("home").hidden = !(s.view === "home" && s.me);
  if (s.me) {
    byId("home-who").textContent = `Signed in as ${s.me.account}`;
    byId("home-role").textContent = ROLE_WORDS[s.me.role] || s.me.role;
  }
  // The server refuses the desk to anyone else; the link is only shown to those it admits.
  // The shared studio (a new article from scratch, any article of the library) is the staff's:
  // volunteers open each of their articles' own studio from "My articles".
  byId("open-studio").parentElement.hidden = !(s.me && (s.me.role === "coordinator" || s.me.role === "admin"));
  byId("desk-link").hidden = !(s.me && (s.me.role === "coordinator" || s.me.role === "admin"));
  byId("review-link").hidden = !(s.me && s.me.role === "proof-listener");
  for (const id of ["signin-submit", "invitation-submit", "sign-out", "sign-out-everywhere"]) byId(id).disabled = s.busy;
  const lists = s.view === "home" && s.me && s.articles;
  byId("my-articles").hidden = !lists;
  byId("open-articles").hidden = !lists;
  if (lists) {
    renderArticles("my-articles", s.articles.mine, "Nothing is given to you or claimed by you now.", s.busy);
    renderArticles("open-articles", s.articles.open, "No article is open to claim now.", s.busy);
  }
}

/** One list of the home page: each article's title, where it is from, its state and deadline
 * in words, and its one action (open it in the studio, or claim it). */
function renderArticles(id, articles, emptyWords, busy) {
  const list = document.getElementById(id + "-list");
  document.getElementById(id + "-empty").textContent = articles.length ? "" : emptyWords;
  const rows = articles.map((article) => {
    const row = document.createElement("li");
    const title = document.createElement("h3");
    title.textContent = article.title;
    const from = document.createElement("p");
    from.textContent = [article.publication, article.section].filter(Boolean).join(", ");
    const when = document.createElement("p");
    const deadline = article.deadline ? `Deadline ${article.deadline}${article.late ? ", late" : ""}.` : "No deadline.";
    when.textContent = `${article.state}. ${deadline}`;
    if (article.late) when.className = "late";
    row.append(title, from, when);
    if (id === "my-articles") {
      const open = document.createElement("a");
      open.className = "button";
      open.href = "/?article=" + encodeURIComponent(article.article);
      open.textContent = `Open “${article.title}” in the studio`;
      row.append(open);
    } else {
      const claim = document.createElement("button");
      claim.type = "button";
      claim.disabled = busy;
      claim.textContent = `Claim “${article.title}”`;
      claim.addEventListener("click", () => claimArticle(article));
      row.append(claim);
    }
    return row;
  });
  list.replaceChildren(...rows);
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

async function signIn(event) {
  event.preventDefault();
  const account = document.getElementById("signin-account").value.trim().toLowerCase();
  const passphrase = document.getElementById("signin-passphrase").value;
  if (!account || !passphrase) return update({ problem: "Type your name and your passphrase.", status: "" });
  update({ busy: true, problem: "", status: "Signing in…" });
  const answer = await call("POST", "/api/session", { account, passphrase });
  if (answer.status === 200) return location.assign("/home");
  document.getElementById("signin-passphrase").value = "";
  update({ busy: false, status: "", problem: answer.body.error || "Signing in did not work: try again." });
  document.getElementById("signin-passphrase").focus();
}

async function acceptInvitation(event) {
  event.preventDefault();
  const first = document.getElementById("invitation-passphrase").value;
  const again = document.getElementById("invitation-again").value;
  if (first !== again) {
    update({ problem: "The two passphrases are not the same: type the same passphrase in both fields.", status: "" });
    return document.getElementById("invitation-again").focus();
  }
  update({ busy: true, problem: "", status: "Setting your passphrase…" });
  const answer = await call("POST", "/api/invitations/accept",
    { account: state.invitation.account, token: state.invitation.token, passphrase: first });
  if (answer.status === 201) return location.assign("/home");
  update({ busy: false, status: "", problem: answer.body.error || "The passphrase could not be set: try again." });
  document.getElementById("invitation-passphrase").focus();
}

async function signOut(everywhere) {
  update({ busy: true, problem: "", status: "Signing out…" });
  const answer = everywhere ? await call("POST", "/api/session/everywhere") : await call("DELETE", "/api/session");
  if (answer.status === 200) {
    const ended = Number(answer.body.sessionsEnded || 0);
    sessionStorage.setItem("notice", everywhere
      ? `You are signed out on every device (${ended} ${ended === 1 ? "session" : "sessions"} ended).`
      : "You are signed out.");
    return location.assign("/signin");
  }
  update({ busy: false, status: "", problem: answer.body.error || "Signing out did not work: try again." });
}

/** Reads the account's articles again (the server decides which it may see). */
async function loadArticles() {
  const answer = await call("GET", "/api/my-articles");
  if (answer.status === 200) return update({ articles: answer.body });
  update({ articles: null, problem: answer.status === 404 ? "" : (answer.body.error || "Your articles could not be read: reload the page.") });
}

async function claimArticle(article) {
  update({ busy: true, problem: "", status: `Claiming “${article.title}”…` });
  const answer = await call("POST", "/api/desk/" + encodeURIComponent(article.article) + "/claim", {});
  if (answer.status === 200) {
    update({ busy: false, status: `You claimed “${article.title}”: it is in My articles now.` });
  } else {
    update({ busy: false, status: "", problem: answer.body.error || "The claim did not work: reload the page and try again." });
  }
  await loadArticles();
  document.getElementById("my-articles-heading").focus();
}

/** The account and secret after "#" in an invitation link; the address bar then loses them. */
function readInvitation() {
  const fields = new URLSearchParams(location.hash.slice(1));
  const account = fields.get("account"), token = fields.get("token");
  if (location.hash) history.replaceState(null, "", location.pathname);
  return account && token ? { account, token } : null;
}

async function start() {
  document.getElementById("signin").addEventListener("submit", signIn);
  document.getElementById("invitation").addEventListener("submit", acceptInvitation);
  document.getElementById("sign-out").addEventListener("click", () => signOut(false));
  document.getElementById("sign-out-everywhere").addEventListener("click", () => signOut(true));
  const notice = sessionStorage.getItem("notice") || "";
  sessionStorage.removeItem("notice");
  update({ status: notice });
  if (state.view === "invitation") {
    const invitation = readInvitation();
    const rule = await call("GET", "/api/passphrase-rule");
    update({
      invitation, rule: rule.body.rule || "",
      problem: invitation ? "" : "This invitation link is not complete: open the whole link from your invitation.",
    });
    return;
  }
  const me = await call("GET", "/api/me");
  if (state.view === "signin") {
    if (me.status === 200) return location.assign("/home");
    render(state);
    return document.getElementById("signin-account").focus();
  }
  if (me.status !== 200) return location.assign("/signin");
  update({ me: me.body });
  if (RECORDING_ROLES.includes(me.body.role)) await loadArticles();
}

document.addEventListener("DOMContentLoaded", start);
