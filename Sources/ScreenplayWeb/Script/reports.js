// Reports (contract v6): what the server asked to hear about, sent back in batches. A component
// that carries `data-visible` is reported once per page view after at least half of it was on
// screen for a second; a track, once 30 seconds of it were heard (paused time and seeking
// forward do not count; a faster rate counts what was heard). Loaded by the site's module the
// first time a page carries such a component or a track starts; pages that only read never load
// it. Events wait in the browser's storage until the server has them (offline, a closed tab),
// each with an id, so a batch sent twice is stored once.
import { $, $$, doc } from "./core.js";

const limit = 1000;
const load = () => {
  try {
    return JSON.parse(localStorage.spReports || "[]");
  } catch {
    return [];
  }
};
const save = (events) => {
  try {
    localStorage.spReports = JSON.stringify(events.slice(-limit));
  } catch {
    // Storage refused (private browsing): the events live as long as the page.
  }
};
let held = [];
const queue = () => (localStorage.spReports ? load() : held);

function record(kind, key, screen) {
  const id = Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
  const events = queue().concat({ id, kind, key, screen, at: new Date().toISOString() });
  held = events.slice(-limit);
  save(held);
  schedule(events.length >= 20 ? 0 : 10000);
}

// ---- Sending: batches of 100, dropped once answered (or refused for good), else kept ----
let timer = 0;
let wait = 5000;
function schedule(delay) {
  if (timer && delay) return;
  clearTimeout(timer);
  timer = setTimeout(flush, delay);
}
async function flush() {
  timer = 0;
  const batch = queue().slice(0, 100);
  if (!batch.length || !navigator.onLine) return;
  try {
    const response = await fetch("/web/reports", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ events: batch }), keepalive: true,
    });
    // Kept, or never to be kept (not a batch, no reports here): either way out of the queue.
    if (!response.ok && ![400, 404, 413, 415, 422].includes(response.status)) throw new Error(response.status);
    const sent = new Set(batch.map((event) => event.id));
    held = queue().filter((event) => !sent.has(event.id));
    save(held);
    wait = 5000;
    if (held.length) schedule(1);
  } catch {
    schedule(wait = Math.min(wait * 2, 300000));
  }
}
addEventListener("online", () => schedule(1));
addEventListener("pagehide", flush);
doc.addEventListener("visibilitychange", () => doc.hidden && flush());

// ---- Seen: half visible for a second, once per page view (a live refresh is the same view) ----
const screen = () => decodeURI(location.pathname.replace(/^\/(screens\/)?/, "")) || "home";
let view = "";
let seen = new Set();
const timers = new Map();
const watcher = new IntersectionObserver((entries) => {
  for (const { target, intersectionRatio } of entries) {
    const key = target.dataset.visible;
    clearTimeout(timers.get(target));
    timers.delete(target);
    if (intersectionRatio < 0.5 || seen.has(key)) continue;
    timers.set(target, setTimeout(() => {
      timers.delete(target);
      if (seen.has(key) || !target.isConnected) return;
      seen.add(key);
      record("visible", key, screen());
    }, 1000));
  }
}, { threshold: [0, 0.5, 1] });

export function observe() {
  const here = location.pathname + location.search;
  if (here !== view) {
    view = here;
    seen = new Set();
  }
  watcher.disconnect();
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  for (const element of $$("[data-visible]")) watcher.observe(element);
}
observe();

// ---- Heard: 30 seconds of one track ----
const audio = $("#sp-audio");
let track = null;
let heard = 0;
let last = null;
audio?.addEventListener("timeupdate", () => {
  const now = performance.now();
  const position = audio.currentTime;
  // Another track, or this one again from the start: a new listen.
  if (audio.dataset.track !== track || (last && position < 1 && last.position > 5)) {
    track = audio.dataset.track;
    heard = 0;
    last = null;
  }
  if (last && !audio.paused && heard < 30) {
    const step = position - last.position;
    if (step > 0 && step <= ((now - last.at) / 1000) * audio.playbackRate + 1) {
      heard += step;
      if (heard >= 30) record("played", track);
    }
  }
  last = { position, at: now };
});
if (queue().length) schedule(1);
