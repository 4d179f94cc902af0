// Screenplay's web player: pages behave like an app, and work without it. It carries out what the
// markup says (data- attributes from the view tree) and decides nothing. A module: strict, deferred.
const doc = document;
const $ = (selector, root = doc) => root.querySelector(selector);
const $$ = (selector, root = doc) => Array.from(root.querySelectorAll(selector));
const slot = (name, root) => $(`[data-slot=${name}]`, root);
// The server says where commands go and how long an answer may take (the client core's wait).
const commandTimeout = Number(doc.body?.dataset.commandMs) || 10000;
// The site's own pages (their shell has the loading view) are driven; another page that loads
// the script, the admin's preview, only follows its stream.
const shell = !!$("#sp-loading");

// ---- Announcements ----
function announce(text) {
  const region = $("#sp-announcer");
  if (!region || !text) return;
  region.textContent = "";
  setTimeout(() => (region.textContent = text), 30);
}

async function fetchPage(url, init = {}) {
  const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" }, ...init });
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const main = page.getElementById("main");
  if (!main) throw new Error("not a page: " + response.status);
  followListener();
  return { url: response.url, status: response.status, page, main };
}

const imported = (from) => Array.from(from.childNodes).map((node) => doc.importNode(node, true));
const isPagePath = (path) => path === "/" || path.startsWith("/screens/") || path.startsWith("/web/results/");
const withoutNotice = (href) => {
  const url = new URL(href, location.href);
  url.searchParams.delete("notice");
  return url.pathname + url.search + url.hash;
};
// The same page: path and query, a banner's notice and a fragment aside.
const samePage = (a, b) => withoutNotice(a).split("#")[0] === withoutNotice(b).split("#")[0];

// ---- Navigation: the carried header at once, then the body ----
let loading = null;

function showLoading(header) {
  const main = $("#main");
  const view = $("#sp-loading").content.cloneNode(true);
  // Low-res first, unless this page already shows the full image (the browser has it).
  const full = header.full && new URL(header.full, location.href).href;
  const cached = full && $$("img").some((img) => img.complete && img.naturalWidth && img.currentSrc === full);
  if (header.image) Object.assign(slot("image", view), { src: cached ? full : header.image, alt: header.alt || "", hidden: false });
  slot("title", view).textContent = header.title || "";
  const subtitle = slot("subtitle", view);
  if (header.subtitle) subtitle.textContent = header.subtitle; else subtitle.remove();
  main.replaceChildren(view);
  main.setAttribute("aria-busy", "true");
  doc.title = header.title || doc.title;
}

function showFailure(url, header) {
  const main = $("#main");
  if (!slot("failure", main)) showLoading(header || { title: doc.title });
  const failure = slot("failure", main);
  const progress = slot("progress", main);
  if (progress) progress.hidden = true;
  failure.hidden = false;
  main.removeAttribute("aria-busy");
  $("[data-retry]", failure).onclick = () => visit(url, { header, push: false });
  announce(slot("message", failure).textContent);
}

const headerOf = ({ dataset: d }) =>
  d.headerTitle ? { title: d.headerTitle, subtitle: d.headerSubtitle, image: d.headerImage, full: d.headerFull, alt: d.headerAlt } : null;

async function visit(url, { header = null, push = true, scroll = 0 } = {}) {
  loading?.abort();
  const controller = (loading = new AbortController());
  if (push) saveScroll();
  const target = new URL(url, location.href);
  if (header) showLoading(header); else $("#main").setAttribute("aria-busy", "true");
  if (push) history.pushState({ scroll: 0 }, "", target.pathname + target.search);
  try {
    const page = await fetchPage(target.href, { signal: controller.signal });
    if (loading !== controller) return;
    loading = null;
    show(page, { focus: true });
    if (page.url !== target.href) history.replaceState({ scroll: 0 }, "", withoutNotice(page.url));
    scrollTo(0, scroll);
  } catch (error) {
    if (error.name === "AbortError") return;
    loading = null;
    showFailure(target.href, header);
  }
}

// A new page's content, title and current link (a dialog page opens as a dialog).
function show(page, { focus = false, morphing = false } = {}) {
  if (page.main.dataset.page === "dialog") return openDialog(page);
  closeDialog();
  const main = $("#main");
  if (morphing) update(main, page.main);
  else {
    main.replaceChildren(...imported(page.main));
    syncAttributes(main, page.main);
    const box = $("#site-search");
    if (box) box.value = "";
  }
  main.removeAttribute("aria-busy");
  doc.title = page.page.title;
  const links = $$(".site-header nav a, .site-search", page.page);
  $$(".site-header nav a, .site-search").forEach((link, index) => links[index] && syncAttributes(link, links[index]));
  enhance(main);
  listen();
  announce($("[data-notice]", main)?.textContent);
  if (focus && !morphing) main.focus({ preventScroll: true });
}

