// Reorderable lists (contract v6): a row's handle drags it (mouse, pen or touch), or moves it one
// place per arrow key; the new order goes to the server as one command, through the page's own
// command form (answered in place, as any command). Loaded only by a page with such a list (the
// list names this module's URL in `data-reorder`); without it, each row's "Move up" and "Move
// down" forms do the same one place at a time.
import { $, $$, announce, doc } from "./core.js";

// The handles show once this module runs (a class on the body, which a refresh leaves alone).
doc.body.classList.add("sp-reorder");

// Handles already listened to: a refresh morphs the page and keeps the elements it can.
const bound = new WeakSet();

export function attach(list) {
  const rows = () => $$(":scope > li", list);
  const order = () => rows().map((row) => row.dataset.key);
  let before = order();
  let sending = 0;
  // The new order in the form of a row's move (its page answers as any command's does).
  const send = () => {
    clearTimeout(sending);
    sending = setTimeout(() => {
      const now = order();
      if (now.join("\n") === before.join("\n")) return;
      const form = $(".reorder-moves form", list);
      if (!form) return;
      form.elements.url.value = list.dataset.reorderUrl;
      form.elements.payload.value = JSON.stringify({ ...JSON.parse(list.dataset.reorderPayload || "{}"), order: now });
      before = now;
      form.requestSubmit();
    }, 500);
  };
  const say = (row) => announce(`${$(".title", row)?.textContent || ""}: ${rows().indexOf(row) + 1} of ${rows().length}`);

  for (const handle of $$(".reorder-handle", list)) {
    if (bound.has(handle)) continue;
    bound.add(handle);
    const row = handle.closest("li");
    handle.addEventListener("keydown", (event) => {
      const by = { ArrowUp: -1, ArrowDown: 1 }[event.key];
      if (!by) return;
      event.preventDefault();
      const sibling = by < 0 ? row.previousElementSibling : row.nextElementSibling;
      if (!sibling) return;
      sibling.insertAdjacentElement(by < 0 ? "beforebegin" : "afterend", row);
      handle.focus();
      say(row);
      send();
    });
    handle.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      handle.setPointerCapture(event.pointerId);
      row.classList.add("dragging");
      const move = (moved) => {
        const over = rows().find((other) => {
          const box = other.getBoundingClientRect();
          return other !== row && moved.clientY > box.top && moved.clientY < box.bottom;
        });
        if (!over) return;
        const below = rows().indexOf(over) > rows().indexOf(row);
        over.insertAdjacentElement(below ? "afterend" : "beforebegin", row);
      };
      const end = () => {
        row.classList.remove("dragging");
        say(row);
        send();
      };
      const done = new AbortController();
      handle.addEventListener("pointermove", move, { signal: done.signal });
      for (const name of ["pointerup", "pointercancel"]) handle.addEventListener(name, () => { done.abort(); end(); }, { signal: done.signal });
    });
  }
}
