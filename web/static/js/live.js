// Live updates: follow a game's event stream and hand every new state to the page.

import { t } from "./i18n.js";
import { api } from "./api.js";

/**
 * Subscribe to game *id*'s states; onState(state) gets each one (EventSource reconnects by itself).
 * An element #live, when present, shows whether the stream is connected.
 */
export function follow(id, onState) {
  if (!window.EventSource) return null;
  const badge = document.getElementById("live");
  const show = (ok) => {
    if (!badge) return;
    badge.textContent = ok ? `● ${t("live_ok")}` : t("live_lost");
    badge.classList.toggle("lost", !ok);
  };
  const source = new EventSource(api.eventsUrl(id));
  source.addEventListener("state", (event) => {
    show(true);
    try {
      onState(JSON.parse(event.data));
    } catch {
      /* a malformed event is skipped; the next one carries the whole state again */
    }
  });
  source.addEventListener("open", () => show(true));
  source.addEventListener("error", () => show(false));
  window.addEventListener("pagehide", () => source.close());
  return source;
}