function saveScroll() {
  history.replaceState({ ...history.state, scroll: scrollY }, "");
}

// ---- Keyed refresh: a new page of the same screen morphed in, node by node ----
function morphChildren(live, next) {
  const byKey = new Map();
  for (const child of live.children) if (child.dataset.node) byKey.set(child.dataset.node, child);
  let cursor = live.firstChild;
  for (const incoming of Array.from(next.childNodes)) {
    const key = incoming.nodeType === 1 ? incoming.getAttribute("data-node") : null;
    let match = null;
    if (key) {
      match = byKey.get(key) || null;
      byKey.delete(key);
    } else if (cursor && cursor.nodeName === incoming.nodeName && !(cursor.nodeType === 1 && cursor.hasAttribute("data-node"))) {
      match = cursor;
    }
    if (match && match.nodeName === incoming.nodeName) {
      if (match === cursor) cursor = cursor.nextSibling; else live.insertBefore(match, cursor);
      update(match, incoming);
    } else {
      live.insertBefore(doc.importNode(incoming, true), cursor);
    }
  }
  while (cursor) {
    const after = cursor.nextSibling;
    cursor.remove();
    cursor = after;
  }
}

function update(live, next) {
  if (live.nodeType !== 1) {
    if (live.nodeValue !== next.nodeValue) live.nodeValue = next.nodeValue;
    return;
  }
  syncAttributes(live, next);
  if (live.nodeName === "TEMPLATE" || live.nodeName === "AUDIO") return;
  morphChildren(live, next);
}

// An opened disclosure stays open, shown scroll buttons shown; typed text stays (the value
// attribute is only the default once an input was edited).
const kept = (element, name) => name === "open" || name === "hidden" && element.classList.contains("carousel-scroll");

function syncAttributes(live, next) {
  for (const { name } of Array.from(live.attributes)) if (!kept(live, name) && !next.hasAttribute(name)) live.removeAttribute(name);
  for (const { name, value } of Array.from(next.attributes)) if (!kept(live, name) && live.getAttribute(name) !== value) live.setAttribute(name, value);
}

let refreshAfterDialog = false;
async function refresh() {
  if (pending || loading) return; // their answer shows the page as it is then
  // A dialog open over the page stays open (what it asks may be half typed); the page follows once it closes.
  if (dialog?.open) return void (refreshAfterDialog = true);
  try {
    const page = await fetchPage(location.pathname + location.search);
    if (page.status >= 500) return; // an outage: the page shown is still the last one known
    if (samePage(page.url, location.href)) show(page, { morphing: true });
    else if (page.page.querySelector("form.login") && !$("#sign-in-again")) {
      // An admin page that follows changes, signed out meanwhile: said, not silently frozen.
      const box = summaryBox();
      box.append("Signed out: this page stopped following changes. ", signInLink(page.page), " in a new tab; back here, it follows again.");
      box.setAttribute("role", "status");
    }
  } catch (error) { /* the page shown is still the last one known */ }
}

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

// ---- Live: the page follows its screen (event stream, or polled while visible) ----
let stream = null, poll = 0;

function listen() {
  const { live: url, interval } = $("#main")?.dataset || {};
  clearInterval(poll);
  poll = interval && setInterval(() => doc.hidden || refresh(), interval * 1000);
  if (stream && url && stream.url === new URL(url, location.href).href) return;
  stream?.close();
  stream = url ? new EventSource(url) : null;
  if (!stream) return;
  const check = (etag) => etag === $("#main").dataset.etag || refresh();
  stream.addEventListener("ready", (event) => {
    $("#sign-in-again")?.closest("#error-summary").remove(); // following again: signed in again
    check(Object.values(JSON.parse(event.data).screens)[0]);
  });
  stream.addEventListener("screen", (event) => check(JSON.parse(event.data).etag));
  stream.addEventListener("revalidate", refresh);
  // Refused for good (an admin signed out, a server full or down): one look says why or shows
  // what is new, and the stream is tried again 10 s later.
  const source = stream;
  source.addEventListener("error", () => {
    if (source.readyState !== EventSource.CLOSED) return;
    refresh();
    setTimeout(() => { if (stream === source) { stream = null; listen(); } }, 10000);
  });
}
// Back on a tab whose stream was refused (signed in again in another): try again at once.
doc.addEventListener("visibilitychange", () => {
  if (!doc.hidden && stream?.readyState === EventSource.CLOSED) { stream = null; listen(); }
});

