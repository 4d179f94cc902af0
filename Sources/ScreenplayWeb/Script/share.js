// Share: the system's share sheet where there is one, else the link copied and said so. Loaded
// the first time a page's Share is tapped (the page names this module's URL in `data-share`);
// the tap's activation outlives the load, as the sheet and the clipboard require. Refused or
// unavailable, the disclosure opens and shows the link to copy by hand.
import { announce } from "./core.js";

export async function share(summary) {
  const details = summary.parentElement;
  const url = new URL(details.dataset.shareUrl, location).href;
  try {
    if (navigator.share) return await navigator.share({ title: details.dataset.shareTitle, url });
    await navigator.clipboard.writeText(url);
    announce(summary.dataset.copied = details.dataset.shareCopied);
  } catch (error) {
    if (error.name !== "AbortError") details.open = true;
  }
}
