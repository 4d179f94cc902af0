// Screenplay's web player: the listener's pages behave like an app, and work without it:
// navigation with the carried header at once, commands answered in place, dialogs and the player.
// Fetching and morphing pages, and following them live, is the shared module's (core.js).
import { $, $$, announce, doc, fetchPage, samePage, show, site, slot, withoutNotice } from "./core.js";

// The server says where commands go, how long an answer may take (the client core's wait) and
// which paths are its pages ("/screens/*": every path under it).
const conf = doc.body.dataset;
const commandTimeout = Number(conf.commandMs) || 10000;
const pages = (conf.pages || "/").split(" ");
const isPagePath = (path) => pages.some((page) => page.endsWith("*") ? path.startsWith(page.slice(0, -1)) : path === page);

// ---- Navigation: the carried header at once, then the body ----
let loading = null;

function showLoading(header) {
  const main = $("#main");
  const view = $("#sp-loading").content.cloneNode(true);
  // Low-res first, unless this page already shows the full image (the browser has it).
  const full = header.full && new URL(header.full, location).href;
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
  const target = new URL(url, location);
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

function saveScroll() {
  history.replaceState({ ...history.state, scroll: scrollY }, "");
}


// ---- Commands: sent in the background, answered in place ----
let pending = 0;
const chains = new Map();

function submitCommand(form, submitter) {
  // A row's "⋯" menu closes once one of its actions is chosen.
  form.closest(".more")?.removeAttribute("open");
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
    const message = conf[error.name === "TimeoutError" ? "commandTimeout" : "commandFailure"];
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
  // The face it had is now the other one, which keeps the button's width.
  if (text.hasAttribute("data-other")) text.dataset.other = now.flipText;
  text.textContent = data.flipText;
  if (data.flipLabel) button.setAttribute("aria-label", data.flipLabel);
  url.value = data.flipUrl;
  payload.value = data.flipPayload;
  data.toggle = data.toggle === "on" ? "off" : "on";
  button.setAttribute("aria-pressed", String(data.toggle === "on"));
  Object.assign(data, now);
}

// ---- Dialogs: prompts and choices over the page that asked (dialogs.js, loaded when one opens) ----
let dialogs = null;

// Without the module (it could not load), the dialog's own page, as without the script.
function openDialog(page, trigger) {
  return import(conf.dialogs).then((module) => (dialogs = module).open(page, trigger), () => location.assign(page.url));
}

function closeDialog() {
  dialogs?.close();
}

// ---- The player (player.js): loaded by the first play, or at once when one was kept ----
// The tap starts the audio itself (a browser lets a page play only in answer to one); the module
// shows the bar, loads the queue and keeps it.
const audio = $("#sp-audio");
const player = () => import(conf.playerModule);
function play(link) {
  audio.src = link.dataset.trackSrc;
  audio.play().catch(() => {});
  // Without its module the track still plays; the bar does not show.
  player().then((module) => module.play(link), () => {});
}
try { if (audio && localStorage.spPlayer) player().catch(() => {}); } catch { /* storage refused: nothing kept */ }

// ---- Listening ----
doc.addEventListener("click", (event) => {
  const { target } = event;
  if (event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const take = (run) => { event.preventDefault(); run(); };
  if (target.closest("dialog [data-dialog-close]")) return take(closeDialog);
  const summary = target.closest("details.share > summary");
  // Share: its module (the system's sheet, else the link copied) loads on the first tap.
  if (summary && (navigator.share || navigator.clipboard)) return take(() => import(conf.share).then((module) => module.share(summary), () => (summary.parentElement.open = true)));
  const link = target.closest("a[href]");
  if (!link || link.target || link.hasAttribute("download")) return;
  if (link.dataset.play && audio) return take(() => play(link));
  const url = new URL(link.href, location);
  if (url.origin !== location.origin || !isPagePath(url.pathname)) return;
  if (url.hash && url.pathname + url.search === location.pathname + location.search) return;
  take(() => visit(url.href, { header: headerOf(link) }));
});

// A link that is a button (a play) answers Space as a button does, instead of scrolling the page.
doc.addEventListener("keydown", (event) => {
  if (event.key === " " && event.target.matches?.("a[role=button]")) {
    event.preventDefault();
    event.target.click();
  }
});

doc.addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || form.target) return;
  const action = new URL(form.action, location);
  if (action.origin !== location.origin) return;
  if (form.method === "get" && isPagePath(action.pathname)) {
    event.preventDefault();
    const query = new URLSearchParams(new FormData(form, event.submitter));
    visit(action.pathname + "?" + query.toString());
    return;
  }
  if (form.method === "post" && action.pathname === conf.commandPath) {
    event.preventDefault();
    submitCommand(form, event.submitter);
  }
});

addEventListener("popstate", (event) => {
  if (!isPagePath(location.pathname)) return;
  visit(location.href, { push: false, scroll: event.state?.scroll || 0 });
});

let saving = 0;
addEventListener("scroll", () => {
  clearTimeout(saving);
  saving = setTimeout(() => { if (!loading) saveScroll(); }, 200);
}, { passive: true });

// What the shared module asks of this one: answers on their way, dialogs, a refresh held back
// while a dialog is open (what it asks may be half typed; the page follows once it closes).
Object.assign(site, {
  busy: () => pending > 0 || !!loading,
  holds: () => !!dialogs?.holds(),
  openDialog, closeDialog,
});

// Suggestions under the search box, or a page's field that asks for them: their module loads the
// first time one is focused.
doc.addEventListener("focusin", ({ target }) => {
  if (target.matches?.("input[data-suggest]")) import(target.dataset.suggest).then((module) => module.attach(target)).catch(() => {});
});

if ("scrollRestoration" in history) history.scrollRestoration = "manual";
history.replaceState({ scroll: scrollY, ...history.state }, "", withoutNotice(location.href));
