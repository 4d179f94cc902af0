// Prompts and choices over the page that asked, as a modal <dialog>: loaded by the site's module
// the first time a command answers with one (the page names this module's URL in
// `data-dialogs`), so a page that only reads never downloads it. Closing it gives the focus back
// to what opened it, and shows the page as it is now if a change arrived meanwhile.
import { $, announce, doc, enhance, imported, refresh } from "./core.js";

let dialog = null;
let opener = null;
let refreshAfter = false;

export function open(page, trigger) {
  if (!dialog) {
    dialog = doc.createElement("dialog");
    dialog.className = "sp-dialog";
    dialog.setAttribute("aria-labelledby", "dialog-title");
    dialog.addEventListener("close", () => {
      dialog.replaceChildren();
      if (opener?.isConnected) opener.focus();
      opener = null;
      if (refreshAfter) { refreshAfter = false; refresh(); }
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

export function close() {
  if (dialog?.open) dialog.close();
}

// Whether a refresh must wait (a dialog is open: what it asks may be half typed); the page
// follows once it closes.
export function holds() {
  return !!dialog?.open && (refreshAfter = true);
}