// One listener, every tab: a browser's first write gives it an identity (the readable cookie
// screenplay_listener says so). Each open tab's stream, opened before that, is opened again as
// the listener's, and its "ready" shows what is theirs; the tab that saw it tells the others.
const identity = () => /(?:^|;\s*)screenplay_listener=1/.test(doc.cookie);
let identified = identity();
const tabs = self.BroadcastChannel ? new BroadcastChannel("screenplay-listener") : null;
function followListener(told) {
  if (identified === identity()) return;
  identified = !identified;
  if (!told) tabs?.postMessage(identified);
  if (stream) { stream.close(); stream = null; listen(); }
}
tabs?.addEventListener("message", () => followListener(true));

// ---- Commands: sent in the background, answered in place ----
let pending = 0;
const chains = new Map();

function submitCommand(form, submitter) {
  const body = new URLSearchParams(new FormData(form, submitter));
  const undo = form.hasAttribute("data-toggle") ? flipAll(form) : null;
  const run = () => sendCommand(form, body, submitter, undo);
  // One toggle's commands go one after another, so the last tap is the last word.
  const key = form.dataset.binding || form;
  const chain = (chains.get(key) || Promise.resolve()).then(run, run);
  chains.set(key, chain);
  chain.finally(() => { if (chains.get(key) === chain) chains.delete(key); });
}

async function sendCommand(form, body, submitter, undo) {
  pending += 1;
  submitter?.setAttribute("aria-busy", "true");
  try {
    const page = await fetchPage(form.action, {
      method: "POST", body, signal: AbortSignal.timeout(commandTimeout),
      headers: { Accept: "text/html", "Content-Type": "application/x-www-form-urlencoded" },
    });
    const refused = page.status >= 400 || $("[data-notice=error]", page.main);
    if (refused && undo) undo();
    pending -= 1;
    if (page.main.dataset.page === "dialog") return openDialog(page, submitter);
    if (samePage(page.url, location.href)) {
      // Done or refused: the page as it is now, once nothing else is on its way.
      if (pending === 0) show(page, { morphing: true });
      else if (refused) announce($("[data-notice]", page.main).textContent);
      history.replaceState(history.state, "", withoutNotice(page.url));
      return;
    }
    saveScroll();
    history.pushState({ scroll: 0 }, "", withoutNotice(page.url));
    show(page, { focus: true });
    scrollTo(0, 0);
  } catch (error) {
    pending -= 1;
    undo?.();
    const message = doc.body.dataset[error.name === "TimeoutError" ? "commandTimeout" : "commandFailure"];
    closeDialog();
    announce(message);
    showError(message);
  } finally {
    submitter?.removeAttribute("aria-busy");
  }
}

function showError(message) {
  const main = $("#main");
  $$("[data-notice]", main).forEach((notice) => notice.remove());
  const box = $("#sp-error").content.firstElementChild.cloneNode(true);
  box.textContent = message;
  const header = $(".hero", main);
  if (header) header.after(box); else main.prepend(box);
}

// A toggle flips the moment it is tapped, with every copy bound to the same entity; the
// returned function flips them back (a refusal, a timeout).
function flipAll(form) {
  const binding = form.dataset.binding;
  const forms = binding ? $$("form[data-toggle]").filter((each) => each.dataset.binding === binding) : [form];
  forms.forEach(flip);
  return () => forms.forEach(flip);
}

function flip(form) {
  const button = $("button", form);
  const icon = $("span[aria-hidden]", button);
  const { url, payload } = form.elements;
  const data = form.dataset;
  const text = $(".label", button);
  const now = {
    flipText: text.textContent, flipIcon: icon?.textContent || "",
    flipLabel: button.getAttribute("aria-label") || "", flipUrl: url.value, flipPayload: payload.value,
  };
  if (icon) icon.textContent = data.flipIcon || "";
  text.textContent = data.flipText;
  if (data.flipLabel) button.setAttribute("aria-label", data.flipLabel);
  url.value = data.flipUrl;
  payload.value = data.flipPayload;
  data.toggle = data.toggle === "on" ? "off" : "on";
  button.setAttribute("aria-pressed", String(data.toggle === "on"));
  Object.assign(data, now);
}

