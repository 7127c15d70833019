/* ramsli web, the table page: the middle of the felt (turn-up, trump, pot), the trick on the table,
   a finished trick kept until its winner is clear, and cards that move to the trick and to its winner. */
import { S, seatName, render } from "./table-state.js";
import { seatPos, cardFace } from "./table-seats.js";

const R = window.R;
const { _, el } = R;

/* the finished trick goes to its winner, then the table goes on */
export function releaseHold() {
  clearTimeout(S.holdTimer);
  if (!S.hold) return;
  const won = S.hold.trick.winner,
    moving = document.querySelectorAll(".card.played");
  const to = document.querySelector(`.seat[data-seat="${won}"]`);
  S.hold = null;
  if (!R.moves() || !to || !moving.length) {
    render();
    return;
  }
  // the trick travels to its winner, then the table goes on
  const t = to.getBoundingClientRect();
  for (const c of moving) {
    const r = c.getBoundingClientRect();
    c.classList.add("collect");
    c.style.translate = `${t.left + t.width / 2 - (r.left + r.width / 2)}px ${t.top + t.height / 2 - (r.top + r.height / 2)}px`;
  }
  setTimeout(render, 320);
}
/* keeps a finished trick on the table for the player's pause (R.settings.trickPause seconds) */
export function holdTrick(trick, hand) {
  S.hold = { trick: trick, hand: hand };
  clearTimeout(S.holdTimer);
  S.holdTimer = setTimeout(releaseHold, Math.max(300, (R.settings.trickPause || 1.6) * 1000));
}

/* the cards of the trick on the table (or of the finished trick held), into the felt */
export function trickOnTable(felt) {
  const h = S.view.hand,
    hold = S.hold;
  if (!h) return;
  let trick = hold ? hold.trick : h.current;
  if (!hold && h.phase === "over" && h.last_trick && (!h.current || !h.current.plays.length)) trick = null;
  if (!trick) return;
  for (const [sid, code] of trick.plays) {
    const pos = seatPos(sid);
    const win = hold && trick.winner === sid;
    const c = cardFace(code, {
      class: "card played" + (win ? " winner" : ""),
      style: `left:${pos.px}%;top:${pos.py}%`,
      "data-played": `${h.number}:${code}`,
      "data-by": sid,
      "data-card-code": code,
      "aria-label":
        _("{name} played {card}", { name: seatName(sid), card: R.cardName(code) }) +
        (win ? ", " + _("takes the trick") : ""),
    });
    felt.append(c);
  }
}
/* while a finished trick stays on the table, the status line says who takes it (never over the felt) */
export function trickCaption() {
  const trick = S.hold.trick;
  return el(
    "button",
    { class: "trick-caption", type: "button", onclick: releaseHold },
    el("span", { text: _("{name} takes the trick", { name: seatName(trick.winner) }) }),
    el("span", { class: "tap-hint", text: " — " + _("tap or press Esc to go on") }),
  );
}

/* the middle of the table: the stock with the turn-up, the trump, the pot */
export function centre() {
  const h = S.view.hand;
  const box = el("div", { class: "centre" });
  if (!h) {
    box.append(el("p", { class: "centre-note", text: "" }));
    return box;
  }
  const stock = el(
    "div",
    { class: "stock", "aria-label": _("Turn-up: {card}", { card: R.cardName(h.turn_up) }), role: "img" },
    el("div", { class: "card back" }, R.cardSVG(null)),
    el("div", { class: "card turnup" }, R.cardSVG(h.turn_up)),
  );
  box.append(stock);
  const trump = el(
    "div",
    { class: "trump suit-" + h.trump },
    el("span", { class: "label", text: _("Trump") }),
    " ",
    R.settings.german ? R.suitPipSVG(h.trump) : el("span", { class: "suit-sym", text: R.suitSymbol(h.trump) }),
    " ",
    el("span", { class: "suit-name", text: R.suitName(h.trump) }),
  );
  box.append(trump);
  box.append(
    el(
      "div",
      { class: "pot", "aria-label": _("Pot: {n}", { n: h.pot }) },
      el("span", { class: "chips", "aria-hidden": "true" }),
      el("span", { text: _("Pot: {n}", { n: h.pot }) }),
    ),
  );
  if (h.turned_aside && h.turned_aside.length)
    box.append(
      el("div", {
        class: "small muted",
        text: _("turned aside: {cards}", { cards: h.turned_aside.map(R.cardName).join(", ") }),
      }),
    );
  return box;
}

/* cards that move: a card just played travels from its player's seat (or your hand) to the trick;
   before: where seats and cards were in the last render; returns where they are now */
export function moveCards(before) {
  const now = { seats: {}, cards: {}, played: new Set() };
  for (const e of document.querySelectorAll(".seat[data-seat]")) now.seats[e.dataset.seat] = e.getBoundingClientRect();
  for (const e of document.querySelectorAll(".hand-card[data-card]"))
    now.cards[e.dataset.card] = e.getBoundingClientRect();
  for (const e of document.querySelectorAll(".card.played[data-played]")) {
    now.played.add(e.dataset.played);
    if (!before || before.played.has(e.dataset.played) || !R.moves()) continue;
    const from = before.cards[e.dataset.cardCode] || before.seats[e.dataset.by];
    if (!from) continue;
    const to = e.getBoundingClientRect();
    e.style.transition = "none";
    e.style.translate = `${from.left + from.width / 2 - (to.left + to.width / 2)}px ${from.top + from.height / 2 - (to.top + to.height / 2)}px`;
    e.getBoundingClientRect(); // the start, then the way to the trick
    e.style.transition = "";
    e.classList.add("moving");
    e.style.translate = "0px 0px";
  }
  return now;
}
