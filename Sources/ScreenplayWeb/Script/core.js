// Screenplay's shared page module: fetch a page, morph it in node by node, and follow its screen
// live. The listener's pages (site.js) and the layout admin's (editor.js) build on it. It carries
// out what the markup says (data- attributes from the view tree) and decides nothing.
export const doc = document;
export const $ = (selector, root = doc) => root.querySelector(selector);
export const $$ = (selector, root = doc) => Array.from(root.querySelectorAll(selector));
export const slot = (name, root) => $(`[data-slot=${name}]`, root);

// What the module that loads this one adds: whether an answer is on its way (a refresh would only
// race it), whether to hold a refresh back (a dialog open over the page), dialogs, what to do when
// a refresh lands on another page (the admin: signed out meanwhile) and when a stream is ready.
export const site = { busy: () => false, holds: () => false, openDialog: null, closeDialog: () => {}, elsewhere: () => {}, ready: () => {} };

// ---- Announcements ----
export function announce(text) {
  const region = $("#sp-announcer");
  if (!region || !text) return;
  region.textContent = "";
  setTimeout(() => (region.textContent = text), 30);
}

export async function fetchPage(url, init = {}) {
  const response = await fetch(url, { headers: { Accept: "text/html" }, ...init });
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const main = page.getElementById("main");
  if (!main) throw new Error("not a page: " + response.status);
  followListener();
  return { url: response.url, status: response.status, page, main };
}

export const imported = (from) => Array.from(from.childNodes).map((node) => doc.importNode(node, true));
export const withoutNotice = (href) => {
  const url = new URL(href, location);
  url.searchParams.delete("notice");
  return url.pathname + url.search + url.hash;
};
// The same page: path and query, a banner's notice and a fragment aside.
export const samePage = (a, b) => withoutNotice(a).split("#")[0] === withoutNotice(b).split("#")[0];

// A new page's content, title and current link (a dialog page opens as a dialog).
export function show(page, { focus = false, morphing = false } = {}) {
  if (page.main.dataset.page === "dialog" && site.openDialog) return site.openDialog(page);
  site.closeDialog();
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
  // A toast the morph kept (the same words again) shows again, from the start.
  const toast = $("[data-notice=confirmation]", main);
  if (toast) { toast.style.animationName = "none"; void toast.offsetWidth; toast.style.animationName = ""; }
  if (focus && !morphing) main.focus({ preventScroll: true });
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

export async function refresh() {
  // An answer on its way shows the page as it is then; a held refresh comes later.
  if (site.busy() || site.holds()) return;
  try {
    const page = await fetchPage(location.pathname + location.search);
    // An outage: the page shown is still the last one known.
    if (page.status >= 500) return;
    if (samePage(page.url, location.href)) show(page, { morphing: true });
    else site.elsewhere(page);
  } catch {
    // The page shown is still the last one known.
  }
}

// ---- Live: the page follows its screen (event stream, or polled while visible) ----
let stream = null, poll = 0;

export function listen() {
  const { live: url, interval } = $("#main")?.dataset || {};
  clearInterval(poll);
  poll = interval && setInterval(() => doc.hidden || refresh(), interval * 1000);
  if (stream && url && stream.url === new URL(url, location).href) return;
  stream?.close();
  stream = url ? new EventSource(url) : null;
  if (!stream) return;
  const check = (etag) => etag === $("#main").dataset.etag || refresh();
  stream.addEventListener("ready", (event) => {
    site.ready();
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
// Back on a tab whose stream was refused (signed in again in another), or told of a new session
// (`anyway`, even while hidden): try again at once.
export const resume = (anyway) => {
  if ((anyway || !doc.hidden) && stream?.readyState === EventSource.CLOSED) { stream = null; listen(); }
};
doc.addEventListener("visibilitychange", () => resume());
// Back from the bfcache: maybe old. Hidden: no stream held.
window.addEventListener("pageshow", (event) => { if (event.persisted) { refresh(); listen(); } });
window.addEventListener("pagehide", () => { stream?.close(); stream = null; });

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

// ---- What a page's markup asks for ----
export function enhance(root) {
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
  // A field checked as the user types names the module that checks it; other pages never load it.
  for (const input of $$("input[data-check]", root)) import(input.dataset.check).then((module) => module.check(input)).catch(() => {});
  // A screen with client state (v6) names the module that runs it; other pages never load it.
  const state = $("#screen-state", root);
  if (state) import(state.dataset.stateModule).then((module) => module.start(root, state)).catch(() => {});
  // A list the user reorders (v6) names the module that drags it; other pages never load it.
  for (const list of $$("ol[data-reorder]", root)) import(list.dataset.reorder).then((module) => module.attach(list)).catch(() => {});
  // What the server asked to hear about once seen (v6): the reports' module watches it.
  if ($("[data-visible]", root)) report();
}
export const report = () => import(doc.body.dataset.reports).then((module) => module.observe()).catch(() => {});

enhance(doc);
listen();

// For hosts and tests: the page morphed in place.
window.screenplay = { refresh };
