// Text fields checked as the user types, loaded only by pages and dialogs that have one (the
// field names this module's URL in `data-check`): the length counter, and a required field's
// message with its form's submit button disabled while the text is blank. The server checks
// every text again; without this module the form posts and the server says what is wrong.
import { $, doc } from "./core.js";

// `typed`: the user changed the text (a field is not blamed for being empty before that).
export function check(input, typed) {
  const hint = doc.getElementById(input.id + "-limit");
  const count = [...input.value].length;
  const over = count - input.dataset.limit;
  if (hint && (count || typed)) {
    hint.textContent = (over > 0 ? input.dataset.limitOver : input.dataset.limitCounter).replace("{count}", count).replace("{over}", over);
    hint.classList.toggle("over", over > 0);
  }
  const required = input.dataset.required;
  if (!required) return;
  const blank = !input.value.trim();
  const message = doc.getElementById(input.id + "-required");
  if (typed) {
    message.textContent = blank ? required : "";
    input.setAttribute("aria-invalid", blank);
  }
  const submit = input.form && $("button[type=submit]", input.form);
  // A verdict the page's state computes (state.js) keeps it disabled too.
  if (submit) submit.disabled = blank || !!input.dataset.invalid;
}

doc.addEventListener("input", (event) => {
  if (event.target.matches?.("input[data-check]")) check(event.target, true);
});
