/* ramsli web: the card table of one seat (or a spectator), an ES module that joins the page's
   modules (table-*.js, one job each) and draws the table.
   Everything shown comes from the server's latest `view` (docs/protocol.md); legality comes from `legal`,
   refusals (and their reasons) from the server's `error` messages. Nothing here decides a rule. */
import { S, P, app, me, isPhone, setRender } from "./table-state.js";
import { connect, listen, closedBanner } from "./table-connection.js";
import { onView } from "./table-ctrl.js";
import { onChat, onChatLog, drawChat } from "./table-chat.js";
import { notices } from "./table-timers.js";
import { plainTitle } from "./table-title.js";
import { dealMark } from "./table-deal.js";
import { seatBox } from "./table-seats.js";
import { centre, trickOnTable, trickCaption, releaseHold, moveCards } from "./table-trick.js";
import { handRow, actionButtons } from "./table-hand.js";
import { topBar, statusText, waitingPanel } from "./table-bar.js";
import { dialogs, finalCard } from "./table-dialogs.js";
import { sitForm } from "./table-sit.js";
import { eveningBar } from "./table-evening.js";
import "./table-keyboard.js";
import { say } from "./table-announce.js";

const R = window.R;
const { _, el } = R;
R.applySettings();
// one live region on this page (table-announce.js): a message shown in the toast is said there
const toastEl = document.getElementById("toast");
if (toastEl) {
  toastEl.removeAttribute("aria-live");
  toastEl.removeAttribute("role");
}
const showToast = R.toast;
R.toast = (text, ...rest) => {
  say(text);
  return showToast(text, ...rest);
};

/* the felt's region: the middle (not on a phone: it is above the felt there), the seats, the trick */
function felt() {
  const box = el("div", {
    class: "felt",
    onclick: () => {
      if (S.hold) releaseHold();
    },
  });
  if (!isPhone()) box.append(centre());
  for (const s of S.view.seats) box.append(seatBox(s));
  trickOnTable(box);
  return box;
}
/* the status line's region: whose turn, or who takes the trick held; the notices about waiting */
function statusRow() {
  const view = S.view;
  const status = el(
    "div",
    {
      class: "status-line" + (view.to_act && view.to_act === me() ? " mine" : ""),
      id: "status", // not a live region: table-announce.js says each change once
    },
    S.hold ? trickCaption() : statusText(),
  );
  const no = S.refusal && S.refusal.until > Date.now() ? S.refusal : null;
  const refusal = no
    ? el(
        "p",
        { class: "notice refusal", id: "refusal" },
        el("span", { class: "refusal-main", text: no.text }),
        no.detail ? el("span", { class: "refusal-detail", text: no.detail }) : "",
      )
    : "";
  // what a bot did for you (turn timer, away), until your own next move (issue 36.3)
  const note = S.botNote ? el("p", { class: "notice bot-note", id: "bot-note", text: S.botNote }) : "";
  return el("div", { class: "status-row" }, status, refusal, note, notices());
}

