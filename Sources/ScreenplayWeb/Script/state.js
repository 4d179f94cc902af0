// Client state (contract v6) in the browser: the page's variables, the bindings its nodes carry
// (data-compute) and the set steps its controls run (data-set), evaluated by the same expression
// module as the shared cases. Loaded only by pages whose screen has state; core.js imports it.
import { compile } from "./expressions.js";

const doc = document;
const KEPT = "screenplay.state.";
const PROPERTY_TYPES = { text: "string", style: "string", visible: "bool", enabled: "bool", selected: "bool", validation: "string" };
const PLAYER = { record: { trackID: "string", playing: "bool", position: "number", title: "string" } };
const STYLES = ["primary", "secondary", "plain"];
let page = null;

// Whether a value read back from storage is of its declared type (as the Swift engine checks).
const fits = (v, t) =>
  t === "bool" ? typeof v === "boolean"
  : t === "int" ? Number.isInteger(v) && Math.abs(v) <= 9007199254740991
  : t === "number" ? typeof v === "number" && Number.isFinite(v)
  : t === "string" ? typeof v === "string"
  : t && t.array ? Array.isArray(v) && v.every((e) => fits(e, t.array))
  : t && t.record ? !!v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === Object.keys(t.record).length
    && Object.keys(t.record).every((k) => Object.hasOwn(v, k) && fits(v[k], t.record[k]))
  : false;

function kept(name) {
  try { return JSON.parse(localStorage.getItem(KEPT + name)); } catch { return null; }
}

function player() {
  const audio = doc.getElementById("sp-audio");
  const track = (audio && audio.dataset.track) || "";
  return { trackID: track, playing: !!track && !audio.paused, position: track ? audio.currentTime || 0 : 0, title: (audio && audio.dataset.title) || "" };
}

// The page's state from its declarations: kept app values, the same screen's values across a
// refresh of it, typed text for fields named like a string variable; then every binding compiled.
export function start(root, data) {
  const declared = JSON.parse(data.textContent);
  const types = { player: PLAYER, platform: "string", now: "int" };
  const values = { player: player(), platform: "web", now: Math.floor(Date.now() / 1000) };
  const same = page && page.screen === data.dataset.screen && page.values;
  for (const [name, variable] of Object.entries(declared)) {
    types[name] = variable.type;
    const app = variable.scope === "app" ? kept(name) : null;
    const before = same && Object.hasOwn(same, name) && JSON.stringify(page.declared[name]?.type) === JSON.stringify(variable.type) ? same[name] : null;
    values[name] = before !== null && fits(before, variable.type) ? before : app !== null && fits(app, variable.type) ? app : variable.initial;
    const field = root.querySelector(`input[name="storage.${CSS.escape(name)}"]`);
    if (field && variable.type === "string" && field.value) values[name] = field.value;
  }
  const bindings = [];
  for (const element of root.querySelectorAll("[data-compute]")) {
    for (const [property, source] of Object.entries(JSON.parse(element.dataset.compute))) {
      try {
        const expression = compile(source, types);
        if (expression.type === PROPERTY_TYPES[property]) bindings.push({ element, property, expression });
      } catch { /* the decoder reported it; the node keeps its static value */ }
    }
  }
  for (const control of root.querySelectorAll("[data-needs-script]")) control.hidden = false;
  page = { screen: data.dataset.screen, data, declared, types, values, bindings, locale: doc.documentElement.lang || "en" };
  apply();
}

// The bindings that read a changed variable (`changed`, a set of names; all of them when it is
// not given) evaluated with the values now; one that stops keeps what the node shows, and a node
// is written only when its value changed (no style work for the rows a change leaves as they were).
function apply(changed) {
  for (const binding of page.bindings) {
    const { element, property, expression } = binding;
    if (changed && ![...changed].some((name) => expression.variables.has(name))) continue;
    let value;
    try { value = expression.evaluate(page.values, page.locale); } catch { continue; }
    if (Object.hasOwn(binding, "last") && binding.last === value) continue;
    binding.last = value;
    if (property === "visible") element.hidden = !value;
    else if (property === "selected") value ? element.setAttribute("aria-current", "true") : element.removeAttribute("aria-current");
    else if (property === "enabled") {
      for (const control of [element, ...element.querySelectorAll("button, input")]) if (control.matches("button, input")) control.disabled = !value;
    } else if (property === "text") {
      const target = element.querySelector(".label, .title, h1, h2, h3, h4, h5, h6") || element;
      if (target.textContent !== value) target.textContent = value;
    } else if (property === "validation") {
      // A field's verdict: said in its live region, held by the browser's own validity, and its
      // submit waits while it is not empty (or while a required text is blank, as fields.js says).
      const input = element.querySelector("input:not([type=hidden])");
      if (!input) continue;
      const note = doc.getElementById(input.id + "-computed");
      if (note) note.textContent = value;
      input.dataset.invalid = value;
      input.setCustomValidity(value);
      input.setAttribute("aria-invalid", value !== "");
      const submit = element.querySelector("button[type=submit]");
      if (submit) submit.disabled = value !== "" || (!!input.dataset.required && !input.value.trim());
    } else if (property === "style") {
      const control = element.matches("button, a") ? element : element.querySelector("button, a");
      if (control) for (const style of STYLES) control.classList.toggle(style, style === value);
      else element.style.color = /^[A-Za-z][A-Za-z0-9]{0,63}$/.test(value) ? `var(--sp-${value}, inherit)` : "";
    }
  }
}

// A control's set steps, in order: each value evaluated with the values of the moment; a step
// that does not check or run stops the rest (what the Swift navigator does), and the page shows
// the steps done before it.
function run(element) {
  const changed = new Set();
  for (const { variable, value } of JSON.parse(element.dataset.set)) {
    const declaration = page.declared[variable];
    if (!declaration) break;
    try {
      const expression = compile(value, page.types);
      const type = declaration.type;
      if (expression.type !== type && !(type === "number" && expression.type === "int")) break;
      page.values[variable] = expression.evaluate(page.values, page.locale);
      changed.add(variable);
    } catch { break; }
    if (declaration.scope === "app") {
      try { localStorage.setItem(KEPT + variable, JSON.stringify(page.values[variable])); } catch { /* private mode: kept for the page */ }
    }
  }
  apply(changed);
}

const live = () => page && page.data.isConnected;

doc.addEventListener("click", (event) => {
  const element = event.target.closest?.("[data-set]");
  if (live() && element && !element.matches("form")) run(element);
}, true);
doc.addEventListener("submit", (event) => {
  if (live() && event.target.matches?.("form[data-set]")) run(event.target);
}, true);
doc.addEventListener("input", (event) => {
  const name = event.target.name?.startsWith("storage.") && event.target.name.slice(8);
  if (!live() || !name || page.declared[name]?.type !== "string") return;
  page.values[name] = event.target.value;
  apply(new Set([name]));
});
doc.addEventListener("sp:player", () => {
  if (!live()) return;
  page.values.player = player();
  apply(new Set(["player"]));
});
setInterval(() => {
  if (!live() || !page.bindings.some((binding) => binding.expression.variables.has("now"))) return;
  page.values.now = Math.floor(Date.now() / 1000);
  apply(new Set(["now"]));
}, 1000);
