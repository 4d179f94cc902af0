// The layout admin's pages: the editor's drops and Move/Save posts answered in place (scroll and
// focus kept), the palette's filter, times in the reader's zone, one press per post. The shared
// module (core.js) makes a page that names a stream (the preview) follow it live.
import { $, $$, announce, doc, imported, resume, site } from "./core.js";

// The box under the heading that says why a page did not change (replacing the last one).
function summaryBox() {
  $("#error-summary")?.remove();
  const box = Object.assign(doc.createElement("div"), { className: "error-summary", id: "error-summary", tabIndex: -1 });
  $("#main > h1").after(box);
  return box;
}

// "Sign in again", in a new tab that comes back here: this tab keeps what it shows and what was typed.
const signInLink = (page) => Object.assign(doc.createElement("a"), {
  href: `${page.querySelector("form.login").action}?next=${encodeURIComponent(location.pathname + location.search)}`, target: "_blank", id: "sign-in-again", textContent: "Sign in again" });

// A page that follows changes (the preview), signed out meanwhile: said, not silently frozen;
// following again once signed in again (its stream is ready).
site.elsewhere = (page) => {
  if (!page.page.querySelector("form.login") || $("#sign-in-again")) return;
  const box = summaryBox();
  box.append("Signed out: this page stopped following changes. ", signInLink(page.page), " in a new tab; back here, it follows again.");
  box.setAttribute("role", "status");
};
site.ready = () => $("#sign-in-again")?.closest("#error-summary").remove();

// Signed in (again) in another tab: every page here that stopped following changes follows
// again at once, not at its next try. A page with a session says so to the others as it loads.
const sessions = self.BroadcastChannel ? new BroadcastChannel("screenplay-admin-session") : null;
if (sessions) {
  sessions.onmessage = () => resume(true);
  if (!$("form.login")) sessions.postMessage("session");
}

const editorRoot = () => $("[data-editor]");

// Signed out under an open editor: the typing stays, and the next post takes the new session's token.
let signedOut = false, posting = false;

// One post at a time: a second press while one is on its way (a double click on Add) is dropped.
async function editorPost(url, fields, focusID, said) {
  if (posting) return;
  posting = true;
  try { await post(url, fields, focusID, said); } finally { posting = false; }
}

async function post(url, fields, focusID, said) {
  const body = new URLSearchParams(fields);
  if (signedOut) {
    const page = new DOMParser().parseFromString(await fetch(location.href).then((r) => r.text(), () => ""), "text/html");
    const token = page.querySelector("[data-editor] input[name=csrf]")?.value;
    if (token) for (const input of $$("input[name=csrf]")) input.value = token;
    signedOut = !token;
  }
  body.set("csrf", $("[data-editor] input[name=csrf]")?.value || "");
  let response;
  try {
    response = await fetch(url, { method: "POST", body, credentials: "same-origin", headers: { Accept: "text/html" } });
  } catch {
    announce("Not saved: no connection.");
    return;
  }
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.getElementById("main");
  if (!fresh || !page.querySelector("[data-editor]")) {
    const signIn = page.querySelector("form.login");
    if (response.ok && !signIn) return location.assign(response.url);
    // Refused without an editor to show (too large, signed out): said at the top, the typing kept.
    const box = summaryBox();
    if ((signedOut = !!signIn)) box.append("Not saved: signed out. ", signInLink(page), " in a new tab, then press the button again; your typing is kept.");
    else box.textContent = (fresh || page.body).textContent.trim();
    box.setAttribute("role", "alert");
    return box.focus();
  }
  const filter = $("#palette-filter")?.value;
  $("#main").replaceChildren(...imported(fresh));
  doc.title = page.title;
  if (response.redirected) history.replaceState(history.state, "", response.url);
  if (filter) $("#palette-filter").value = filter;
  prepareEditor();
  const summary = $("#error-summary");
  // Without a target of its own, where the server's answer puts the focus (a new widget's field).
  const target = summary && !response.ok ? summary : focusID ? doc.getElementById(focusID) : $("#main [autofocus]");
  // A button disabled now (moved to the very top) cannot hold the focus: its card does.
  (target?.disabled ? target.closest("article.card") : target)?.focus();
  announce(response.ok ? said : $("h2", summary)?.textContent);
}

function prepareEditor() {
  for (const card of $$("[data-editor] article.card, .palette-item")) card.draggable = true;
  filterPalette();
  localTimes();
}