/* draws the whole table from S.view: each region by its own module */
function render() {
  const view = S.view;
  if (!view) return;
  let focusedCard =
    document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.card || document.activeElement.dataset.action || document.activeElement.id
      : null;
  // a card played leaves its place: focus stays in your cards, at the same place
  const cardsBefore = Array.from(document.querySelectorAll(".hand-card"));
  const cardAt = cardsBefore.indexOf(document.activeElement);
  // a dialog gives the focus back where it was when it opened (by key, by click, or on its own)
  const wasOverlay = S.shownOverlay;
  const h = view.hand;
  const parts = [
    topBar(),
    eveningBar(),
    el("div", { id: "banner", class: "banner", hidden: true }),
    el("div", { id: "conn", class: "banner", hidden: true }),
  ];
  // which dialog: a finished hand's summary comes first
  if (S.pendingSummary && !S.hold && (!S.overlay || (S.overlay === "standings" && view.status === "over")))
    S.overlay = "summary";
  if (S.overlay === "summary" && !S.pendingSummary) S.overlay = null;
  const phone = isPhone();
  parts.push(
    el(
      "main",
      { class: "table-main" },
      finalCard(),
      phone ? el("div", { class: "centre-strip" }, centre()) : "",
      el("div", { class: "felt-wrap" }, felt()),
      statusRow(),
      dealMark(),
      view.status === "waiting" ? waitingPanel() : "",
      actionButtons(),
      handRow(),
    ),
  );
  S.shownOverlay = S.overlay;
  if (S.overlay && !wasOverlay) S.returnFocus = focusedCard;
  if (!S.overlay && wasOverlay) {
    focusedCard = S.returnFocus;
    S.returnFocus = null;
  }
  const dialog = dialogs();
  if (dialog && !S.closedFor) parts.push(dialog); // a replaced tab shows no dialog over the greyed table
  // a dialog drawn again keeps the place it was scrolled to; a dialog that opens shows its top
  const shownDialog = document.querySelector(".dialog");
  const dialogTop = shownDialog && S.overlay && S.overlay === wasOverlay ? shownDialog.scrollTop : 0;
  const onHeading = !!shownDialog && document.activeElement === shownDialog.querySelector("h2");
  const before = S.prevRects;
  app.replaceChildren(...parts);
  if (!document.getElementById("chat")) drawChat();
  S.prevRects = moveCards(before);
  // a table wider than the dialog scrolls sideways; say so only when it does
  for (const box of document.querySelectorAll(".dialog .scroll")) {
    const hint = box.nextElementSibling;
    if (hint && hint.classList.contains("scroll-hint")) hint.hidden = box.scrollWidth <= box.clientWidth + 1;
  }
  // an open dialog is modal: the table, its bars and the chat behind it take no focus and no clicks
  const modal = app.querySelector(".overlay");
  for (const part of app.children) part.inert = modal !== null && part !== modal;
  const chat = document.getElementById("chat");
  if (chat) chat.inert = modal !== null;
  document.body.dataset.seq = String(view.seq);
  document.body.dataset.hand = h ? String(h.number) : "";
  document.body.dataset.overlay = S.overlay || "";
  document.body.dataset.summary = S.overlay === "summary" ? String(S.pendingSummary.number) : "";
  if (S.closedFor) {
    const main = document.querySelector(".table-main");
    if (main) {
      main.inert = true;
      main.classList.add("inert");
    }
    closedBanner();
  }
  if (S.overlay) {
    // a dialog that opens (the standings after the last summary, a summary) takes the focus on its
    // heading, at its top: focusing "Close", at the bottom of a long dialog (the standings and the
    // score sheet), scrolled it down; drawn again, it keeps its place, and the focus its heading or
    // else "Close"
    const box = document.querySelector(".dialog");
    if (box && !box.contains(document.activeElement)) {
      const heading = box.querySelector("h2");
      const c = document.getElementById("dialog-close");
      if ((S.overlay !== wasOverlay || onHeading) && heading) heading.focus({ preventScroll: true });
      else if (c) c.focus({ preventScroll: true });
    }
    if (box) box.scrollTop = dialogTop;
  } else if (focusedCard) {
    const again = document.querySelector(
      `[data-card="${focusedCard}"], [data-action="${focusedCard}"], #${CSS.escape(focusedCard)}`,
    );
    const cards = document.querySelectorAll(".hand-card");
    if (again) again.focus();
    else if (cardAt >= 0 && cards.length) cards[Math.min(cardAt, cards.length - 1)].focus();
    else {
      const first = document.querySelector(".hand-card.can-play, .actions button");
      if (first) first.focus();
    }
  } else if (view.to_act === me()) {
    const first = document.querySelector(".actions button, .hand-card.can-play");
    if (first && document.activeElement === document.body) first.focus();
  }
}
setRender(render);
window.matchMedia("(max-width: 700px)").addEventListener("change", () => render());
listen({ view: onView, chat: (m) => onChat(m, true), chat_log: onChatLog });

function start() {
  app.replaceChildren(el("main", { class: "lobby" }, el("p", { class: "panel", text: _("Connecting…") })));
  connect();
}

document.title = plainTitle();
if (P.role === "seat" && !P.taken) sitForm(start);
else {
  if (P.role === "seat")
    R.rememberTable({ table: P.table, token: P.token, seat: P.seat, name: P.name, invite: location.pathname });
  start();
}
