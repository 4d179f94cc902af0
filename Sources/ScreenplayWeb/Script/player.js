// The listener's player: a queue that keeps playing while pages change, in order or shuffled, with
// the queue shown on demand. Loaded by the first play (site.js starts the audio in the tap itself)
// or at once when a player was kept. The queue's rules are the client core's PlayQueue: shuffling
// never moves the track playing, only what comes after it; turning it off goes back to the listed
// order from the track playing.
import { $, announce, doc, report, slot } from "./core.js";

const player = $("#sp-player");
const audio = $("#sp-audio");
const toggle = $("[data-player=toggle]", player);
const seek = $("[data-player=seek]", player);
const shuffleButton = $("[data-player=shuffle]", player);
const queueButton = $("[data-player=queue]", player);
const panel = $("#sp-queue");
const moreButton = $("[data-player=more]", player);
const menuPanel = $("#sp-track-menu");
// The tracks as listed, the order they play in (indices into them), and where in that order it is.
let tracks = [];
let order = [];
let position = 0;

const pad = (number) => String(number).padStart(2, "0");
const clock = (seconds) => {
  const t = Math.max(0, Math.floor(seconds || 0));
  return (t >= 3600 ? Math.floor(t / 3600) + ":" + pad(Math.floor(t / 60) % 60) : Math.floor(t / 60)) + ":" + pad(t % 60);
};
const shuffled = () => shuffleButton?.getAttribute("aria-pressed") === "true";
const current = () => tracks[order[position]];

