/* ramsli web, the table page: the seats around the felt (name, stack, declaration, tricks, tags, the
   chat bubble, the backs of the cards a seat holds) and a spectator taking a bot's seat. */
import { S, P, me, counters, isPhone } from "./table-state.js";
import { countdown } from "./table-timers.js";

const R = window.R;
const { _, ngettext, el } = R;

/* where a seat sits (x, y in % of the felt) and where its card of the trick lies (px, py); this seat at the bottom */
export function seatPos(sid) {
  const view = S.view;
  const n = view.seats.length;
  const i = view.seats.findIndex((s) => s.seat === sid);
  const m = me() ? view.seats.findIndex((s) => s.seat === me()) : 0;
  const rel = (i - m + n) % n;
  const th = (rel * 2 * Math.PI) / n;
  const phone = isPhone();
  const pr = phone ? 12 : 21,
    pq = phone ? 17 : 20; // on a phone the trick stays clear of the seats, six of them too
  return {
    x: 50 - 44 * Math.sin(th),
    y: 50 + 41 * Math.cos(th),
    px: 50 - pr * Math.sin(th),
    py: 50 + pq * Math.cos(th), // your own card below the pot (the middle sits above the felt's centre)
    rel: rel,
  };
}

export function cardFace(code, extra) {
  const d = el("div", Object.assign({ class: "card", role: "img", "aria-label": R.cardName(code) }, extra || {}));
  d.append(R.cardSVG(code));
  return d;
}
function pgDealer() {
  return R.pgettext("dealer button", "D");
}

/* one seat's box on the felt */
export function seatBox(s) {
  const view = S.view;
  const h = view.hand;
  const pos = seatPos(s.seat);
  const turn = view.to_act === s.seat;
  const isMe = s.seat === me();
  const state = s.in === true ? _("in") : s.in === false ? _("out") : "";
  const bits = [];
  // the seat as it is shown: its person's name, the waiting bot's level, or "open seat" (never "p2")
  const shownName =
    s.name || (!s.name && s.kind === "bot" ? _("bot ({level})", { level: R.botLevel(s.bot) }) : _("open seat"));
  const label = [shownName];
  // a named bot says what it is in words too: the tag on the felt is hidden on a phone, and read by nobody
  if (s.name && s.kind === "bot") label.push(_("bot ({level})", { level: R.botLevel(s.bot) }));
  if (isMe) label.push(_("you"));
  label.push(counters(s.stack));
  if (state) label.push(state);
  if (h) label.push(ngettext("{n} trick", "{n} tricks", s.tricks));
  if (s.dealer) label.push(_("dealer"));
  if (turn) label.push(_("to act"));
  if (s.away) label.push(_("away"));
  if (!s.seated) label.push(_("not seated"));
  const box = el("div", {
    class:
      `seat rel-${pos.rel}` +
      (turn ? " turn" : "") +
      (isMe ? " me" : "") +
      (s.in === false ? " folded" : "") +
      (!s.seated ? " gone" : ""),
    style: `left:${pos.x}%;top:${pos.y}%`,
    role: "group",
    "aria-label": label.join(", "),
    "data-seat": s.seat,
    "data-stack": String(s.stack),
  });
  const waitingBot = !s.name && s.kind === "bot";
  const head = el(
    "div",
    { class: "seat-head" },
    turn ? el("span", { class: "turn-mark", "aria-hidden": "true", text: "▶" }) : "",
    el("span", {
      class: "seat-name",
      title: waitingBot ? _("bot ({level})", { level: R.botLevel(s.bot) }) : null,
      text: s.name || (waitingBot ? R.botShort(s.bot) : _("open seat")),
    }),
    s.dealer ? el("span", { class: "dealer-button", title: _("dealer"), "aria-hidden": "true", text: pgDealer() }) : "",
  );
  bits.push(head);
  const line = el(
    "div",
    { class: "seat-line" },
    el("span", { class: "stack", title: _("stack"), text: "● " + s.stack }),
    state ? el("span", { class: "decl " + (s.in ? "is-in" : "is-out"), text: state }) : "",
    h && (h.phase === "play" || h.phase === "over") && s.in !== false
      ? el("span", { class: "tricks", title: _("tricks"), text: "✦ " + s.tricks })
      : "",
  );
  bits.push(line);
  const tags = [];
  if (turn) tags.push(el("span", { class: "tag turn-tag", text: isMe ? _("your turn") : _("to act") }));
  if (turn && view.timer && view.timer.seat === s.seat && !S.hold) {
    // not over a finished trick still shown; at most the table's seconds (the timer starts after the trick)
    const most = Math.ceil(view.timer.seconds || view.timer.left);
    tags.push(countdown(view.timer.left, (n) => "⏱ " + _("{n} s", { n: Math.min(n, most) }), "tag timer-tag"));
  }
  if (s.away || s.left)
    tags.push(el("span", { class: "tag", text: s.bot_playing ? _("away, a bot plays") : _("away") }));
  if (s.bot_in !== null && s.bot_in !== undefined)
    tags.push(countdown(s.bot_in, (n) => _("bot in {n} s", { n: n }), "tag away-tag"));
  if (s.kind === "bot" && !waitingBot)
    tags.push(
      el("span", {
        class: "tag bot-tag",
        title: _("bot ({level})", { level: R.botLevel(s.bot) }),
        text: R.botShort(s.bot),
      }),
    );
  if (s.external) tags.push(el("span", { class: "tag muted bot-tag", text: _("bot (external)") }));
  if (tags.length) bits.push(el("div", { class: "seat-tags" }, tags));
  // a watcher may take a bot's seat at a table open in the lobby only (issue 38.1: P.can_take)
  if (P.role === "spectator" && P.can_take && s.kind === "bot" && s.seated && view.status !== "over" && !s.taken) {
    bits.push(
      el("button", {
        type: "button",
        class: "small take-seat",
        "data-take": s.seat,
        text: _("Take this seat"),
        onclick: (ev) => {
          ev.stopPropagation();
          askTake(s);
        },
      }),
    );
  }
  const bubble = S.bubbles[s.seat];
  if (bubble && bubble.until > Date.now()) bits.push(el("div", { class: "bubble", role: "status", text: bubble.text }));
  if (h && !isMe && s.cards_left > 0 && s.in !== false) {
    const backs = el("div", { class: "backs", "aria-hidden": "true" });
    for (let k = 0; k < s.cards_left; k++) backs.append(R.cardSVG(null));
    bits.push(backs);
  }
  box.append(...bits);
  return box;
}

function askTake(s) {
  const name = (
    window.prompt(_("Your name for seat {seat}", { seat: s.seat.slice(1) }), R.settings.name || "") || ""
  ).trim();
  if (!name) return;
  R.api("POST", `/api/tables/${P.table}/take`, { token: P.token, seat: s.seat, name: name })
    .then((r) => {
      R.settings.name = name;
      R.saveSettings();
      R.rememberTable({
        table: P.table,
        token: r.token,
        seat: r.seat,
        name: name,
        invite: `/t/${P.table}/s/${r.token}`,
        created: Date.now(),
      });
      location.href = R.url(`/t/${P.table}/s/${r.token}?lang=${R.lang}`);
    })
    .catch((e) => R.toast(e.message, "", "bad"));
}
