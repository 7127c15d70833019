/* ramsli web, the table page: countdowns (counted from the view they came in, ticked four times a
   second) and the notices about waiting: an away seat's countdown, the turn timer, the next deal. */
import { S, P, me, seatName } from "./table-state.js";

const R = window.R;
const { _, el } = R;

/* a countdown element: its text is fmt(seconds left), counted from the view it came in */
export function countdown(seconds, fmt, cls) {
  const until = S.viewAt + seconds * 1000;
  const e = el("span", { class: "countdown " + (cls || ""), "data-until": String(until) });
  e._fmt = fmt;
  tickOne(e, performance.now());
  return e;
}
function tickOne(e, now) {
  const left = Math.max(0, Math.ceil((+e.dataset.until - now) / 1000));
  const text = e._fmt(left);
  if (e.textContent !== text) e.textContent = text;
  e.classList.toggle("last-seconds", left <= 5);
}
setInterval(() => {
  const now = performance.now();
  for (const e of document.querySelectorAll(".countdown")) if (e._fmt) tickOne(e, now);
  if (S.refusal && S.refusal.until < Date.now()) {
    S.refusal = null; // a refused move's reason goes after a few seconds
    const r = document.getElementById("refusal");
    if (r) r.remove();
  }
  const bubbles = S.bubbles; // a chat line at its seat goes after a few seconds
  for (const k of Object.keys(bubbles))
    if (bubbles[k].until < Date.now()) {
      delete bubbles[k];
      const b = document.querySelector(`.seat[data-seat="${k}"] .bubble`);
      if (b) b.remove();
    }
}, 250);

/* what everyone sees about waiting: an away seat's countdown, the turn timer, the next deal */
export function notices() {
  const view = S.view;
  const box = el("div", { class: "notices", id: "notices" });
  const creator = R.creatorToken(P.table);
  for (const s of view.seats) {
    if (s.bot_in !== null && s.bot_in !== undefined) {
      const who = s.name || s.seat;
      const row = el(
        "p",
        { class: "notice away-notice", "data-seat": s.seat },
        countdown(s.bot_in, (n) => _("A bot plays for {name} in {n} s", { name: who, n: n })),
      );
      if (creator)
        row.append(
          " ",
          el("button", {
            type: "button",
            class: "small",
            "data-bot-now": s.seat,
            text: _("Let the bot play now"),
            onclick: async () => {
              try {
                await R.api("POST", `/api/tables/${P.table}/bot-now`, { creator_token: creator, seat: s.seat });
              } catch (e) {
                R.toast(e.message, "", "bad");
              }
            },
          }),
        );
      box.append(row);
    } else if (s.left && s.bot_playing) {
      box.append(
        el("p", {
          class: "notice",
          text: _("{name} left the table; a bot plays until they are back.", { name: s.name || s.seat }),
        }),
      );
    }
  }
  // no countdown over a finished trick still on the table: the server starts the timer after it
  // (TRICK_SHOWN_SECONDS), and the page shows it from when the trick is cleared, at most `seconds`
  if (view.timer && !S.hold) {
    const mine = view.timer.seat === me();
    const most = Math.ceil(view.timer.seconds || view.timer.left);
    box.append(
      el(
        "p",
        {
          class: "notice timer-notice" + (mine ? " mine" : ""),
          id: mine ? "my-timer" : "turn-timer",
          role: mine ? "timer" : null,
        },
        countdown(
          view.timer.left,
          (n) =>
            mine
              ? _("{n} s left, then a bot moves for you", { n: Math.min(n, most) })
              : _("{name} has {n} s left", { name: seatName(view.timer.seat), n: Math.min(n, most) }),
          "turn-left",
        ),
      ),
    );
  }
  if (view.next_deal && S.overlay !== "summary") box.append(el("p", { class: "notice" }, nextDealCountdown()));
  return box;
}
/* the next deal's countdown, naming who has not closed the summary yet */
export function nextDealCountdown() {
  const wait = S.view.next_deal.waiting.filter((x) => x !== me()).map(seatName);
  return countdown(S.view.next_deal.in, (n) =>
    wait.length
      ? _("Next hand in {n} s, or when {names} closed the summary", { n: n, names: R.listText(wait) })
      : _("Next hand in {n} s", { n: n }),
  );
}