// ---- Dialogs: prompts and choices over the page that asked ----
let dialog = null;
let opener = null;

function openDialog(page, trigger) {
  if (!dialog) {
    dialog = doc.createElement("dialog");
    dialog.className = "sp-dialog";
    dialog.setAttribute("aria-labelledby", "dialog-title");
    dialog.addEventListener("close", () => {
      dialog.replaceChildren();
      if (opener?.isConnected) opener.focus();
      opener = null;
      if (refreshAfterDialog) { refreshAfterDialog = false; refresh(); }
    });
    doc.body.append(dialog);
  }
  dialog.replaceChildren(...imported(page.main));
  enhance(dialog);
  if (!dialog.open) {
    opener = trigger || doc.activeElement;
    dialog.showModal();
  }
  const field = $("input:not([type=hidden])", dialog) || $("button, a", dialog);
  field?.focus();
  announce($("[role=alert]", dialog)?.textContent);
}

function closeDialog() {
  if (dialog?.open) dialog.close();
}

// ---- The player: a queue that keeps playing while pages change ----
const player = $("#sp-player");
const audio = $("#sp-audio");
let queue = [];
let position = 0;

const pad = (number) => String(number).padStart(2, "0");
const clock = (seconds) => {
  const t = Math.max(0, Math.floor(seconds || 0));
  return (t >= 3600 ? Math.floor(t / 3600) + ":" + pad(Math.floor(t / 60) % 60) : Math.floor(t / 60)) + ":" + pad(t % 60);
};

