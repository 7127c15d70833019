/* ramsli web, the table page: the keys (1–9 a card or a choice, I in, O out, G, P, L last trick,
   S score sheet, arrows between your cards, Esc closes the dialog or the finished trick; the query
   keys H, T, K, W, C, R read into the live region, table-announce.js). */
import { S } from "./table-state.js";
import { openOverlay, closeOverlay } from "./table-dialogs.js";
import { releaseHold } from "./table-trick.js";
import { toggleChat } from "./table-chat.js";
import { query } from "./table-announce.js";

document.addEventListener("keydown", (ev) => {
  const k = ev.key.toLowerCase();
  // Esc closes the window open, even from one of its own fields (the settings' checkboxes)
  if (k === "escape") {
    if (S.overlay) closeOverlay();
    else if (S.chatOpen) toggleChat(false);
    else if (S.hold) releaseHold();
    return;
  }
  if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (S.overlay) return;
  if (/^[1-9]$/.test(k)) {
    const cards = document.querySelectorAll(".hand-card");
    const b = cards[+k - 1];
    const act = document.querySelector(`.actions [aria-keyshortcuts="${k}"]`);
    if (act) {
      act.click();
      ev.preventDefault();
    } else if (b) {
      b.focus();
      b.click();
      ev.preventDefault();
    }
    return;
  }
  const btn = document.querySelector(`.actions [aria-keyshortcuts="${k}"]`);
  if (btn) {
    btn.click();
    ev.preventDefault();
    return;
  }
  if (query(k)) {
    ev.preventDefault();
    return;
  }
  if (k === "l") {
    if (S.view && S.view.hand && S.view.hand.last_trick) openOverlay("last");
    return;
  }
  if (k === "s") {
    openOverlay("sheet");
    return;
  }
  if (k === "arrowleft" || k === "arrowright") {
    const cards = Array.from(document.querySelectorAll(".hand-card"));
    const i = cards.indexOf(document.activeElement);
    const j = i < 0 ? 0 : (i + (k === "arrowright" ? 1 : cards.length - 1)) % cards.length;
    if (cards[j]) {
      cards[j].focus();
      ev.preventDefault();
    }
  }
});
