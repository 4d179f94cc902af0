// Suggestions under the site's search box, or a page's field that names where they are (v6), as
// the user types (an ARIA combobox): after a pause in typing, the rows of the suggestions page for
// the text so far (the box names it in `data-suggest-from`, the parameter in `data-suggest-param`), each a link as the page drew it, carried header and all. Arrow keys move
// through them, Enter opens the one chosen (Enter with none searches, as before), Escape closes
// them. The site loads this module the first time the box is focused; without it the box is a
// plain search form.
import { $$, announce, doc } from "./core.js";

const pause = 150;

// The inputs attached, each with what puts its list and roles back: a page refreshed in place
// (a live page's morph) drops what the script added, but keeps the input and its listeners.
const attached = new WeakMap();

export function attach(input) {
  if (attached.has(input)) return attached.get(input)();
  const list = doc.createElement("ul");
  Object.assign(list, { id: input.id + "-suggestions", className: "suggestions", hidden: true });
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Suggestions");
  const place = () => {
    if (!list.isConnected) (input.form || input.parentElement).append(list);
    for (const [name, value] of [["role", "combobox"], ["aria-autocomplete", "list"], ["aria-expanded", String(!list.hidden)], ["aria-controls", list.id]]) {
      input.setAttribute(name, value);
    }
  };
  attached.set(input, place);
  place();
  let timer = 0;
  let asked = 0;
  let active = -1;
  const options = () => $$("[role=option]", list);
  const choose = (index) => {
    active = index;
    options().forEach((option, each) => option.setAttribute("aria-selected", String(each === index)));
    if (index < 0) input.removeAttribute("aria-activedescendant");
    else {
      input.setAttribute("aria-activedescendant", options()[index].id);
      options()[index].scrollIntoView({ block: "nearest" });
    }
  };
  const close = () => {
    asked += 1;
    clearTimeout(timer);
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    choose(-1);
  };

  async function ask() {
    const mine = ++asked;
    const text = input.value.trim();
    let rows = [];
    if ([...text].length >= 2) {
      try {
        // The page named may carry a query of its own already.
        const url = new URL(input.dataset.suggestFrom, location);
        url.searchParams.set(input.dataset.suggestParam || input.name, text);
        const response = await fetch(url, { headers: { Accept: "text/html" } });
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        if (response.ok) rows = $$("#main .row a[href]", page);
      } catch {
        rows = [];
      }
    }
    // A later keystroke's answer, or a close meanwhile, wins.
    if (mine !== asked) return;
    // Each option is the row's link itself (an option, not a link inside one: nothing
    // interactive nested), so opening it is the site's own navigation.
    list.replaceChildren(...rows.map((row, index) => {
      const item = doc.createElement("li");
      item.setAttribute("role", "none");
      const option = doc.importNode(row, true);
      Object.assign(option, { id: `${list.id}-${index}`, tabIndex: -1 });
      option.setAttribute("role", "option");
      item.append(option);
      return item;
    }));
    choose(-1);
    list.hidden = !rows.length;
    input.setAttribute("aria-expanded", String(!list.hidden));
    if (rows.length) announce(rows.length === 1 ? "1 suggestion" : `${rows.length} suggestions`);
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(ask, pause);
  });
  input.addEventListener("keydown", (event) => {
    const count = options().length;
    if (event.key === "Escape" && !list.hidden) close();
    else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && !list.hidden && count) {
      const down = event.key === "ArrowDown";
      choose(active < 0 ? (down ? 0 : count - 1) : (active + (down ? 1 : -1) + count) % count);
    } else if (event.key === "ArrowDown" && list.hidden) ask();
    else if (event.key === "Enter" && active >= 0) {
      const option = options()[active];
      close();
      option.click();
    } else return;
    event.preventDefault();
  });
  // Pressing on a suggestion keeps the focus in the box, so its click lands before the list closes.
  list.addEventListener("mousedown", (event) => event.preventDefault());
  list.addEventListener("click", close);
  input.addEventListener("blur", close);
  // What was typed before this module arrived.
  if (input.value.trim()) ask();
}
