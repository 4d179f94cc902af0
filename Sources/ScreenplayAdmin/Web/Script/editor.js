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
// Content typed on a card and not yet saved by its pause is saved first, so nothing typed is lost
// when the page is redrawn; `fields` may be a function, read after that (a card's new version).
let pressed = false;
async function editorPost(url, fields, focusID, said) {
  if (pressed) return;
  pressed = true;
  try {
    await flushAutosaves();
    posting = true;
    try { await post(url, typeof fields === "function" ? fields() : fields, focusID, said); } finally { posting = false; }
  } finally { pressed = false; }
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
  prepareContent();
  filterPalette();
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
  const submitter = event.submitter;
  const fields = () => new FormData(form, submitter);
  const by = fields().get("by"), place = fields().get("place");
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

// --- A widget's content: counted, pictured and saved to the draft as you type ------------------

const graphemes = self.Intl?.Segmenter ? new Intl.Segmenter() : null;
const characters = (text) => graphemes ? [...graphemes.segment(text)].length : [...text].length;

// "12 of 60 characters" under a text with a limit; past it, said as an error before saving.
function count(input) {
  const max = Number(input.dataset.max);
  if (!max) return;
  let note = input.parentElement.querySelector(`[data-count-for="${CSS.escape(input.id)}"]`);
  if (!note) {
    note = Object.assign(doc.createElement("span"), { className: "hint count" });
    note.dataset.countFor = input.id;
    note.id = `${input.id}-count`;
    (doc.getElementById(`${input.id}-hint`) || input).after(note);
    input.setAttribute("aria-describedby", `${input.getAttribute("aria-describedby") || ""} ${note.id}`.trim());
  }
  const used = characters(input.value);
  note.textContent = `${used} of ${max} characters${used > max ? `: ${used - max} too many` : ""}`;
  note.classList.toggle("over", used > max);
}

// The card's picture in the locale chosen in its settings: each text (the default locale's where this
// one has none), the image and its alt text, the link, the colour.
function picture(card) {
  const figure = $(".content-picture", card);
  const form = $("form.edit", card);
  if (!figure || !form) return;
  const locales = ($("fieldset.content", card)?.dataset.contentLocales || "").split(" ");
  const locale = $("[data-picture-locale]", card)?.value || locales[0];
  const value = (name) => form.elements[name]?.value.trim() || "";
  const inLocale = (prefix) => value(prefix + locale) || value(prefix + locales[0]);
  $(".picture", figure).lang = locale;
  for (const part of $$("[data-picture]", figure)) {
    const name = part.dataset.picture;
    if (part.tagName === "IMG") {
      const url = value(`k.${name}.url`);
      part.hidden = !url;
      if (url && part.getAttribute("src") !== url) part.src = url;
      part.alt = inLocale(`k.${name}.alt.`);
    } else if (form.elements[`k.${name}`]) {
      const link = value(`k.${name}`);
      part.textContent = link ? `→ ${link}` : "";
    } else part.textContent = inLocale(`k.${name}.`);
  }
  const tone = $("select[data-content]", card)?.value;
  const headline = $("strong[data-picture]", figure);
  if (headline) headline.className = tone ? `tone-${tone}` : "";
}

// A picture that does not load is said on the card, before the server's check on saving.
doc.addEventListener("error", (event) => {
  const image = event.target;
  if (image.tagName !== "IMG" || !image.closest(".content-picture")) return;
  const note = image.closest(".content-picture").querySelector("figcaption");
  if (!$(".image-failed", note)) note.prepend(Object.assign(doc.createElement("strong"), { className: "error image-failed", textContent: "The image does not load. " }));
}, true);
doc.addEventListener("load", (event) => {
  if (event.target.tagName === "IMG") event.target.closest(".content-picture")?.querySelector(".image-failed")?.remove();
}, true);

// Saved to the draft after a pause in typing, in the background: the typing and the focus stay,
// the preview (which follows the draft) redraws, and the card's form takes the new version of
// the widget, so its Save and the next pause save over this one. Errors are shown by their inputs.
// Saves go one after another (each names the version the last one made); a press waits for them.
const pending = new Map();
let autosaving = Promise.resolve();
// A save that fails unexpectedly ends there: the next ones still run.
const queueSave = (card) => { autosaving = autosaving.then(() => saveContent(card)).catch(() => {}); return autosaving; };
function autosave(card) {
  clearTimeout(pending.get(card.id));
  pending.set(card.id, setTimeout(() => {
    pending.delete(card.id);
    // A press on its way redraws the page: this card's save waits for the next pause after it.
    if (pressed) return autosave(card);
    queueSave(card);
  }, 700));
}

// Saves at once what waits for its pause, and waits for every save on its way.
async function flushAutosaves() {
  for (const [id, timer] of [...pending]) {
    clearTimeout(timer);
    pending.delete(id);
    const card = doc.getElementById(id);
    if (card) queueSave(card);
  }
  await autosaving;
}

// After a save in the background, every form names the versions the page now has (a Remove or a
// move from this page is then not refused as someone else's change).
function takeVersions(page) {
  const fresh = page.getElementById("main");
  if (!fresh) return;
  // Forms are matched by what they do (their address and step), in order among the same: the
  // fresh page may have more (an Undo button now) or fewer.
  const key = (form) => `${form.getAttribute("action")}|${form.querySelector("input[name=by]")?.value || ""}|${!!form.querySelector("select[name=place]")}`;
  const theirs = new Map();
  for (const form of $$("form", fresh)) {
    if (!theirs.has(key(form))) theirs.set(key(form), []);
    theirs.get(key(form)).push(form);
  }
  for (const form of $$("form", $("#main"))) {
    const twin = theirs.get(key(form))?.shift();
    const seen = twin?.querySelector("input[name=seen]")?.value;
    if (seen && form.elements.seen) form.elements.seen.value = seen;
  }
  const editor = fresh.querySelector("[data-editor]");
  if (editor && editorRoot()) editorRoot().dataset.seen = editor.dataset.seen;
}

// An error put beside an input (or taken away) is read with it.
function describe(input, errorID, present) {
  const ids = (input.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && id !== errorID);
  if (present) ids.push(errorID);
  if (ids.length) input.setAttribute("aria-describedby", ids.join(" "));
  else input.removeAttribute("aria-describedby");
}

async function saveContent(card) {
  const form = $("form.edit", card);
  if (!form || !card.isConnected) return;
  const status = $(".autosave", card) || $("fieldset.content", card).appendChild(
    Object.assign(doc.createElement("p"), { className: "autosave hint", role: "status" }));
  posting = true;
  let page, response;
  try {
    const body = new URLSearchParams(new FormData(form));
    response = await fetch(form.action, { method: "POST", body, credentials: "same-origin", headers: { Accept: "text/html" } });
    page = new DOMParser().parseFromString(await response.text(), "text/html");
  } catch {
    status.textContent = "Not saved: no connection. Save when it is back.";
    return;
  } finally { posting = false; }
  const fresh = page.getElementById(card.id);
  if (!fresh) {
    status.textContent = page.querySelector("form.login") ? "Not saved: signed out. Sign in again in a new tab, then Save." : "Not saved: this widget is gone from the draft.";
    return;
  }
  const errors = $$(".error", fresh);
  for (const input of $$("[data-content]", card)) {
    const twin = page.getElementById(input.id);
    const error = twin && page.getElementById(`${input.id}-error`);
    doc.getElementById(`${input.id}-error`)?.remove();
    describe(input, `${input.id}-error`, !!error);
    if (error) {
      input.setAttribute("aria-invalid", "true");
      (doc.getElementById(`${input.id}-count`) || doc.getElementById(`${input.id}-hint`) || input).after(doc.importNode(error, true));
    } else input.removeAttribute("aria-invalid");
  }
  if (!response.ok || errors.length) {
    status.textContent = `Not saved: ${errors[0]?.textContent || "refused"}`;
    return;
  }
  takeVersions(page);
  const summary = $(".content-summary", fresh);
  const mine = $(".content-summary", card);
  if (summary && mine) mine.textContent = summary.textContent;
  else if (summary) $("p.summary", card).after(doc.importNode(summary, true));
  status.textContent = `Saved to the draft at ${new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}: the preview shows it.`;
}

doc.addEventListener("input", (event) => {
  const input = event.target;
  const card = input.closest?.("[data-editor] article.card");
  if (!card) return;
  if (input.matches("[data-picture-locale]")) return picture(card);
  if (!input.matches("[data-content]")) return;
  count(input);
  picture(card);
  autosave(card);
});
doc.addEventListener("change", (event) => {
  const card = event.target.closest?.("[data-editor] article.card");
  if (card && event.target.matches("select[data-content], [data-picture-locale]")) {
    picture(card);
    if (event.target.matches("select[data-content]")) autosave(card);
  }
});

function prepareContent() {
  for (const input of $$("[data-editor] [data-content][data-max]")) count(input);
  // The picture's locale menu does something only here, so it shows only here.
  for (const menu of $$("[data-editor] p.picture-locale")) menu.hidden = false;
}

prepareEditor();