// Fisher–Yates, on a copy.
function drawn(list) {
  const copy = list.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

// Shuffle on: what played stays behind, the rest drawn again. Off: the listed order from the
// track playing. `start`: a shuffled start, the track at that index first and every other after.
function setShuffled(on, start) {
  shuffleButton?.setAttribute("aria-pressed", String(on));
  const playing = start ?? order[position];
  if (playing === undefined) return;
  if (start !== undefined && on) [order, position] = [[start, ...drawn(tracks.map((_, i) => i).filter((i) => i !== start))], 0];
  else if (on) order = [...order.slice(0, position + 1), ...drawn(order.slice(position + 1))];
  else [order, position] = [tracks.map((_, i) => i), playing];
  showQueue();
  keep();
}

const trackOf = (data) => ({
  id: data.play, title: data.trackTitle, subtitle: data.trackSubtitle, duration: +data.trackDuration || 0, src: data.trackSrc,
  work: data.trackWork, composer: data.trackComposer, art: data.trackArt, thumb: data.trackThumb, menu: JSON.parse(data.trackMenu || "[]"),
});

export async function play(link) {
  const data = link.dataset;
  const first = trackOf(data);
  [tracks, order, position] = [[first], [0], 0];
  start(first);
  // The tap started the audio before this module arrived: its play event was missed.
  report();
  if (!data.queue) return keep();
  try {
    const response = await fetch(data.queue, { headers: { Accept: "application/json" } });
    const loaded = ((await response.json()).tracks || []).slice(0, 5000).map((track) => ({
      id: String(track.id), title: track.title, subtitle: track.subtitle, duration: track.durationSeconds || 0, src: track.streamURL,
      work: track.work, composer: track.composer, art: track.artwork?.url, thumb: track.artwork?.lowResURL, menu: track.menu || [],
    }));
    const index = loaded.findIndex((track) => track.id === first.id);
    // Another play meanwhile: that one's queue wins.
    if (index >= 0 && tracks[0] === first) {
      [tracks, order, position] = [loaded, loaded.map((_, i) => i), index];
      setShuffled(data.shuffle === "true", data.shuffle === "true" ? index : undefined);
    }
  } catch {
    // The queue is the first track alone.
  }
  showQueue();
  keep();
}

// The queue and where it stopped are kept (as an app keeps its player, v6's app scope): on pause,
// every few seconds of play and when the page goes, so a reload or a later visit resumes there.
let keptAt = 0;
function keep() {
  keptAt = audio.currentTime;
  try {
    localStorage.spPlayer = JSON.stringify({ tracks, order, position, shuffled: shuffled(), at: keptAt });
  } catch {
    // Storage refused (private browsing): nothing is kept.
  }
}

// `at`: resume paused there (a kept player) instead of playing from the start.
function start(track, at) {
  if (!track) return;
  if (audio.src !== new URL(track.src, location).href) audio.src = track.src;
  // What the page's state reads as `player` (v6): the track, and an event at each change.
  audio.dataset.track = track.id;
  audio.dataset.title = track.title;
  if (at) audio.currentTime = at; else audio.play().catch(() => {});
  slot("title", player).textContent = track.title;
  // The composer, the work and the performers; the composer's picture beside them.
  slot("subtitle", player).textContent = [track.composer, track.work, track.subtitle].filter(Boolean).join(" · ");
  Object.assign(slot("art", player), { hidden: !track.thumb, src: track.thumb || "" });
  slot("duration", player).textContent = clock(track.duration);
  seek.max = track.duration || 0;
  player.hidden = false;
  doc.body.classList.add("has-player");
  if ("mediaSession" in navigator && window.MediaMetadata) {
    navigator.mediaSession.metadata = new MediaMetadata({
      title: track.title, artist: track.subtitle || "", album: [track.composer, track.work].filter(Boolean).join(": "),
      artwork: track.art ? [{ src: new URL(track.art, location).href, sizes: "600x600", type: "image/svg+xml" }] : [],
    });
  }
  slot("elapsed", player).textContent = clock(at);
  showQueue();
  showMenu(track);
  // A kept track shown after the page's state started (this module loads after it) is a change too.
  doc.dispatchEvent(new Event("sp:player"));
  if (!at) announce(player.getAttribute("aria-label") + ": " + track.title);
}

function step(by) {
  if (by < 0 && audio.currentTime > 3) { audio.currentTime = 0; return; }
  const next = position + by;
  if (next < 0 || next >= order.length) return;
  position = next;
  start(current());
}

// ---- The visible queue: the track playing, then what comes next; a row plays at once ----
function showQueue() {
  const list = panel && $("ol", panel);
  if (!list || panel.hidden) return;
  // A row that had the focus is rebuilt: the focus goes to the track playing, not the page.
  const focused = panel.contains(doc.activeElement);
  list.replaceChildren(...order.slice(position).map((index, offset) => {
    const track = tracks[index];
    const row = doc.createElement("li");
    const button = Object.assign(doc.createElement("button"), { type: "button", className: "queue-row" });
    button.append(Object.assign(doc.createElement("span"), { className: "queue-title", textContent: track.title }),
      Object.assign(doc.createElement("span"), { className: "queue-subtitle", textContent: [track.composer, track.work].filter(Boolean).join(" · ") }));
    if (offset) button.onclick = () => { step(offset); $("li button", list)?.focus(); };
    else button.setAttribute("aria-current", "true");
    row.append(button);
    return row;
  }));
  if (focused) $("[aria-current]", list)?.focus();
}

// ---- The track's own actions (v6), its "…": links and command forms the site's script answers ----
function showMenu(track) {
  if (!moreButton || !menuPanel) return;
  const items = (track.menu || []).map(menuItem).filter(Boolean);
  moreButton.hidden = !items.length;
  if (!items.length) openMenu(false, false);
  $("ul", menuPanel).replaceChildren(...items.map((item) => {
    const row = doc.createElement("li");
    row.append(item);
    return row;
  }));
}

// A contract menu item as the page would draw it: a navigation a link (this site's pages only),
// a command a form posted through the command path (so its prompt or choice opens as a dialog).
function menuItem({ title, action }) {
  if (action?.type === "navigate") {
    const absolute = /^[a-z][a-z0-9+.-]*:/i.test(action.url);
    const href = new URL(absolute || action.url.startsWith("/") ? action.url : "/" + action.url, location);
    if (href.origin !== location.origin) return null;
    return Object.assign(doc.createElement("a"), { href: href.pathname + href.search, className: "player-menu-item", textContent: title });
  }
  if (action?.type !== "command") return null;
  const form = Object.assign(doc.createElement("form"), { method: "post", action: doc.body.dataset.commandPath });
  for (const [name, value] of [["url", action.url], ["payload", JSON.stringify(action.payload || {})], ["back", ""]]) {
    form.append(Object.assign(doc.createElement("input"), { type: "hidden", name, value }));
  }
  form.append(Object.assign(doc.createElement("button"), { type: "submit", className: "player-menu-item", textContent: title }));
  // Back to the page shown when it is chosen, not the one the track started on (before the
  // site's own submit listener, which sends it).
  form.addEventListener("submit", () => {
    form.elements.back.value = location.pathname + location.search;
    openMenu(false, false);
  });
  return form;
}

// `focus`: where the focus goes (into the menu when it opens, back to its button when it closes).
function openMenu(open, focus = true) {
  if (!moreButton || !menuPanel) return;
  menuPanel.hidden = !open;
  moreButton.setAttribute("aria-expanded", String(open));
  if (open) openQueue(false, false);
  if (focus) (open ? $(".player-menu-item", menuPanel) : moreButton)?.focus();
}

function openQueue(open, focus = true) {
  if (!queueButton || !panel) return;
  panel.hidden = !open;
  queueButton.setAttribute("aria-expanded", String(open));
  showQueue();
  if (open && menuPanel) openMenu(false, false);
  if (focus) (open ? $("[aria-current]", panel) : queueButton)?.focus();
}

// ---- The bar's controls, and the system's (Media Session) ----
const showState = () => {
  const playing = !audio.paused;
  toggle.toggleAttribute("data-playing", playing);
  toggle.setAttribute("aria-label", playing ? toggle.dataset.playingLabel : toggle.dataset.pausedLabel);
  if ("mediaSession" in navigator) navigator.mediaSession.playbackState = playing ? "playing" : "paused";
};
audio.onplay = audio.onpause = () => {
  showState();
  keep();
  report();
  doc.dispatchEvent(new Event("sp:player"));
};
audio.onended = () => step(1);
audio.ontimeupdate = () => {
  slot("elapsed", player).textContent = clock(audio.currentTime);
  if (doc.activeElement !== seek) seek.value = audio.currentTime | 0;
  if (Math.abs(audio.currentTime - keptAt) > 5) keep();
};
audio.ondurationchange = () => {
  if (Number.isFinite(audio.duration)) {
    seek.max = audio.duration | 0;
    slot("duration", player).textContent = clock(audio.duration);
  }
};
toggle.onclick = () => (audio.paused ? audio.play().catch(() => {}) : audio.pause());
for (const [name, by] of [["previous", -1], ["next", 1]]) $(`[data-player=${name}]`, player).onclick = () => step(by);
seek.oninput = () => { audio.currentTime = Number(seek.value); };
if (shuffleButton) shuffleButton.onclick = () => setShuffled(!shuffled());
if (queueButton && panel) {
  queueButton.onclick = () => openQueue(panel.hidden);
  panel.addEventListener("keydown", (event) => { if (event.key === "Escape") openQueue(false); });
}
if (moreButton && menuPanel) {
  moreButton.onclick = () => openMenu(menuPanel.hidden);
  menuPanel.addEventListener("keydown", (event) => { if (event.key === "Escape") openMenu(false); });
  // A link followed closes it; the page changes under the player.
  menuPanel.addEventListener("click", (event) => { if (event.target.closest("a")) openMenu(false, false); });
}
if ("mediaSession" in navigator) {
  const actions = { play: () => audio.play(), pause: () => audio.pause(), previoustrack: () => step(-1), nexttrack: () => step(1),
    seekto: (details) => (audio.currentTime = details.seekTime) };
  for (const [name, handler] of Object.entries(actions)) navigator.mediaSession.setActionHandler(name, handler);
}
showState();

// The kept player, paused where it was. Only this site's streams, and an order that names each
// kept track once: what the storage holds is not trusted further than that.
try {
  // A tap that loaded this module started its own track: that one plays, not the kept one.
  const kept = audio.getAttribute("src") ? {} : JSON.parse(localStorage.spPlayer);
  // Kept before shuffle existed: the queue in its listed order.
  kept.tracks ||= kept.queue;
  const keptOrder = kept.order || kept.tracks.map((_, i) => i);
  const valid = keptOrder.length === kept.tracks.length && new Set(keptOrder).size === keptOrder.length
    && keptOrder.every((i) => Number.isInteger(i) && kept.tracks[i]) && Number.isInteger(kept.position)
    && Number.isFinite(kept.at ?? 0) && kept.tracks.every((t) => new URL(t.src, location).origin === location.origin);
  const track = valid && kept.tracks[keptOrder[kept.position]];
  if (track) {
    [tracks, order, position] = [kept.tracks, keptOrder, kept.position];
    shuffleButton?.setAttribute("aria-pressed", String(!!kept.shuffled));
    start(track, kept.at || 0.01);
    seek.value = kept.at | 0;
  }
} catch {
  // Nothing kept.
}