// The palette's filter as you type: every word somewhere in a kind's text (what the server's GET does).
function filterPalette() {
  const input = $("#palette-filter");
  if (!input) return;
  const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
  const items = $$(".palette-item");
  let shown = 0;
  for (const item of items) shown += !(item.hidden = !words.every((word) => item.dataset.search.includes(word)));
  $("#palette-count").textContent = words.length ? `${shown} of ${items.length} kinds match “${input.value.trim()}”` : `${items.length} kinds`;
}
doc.addEventListener("input", (event) => { if (event.target.id === "palette-filter") filterPalette(); });

// UTC times in the reader's zone.
function localTimes() {
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const time of $$("time[datetime]:not([title])")) {
    const when = new Date(time.dateTime);
    if (isNaN(when)) continue;
    time.title = time.textContent;
    time.textContent = `${format.format(when)} (${zone})`;
  }
}

let dragged = null;

function dropPlace(event) {
  const list = event.target.closest?.("[data-editor] .cards");
  if (!list || !dragged) return null;
  const cards = $$(":scope > article.card", list).filter((card) => card !== dragged);
  let index = cards.findIndex((card) => {
    const box = card.getBoundingClientRect();
    return event.clientY < box.top + box.height / 2;
  });
  if (index < 0) index = cards.length;
  return { list, index, before: cards[index] || null };
}

function clearDropMarks() {
  $$(".drop-before, .drop-end").forEach((element) => element.classList.remove("drop-before", "drop-end"));
}

doc.addEventListener("dragstart", (event) => {
  const card = event.target.closest?.("[data-editor] article.card, .palette-item");
  if (!card) return;
  dragged = card;
  event.dataTransfer.effectAllowed = card.dataset.kind ? "copy" : "move";
  event.dataTransfer.setData("text/plain", card.dataset.widget || card.dataset.kind);
  card.classList.add("dragging");
});

doc.addEventListener("dragover", (event) => {
  const place = dropPlace(event);
  if (!place) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = dragged.dataset.kind ? "copy" : "move";
  clearDropMarks();
  (place.before || place.list).classList.add(place.before ? "drop-before" : "drop-end");
});

doc.addEventListener("drop", (event) => {
  const place = dropPlace(event);
  if (!place) return;
  event.preventDefault();
  const card = dragged;
  const section = place.list.dataset.section;
  const at = `${section}, position ${place.index + 1}`;
  if (card.dataset.kind) {
    // A kind from the palette: its Add form, to the place it was dropped.
    const fields = new FormData($("form", card));
    fields.set("section", section);
    fields.set("index", String(place.index));
    editorPost($("form", card).action, fields, null, `Added a ${card.dataset.kind} to ${at}`);
  } else editorPost(card.dataset.move, { section, index: String(place.index), seen: editorRoot().dataset.seen }, card.id, `Moved ${card.dataset.widget} to ${at}`);
});

doc.addEventListener("dragend", () => {
  dragged?.classList.remove("dragging");
  dragged = null;
  clearDropMarks();
});

doc.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.id === "palette-filter-form") {
    event.preventDefault();
    return filterPalette();
  }
  const kind = form.closest(".palette-item")?.dataset.kind;
  if (kind && !event.defaultPrevented) {
    event.preventDefault();
    return editorPost(form.action, new FormData(form), null, `Added a ${kind} to ${form.elements.section.value}`);
  }
  const card = form.closest("[data-editor] article.card");
  if (event.defaultPrevented || !card || form.method !== "post") return;
  const path = new URL(form.action).pathname;
  const moving = path.endsWith("/move");
  const [parent, last] = path.split("/").slice(-2);
  if (!moving && !(parent === "widgets" && decodeURIComponent(last) === card.dataset.widget)) return;
  event.preventDefault();
  const fields = new FormData(form, event.submitter);
  const by = fields.get("by"), place = fields.get("place");
  const said = !moving ? `Saved ${card.dataset.widget}` : place ? `Moved ${card.dataset.widget} to ${form.elements.place.selectedOptions[0].text}`
    : `Moved ${card.dataset.widget} ${by === "-1" ? "up" : "down"}`;
  editorPost(form.action, fields, event.submitter?.id || card.id, said);
});

// A post that loads a page (publish, roll back, delete) goes once: a double click is one press.
window.addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || form.method !== "post") return;
  if (form.dataset.sent) event.preventDefault();
  form.dataset.sent = 1;
});
window.addEventListener("pageshow", () => { for (const form of $$("form[data-sent]")) delete form.dataset.sent; });

prepareEditor();
