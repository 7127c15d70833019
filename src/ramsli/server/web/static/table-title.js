/* ramsli web, the table page: your turn while the tab is hidden. The title and the icon say so (and a
   system notification, if the person allows it); back in front, both are as before. */
import { statusText } from "./table-bar.js";

const R = window.R;
const { _ } = R;

export const plainTitle = () => _("Ramsli — a card table");
let turnMarked = false;
function setIcon(href) {
  const link = document.querySelector("link[rel=icon]");
  if (link) link.href = href;
}
/* mine: it is this seat's turn (from the latest view) */
export function turnElsewhere(mine) {
  if (mine && document.hidden) {
    turnMarked = true;
    document.title = "▶ " + _("Your turn — Ramsli");
    setIcon(R.url("/static/icon-turn.svg"));
    if (R.settings.notify && window.Notification && Notification.permission === "granted") {
      try {
        new Notification(_("Your turn — Ramsli"), {
          body: statusText(),
          tag: "ramsli-turn",
          icon: R.url("/static/icon-192.png"),
        });
      } catch (e) {
        /* a page without notifications: the title says it */
      }
    }
  } else if (!mine || !document.hidden) {
    if (turnMarked) {
      document.title = plainTitle();
      setIcon(R.url("/static/icon.svg"));
      turnMarked = false;
    }
  }
}
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) turnElsewhere(false);
});