async function play(link) {
  const data = link.dataset;
  const first = { id: data.play, title: data.trackTitle, subtitle: data.trackSubtitle, duration: +data.trackDuration || 0, src: data.trackSrc };
  queue = [first];
  position = 0;
  start(first);
  if (!data.queue) return;
  try {
    const response = await fetch(data.queue, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const tracks = ((await response.json()).tracks || []).map((track) => ({
      id: String(track.id), title: track.title, subtitle: track.subtitle, duration: track.durationSeconds || 0, src: track.streamURL,
    }));
    const index = tracks.findIndex((track) => track.id === first.id);
    if (index >= 0 && queue[0] === first) [queue, position] = [tracks, index];
  } catch (error) { /* the queue is the first track alone */ }
}

function start(track) {
  if (!player || !audio || !track) return;
  audio.src = track.src;
  audio.play().catch(() => {});
  slot("title", player).textContent = track.title;
  slot("subtitle", player).textContent = track.subtitle || "";
  slot("duration", player).textContent = clock(track.duration);
  $("[data-player=seek]", player).max = String(track.duration || 0);
  player.hidden = false;
  doc.body.classList.add("has-player");
  if ("mediaSession" in navigator && window.MediaMetadata) {
    navigator.mediaSession.metadata = new MediaMetadata({ title: track.title, artist: track.subtitle || "" });
  }
  announce(player.getAttribute("aria-label") + ": " + track.title);
}

function step(by) {
  if (by < 0 && audio.currentTime > 3) { audio.currentTime = 0; return; }
  const next = position + by;
  if (next < 0 || next >= queue.length) return;
  position = next;
  start(queue[position]);
}

if (player && audio) {
  const toggle = $("[data-player=toggle]", player);
  const seek = $("[data-player=seek]", player);
  const showState = () => {
    const playing = !audio.paused;
    toggle.toggleAttribute("data-playing", playing);
    toggle.setAttribute("aria-label", playing ? toggle.dataset.playingLabel : toggle.dataset.pausedLabel);
    if ("mediaSession" in navigator) navigator.mediaSession.playbackState = playing ? "playing" : "paused";
  };
  audio.onplay = audio.onpause = showState;
  audio.onended = () => step(1);
  audio.ontimeupdate = () => {
    slot("elapsed", player).textContent = clock(audio.currentTime);
    if (doc.activeElement !== seek) seek.value = String(Math.floor(audio.currentTime));
  };
  audio.ondurationchange = () => {
    if (Number.isFinite(audio.duration)) {
      seek.max = String(Math.floor(audio.duration));
      slot("duration", player).textContent = clock(audio.duration);
    }
  };
  toggle.onclick = () => (audio.paused ? audio.play().catch(() => {}) : audio.pause());
  for (const [name, by] of [["previous", -1], ["next", 1]]) $(`[data-player=${name}]`, player).onclick = () => step(by);
  seek.oninput = () => { audio.currentTime = Number(seek.value); };
  if ("mediaSession" in navigator) {
    const actions = { play: () => audio.play(), pause: () => audio.pause(), previoustrack: () => step(-1), nexttrack: () => step(1),
      seekto: (details) => (audio.currentTime = details.seekTime) };
    for (const [name, handler] of Object.entries(actions)) navigator.mediaSession.setActionHandler(name, handler);
  }
}

// ---- Share: the system's sheet, else the link copied ----
async function share(details, summary) {
  const url = new URL(details.dataset.shareUrl, location.href).href;
  try {
    if (navigator.share) return await navigator.share({ title: details.dataset.shareTitle, url });
    await navigator.clipboard.writeText(url);
    announce(summary.dataset.copied = details.dataset.shareCopied);
  } catch (error) {
    if (error.name !== "AbortError") details.open = true;
  }
}

// ---- What a page's markup asks for ----
function enhance(root) {
  for (const frame of $$(".carousel-frame", root)) {
    const list = $(".carousel", frame);
    const buttons = $$(".carousel-scroll", frame);
    const update = () => {
      buttons[0].disabled = list.scrollLeft <= 4;
      buttons[1].disabled = list.scrollLeft + list.clientWidth >= list.scrollWidth - 4;
    };
    for (const button of buttons) {
      button.hidden = false;
      button.onclick = () => list.scrollBy({ left: Number(button.dataset.scroll) * list.clientWidth * 0.8 });
    }
    list.onscroll = update;
    update();
  }
  for (const input of $$("input[data-limit]", root)) countCharacters(input);
}

function countCharacters(input) {
  const hint = doc.getElementById(input.id + "-limit");
  if (!hint) return;
  const count = Array.from(input.value).length;
  if (!count) return;
  const over = count - input.dataset.limit;
  hint.textContent = (over > 0 ? input.dataset.limitOver : input.dataset.limitCounter).replace("{count}", count).replace("{over}", over);
  hint.classList.toggle("over", over > 0);
}

// ---- Listening ----
doc.addEventListener("click", (event) => {
  const { target } = event;
  if (event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const take = (run) => { event.preventDefault(); run(); };
  if (target.closest("dialog [data-dialog-close]")) return take(closeDialog);
  const summary = target.closest("details.share > summary");
  if (summary && (navigator.share || navigator.clipboard)) return take(() => share(summary.parentElement, summary));
  const link = target.closest("a[href]");
  if (!shell || !link || link.target || link.hasAttribute("download")) return;
  if (link.dataset.play) return take(() => play(link));
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !isPagePath(url.pathname)) return;
  if (url.hash && url.pathname + url.search === location.pathname + location.search) return;
  take(() => visit(url.href, { header: headerOf(link) }));
});

doc.addEventListener("submit", (event) => {
  const form = event.target;
  if (!shell || event.defaultPrevented || form.target) return;
  const action = new URL(form.action, location.href);
  if (action.origin !== location.origin) return;
  if (form.method === "get" && isPagePath(action.pathname)) {
    event.preventDefault();
    const query = new URLSearchParams(new FormData(form, event.submitter));
    visit(action.pathname + "?" + query.toString());
    return;
  }
  if (form.method === "post" && action.pathname === doc.body.dataset.commandPath) {
    event.preventDefault();
    submitCommand(form, event.submitter);
  }
});

doc.addEventListener("input", (event) => {
  if (event.target.matches?.("input[data-limit]")) countCharacters(event.target);
});

window.addEventListener("popstate", (event) => {
  if (!shell || !isPagePath(location.pathname)) return;
  visit(location.href, { push: false, scroll: event.state?.scroll || 0 });
});

// Back from the bfcache: maybe old. Hidden: no stream held.
window.addEventListener("pageshow", (event) => { if (event.persisted) { refresh(); listen(); } });
window.addEventListener("pagehide", () => { stream?.close(); stream = null; });

let saving = 0;
window.addEventListener("scroll", () => {
  clearTimeout(saving);
  saving = setTimeout(() => { if (!loading) saveScroll(); }, 200);
}, { passive: true });

// ---- The admin's editor: drops and Move/Save posts answered in place (scroll and focus kept) ----
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

// Only the site's own pages restore their scroll themselves.
if (shell && "scrollRestoration" in history) history.scrollRestoration = "manual";
history.replaceState({ scroll: scrollY, ...history.state }, "", withoutNotice(location.href));
enhance(doc);
listen();

// For hosts and tests: the page morphed in place.
window.screenplay = { refresh };
