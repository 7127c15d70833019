/* ramsli web, the table page: the dialogs over the table (the last trick, the score sheet, a finished
   hand, the settings, a hand's summary, the standings) and what they offer (play again, leave). */
import { S, P, me, seatName, counters, render } from "./table-state.js";
import { sendChat } from "./table-connection.js";
import { cardFace } from "./table-seats.js";
import { dealOk, summaryDigestProblem } from "./table-deal.js";
import { nextDealCountdown } from "./table-timers.js";
import { eveningOf, eveningNext } from "./table-evening.js";
import { queryHelp } from "./table-announce.js";

const R = window.R;
const { _, ngettext, el } = R;

/* a rule id a tap away, not in the sentence: a small "rule" toggle that shows "Rule R3.7" */
function ruleRef(rule) {
  return el(
    "details",
    { class: "rule-ref" },
    el("summary", { text: _("rule"), "aria-label": _("Which rule?") }),
    el("span", { text: _("Rule {rule}", { rule: rule }) }),
  );
}

export function openOverlay(which) {
  S.overlay = which;
  render();
  const d = document.querySelector(".dialog button, .dialog input, .dialog select");
  if (d) d.focus();
}
export function closeOverlay() {
  const wasSummary = S.overlay === "summary";
  if (wasSummary && S.pendingSummary) {
    S.summarySeen = S.pendingSummary.number;
    S.pendingSummary = null;
    if (S.readySent < S.summarySeen) {
      S.readySent = S.summarySeen;
      sendChat({ type: "ready", hand: S.summarySeen }); // the next deal need not wait for me
    }
  }
  S.overlay = wasSummary && S.view && S.view.status === "over" ? "standings" : null; // the last hand's summary, then the standings
  render();
}

function dialog(title, ...body) {
  return el(
    "div",
    {
      class: "overlay",
      onclick: (e) => {
        if (e.target.classList.contains("overlay")) closeOverlay();
      },
    },
    el(
      "div",
      { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": title },
      el("h2", { text: title, tabindex: "-1" }), // focused when the dialog opens (table.js), at its top
      ...body,
      el(
        "div",
        { class: "row" },
        el("button", { type: "button", class: "primary", id: "dialog-close", onclick: closeOverlay, text: _("Close") }),
      ),
    ),
  );
}

/* the dialog's region: the dialog S.overlay names, or "" */
export function dialogs() {
  const view = S.view,
    h = view.hand,
    overlay = S.overlay;
  const over = view.status === "over" && view.standings;
  if (overlay === "last" && h && h.last_trick)
    return dialog(
      _("Last trick"),
      trickList(h.last_trick),
      el("p", { text: _("{name} takes the trick", { name: seatName(h.last_trick.winner) }) }),
    );
  if (overlay === "sheet") return dialog(_("Score sheet"), ...sheetBody());
  if (overlay === "hand" && S.shownHand) return dialog(_("Hand {n}", { n: S.shownHand.number }), ...handBody());
  if (overlay === "settings") return dialog(_("Settings"), ...settingsBody());
  if (overlay === "summary")
    return dialog(
      _("Hand {n} is over", { n: S.pendingSummary.number }),
      ...summaryBody(),
      nextDealLine(),
      over ? sessionOverLine() : "",
      over ? againRow() : "",
    );
  if (overlay === "standings" && view.standings) return dialog(_("Standings"), ...standingsBody(), ...sheetBody(true));
  return "";
}

/* the standings at the session's end: one card at the top of the page, where "Play again" is in
   sight; not while the standings dialog shows them, nor under the last hand's summary (one dialog at
   a time, one "Play again": the summary's) */
export function finalCard() {
  const view = S.view;
  const over = view.status === "over" && view.standings;
  // nor while the last hand's summary is still to come (the finished trick shown first): it comes first
  return over && S.overlay !== "standings" && S.overlay !== "summary" && !S.pendingSummary
    ? el("section", { class: "panel final", id: "final" }, el("h2", { text: _("Standings") }), ...standingsBody())
    : "";
}

function trickList(trick) {
  return el(
    "div",
    { class: "trick-list" },
    trick.plays.map(([sid, code]) =>
      el(
        "figure",
        { class: trick.winner === sid ? "winner" : "" },
        cardFace(code),
        el("figcaption", { text: seatName(sid) + (trick.winner === sid ? " ✦" : "") }),
      ),
    ),
  );
}

function nextDealLine() {
  if (!S.view.next_deal) return "";
  return el("p", { class: "note next-deal" }, nextDealCountdown());
}

function summaryBody(settlement) {
  const view = S.view;
  const st = settlement || S.pendingSummary.settlement;
  const rows = [];
  const names = (list) => R.listText(list.map(seatName));
  if (st.kind === "thrown-in") rows.push(el("p", { text: _("Everyone went out: the pot stays for the next hand.") }));
  else if (st.winners.length)
    rows.push(
      el("p", {
        class: "big-line",
        text: ngettext("{names} takes the pot of {pot}.", "{names} share the pot of {pot}.", st.winners.length, {
          names: names(st.winners),
          pot: counters(st.pot),
        }),
      }),
    );
  if (st.kind === "walkover") rows.push(el("p", { text: _("Walkover: nobody else stayed in.") }));
  if (st.bete.length)
    rows.push(
      el("p", {
        text: ngettext("Bete (no trick): {names} pays.", "Bete (no trick): {names} pay.", st.bete.length, {
          names: names(st.bete),
        }),
      }),
    );
  else if (st.kind === "played") rows.push(el("p", { text: _("Nobody paid bete.") }));
  const idx = (sid) => view.seats.findIndex((x) => x.seat === sid);
  for (const sid of st.bete) {
    const i = idx(sid),
      short = (st.shortfall || [])[i] || 0;
    if (short > 0)
      rows.push(
        el(
          "p",
          { class: "shortfall" },
          _("{name} could pay only {paid}; {short} forgiven.", {
            name: seatName(sid),
            paid: counters(st.paid[i]),
            short: counters(short),
          }),
          ruleRef("R3.3"),
        ),
      );
  }
  // at the session's end nothing carries over: the standings say what is left in the pot (R3.7)
  if (st.carry_over && S.view.status !== "over")
    rows.push(el("p", { text: _("Carried over to the next pot: {n}", { n: counters(st.carry_over) }) }));
  if (st.general_rams)
    rows.push(
      el("p", {
        text: st.general_rams_made
          ? _("{name} made General Rams.", { name: seatName(st.general_rams) })
          : _("{name} failed General Rams.", { name: seatName(st.general_rams) }),
      }),
    );
  for (const t of st.targets || [])
    rows.push(
      el("p", {
        text: t.met
          ? _("{name} made the target of {n}.", { name: seatName(t.seat), n: t.target })
          : _("{name} missed the target of {n}.", { name: seatName(t.seat), n: t.target }),
      }),
    );
  const table = el(
    "table",
    { class: "sheet" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { text: _("Player") }),
        el("th", { text: _("tricks") }),
        el("th", { text: _("won") }),
        el("th", { text: _("paid") }),
        el("th", { text: _("stack") }),
      ),
    ),
  );
  const tb = el("tbody");
  view.seats.forEach((s, i) => {
    tb.append(
      el(
        "tr",
        {},
        el("th", { scope: "row", text: s.name || s.seat }),
        el("td", { text: String(st.tricks[i]) }),
        el("td", { text: st.won[i] ? "+" + st.won[i] : "" }),
        el("td", {
          text:
            (st.paid[i] ? "−" + st.paid[i] : "") +
            ((st.shortfall || [])[i] ? " (" + _("{n} forgiven", { n: st.shortfall[i] }) + ")" : ""),
        }),
        el("td", { class: "num", text: String(st.stacks_after[i]) }),
      ),
    );
  });
  table.append(tb);
  rows.push(
    el("div", { class: "scroll" }, table),
    el("p", { class: "note scroll-hint", hidden: true, text: _("Swipe the table sideways to see every column.") }),
  );
  return rows;
}

function sheetBody(withStandings) {
  const view = S.view;
  if (!view.results.length) return [el("p", { text: _("No hand finished yet.") })];
  const head = el(
    "tr",
    {},
    el("th", { text: _("Hand") }),
    view.seats.map((s) => el("th", { class: "num", title: s.name || s.seat, text: s.name || s.seat })),
    el("th", { class: "num", text: _("pot") }),
  );
  const tb = el("tbody");
  for (const e of view.results) {
    const cells = view.seats.map((s, i) => {
      const win = e.winners.includes(s.seat),
        bete = e.bete.includes(s.seat);
      return el("td", {
        class: "num" + (win ? " win" : "") + (bete ? " bete" : ""),
        text: String(e.stacks_after[i]) + (win ? " ✦" : "") + (bete ? " ✗" : ""),
      });
    });
    // the hand's number opens it; its download and review sit in a row of their own under it, so
    // that the players' columns keep the width (a phone shows five players and the pot)
    tb.append(
      el(
        "tr",
        { class: "hand-row-main" },
        el(
          "th",
          { scope: "row", class: "hand-no", rowspan: "2" },
          el("button", {
            type: "button",
            class: "small link-like",
            "data-hand": String(e.hand),
            onclick: () => openHand(e.hand),
            "aria-label": _("Show hand {n}", { n: e.hand }),
            text: String(e.hand),
          }),
          dealOk(e.hand)
            ? el("span", {
                class: "deal-ok",
                role: "img",
                title: _("Deal checked"),
                "aria-label": _("Deal checked"),
                text: "✓",
              })
            : "",
        ),
        cells,
        el("td", { class: "num", text: String(e.pot_after) }),
      ),
      el(
        "tr",
        { class: "hand-tools" },
        el(
          "td",
          { colspan: String(view.seats.length + 1) },
          el(
            "a",
            {
              href: e.history + "?token=" + encodeURIComponent(P.token),
              class: "dl",
              download: "",
              title: _("Download hand {n} (TOML)", { n: e.hand }),
              "aria-label": _("Download hand {n} (TOML)", { n: e.hand }),
            },
            el("span", { "aria-hidden": "true", text: "⤓" }),
            " ",
            _("Download"),
          ),
          reviewLink(e.hand),
        ),
      ),
    );
  }
  return [
    el(
      "div",
      { class: "scroll", tabindex: "0", "aria-label": _("Score sheet") },
      el("table", { class: "sheet" }, el("thead", {}, head), tb),
    ),
    el("p", { class: "note scroll-hint", hidden: true, text: _("Swipe the table sideways to see every column.") }),
    el("p", { class: "note", text: _("✦ took a share of the pot · ✗ paid bete · numbers are stacks after the hand") }),
    P.role === "seat" && !withStandings
      ? el(
          "p",
          {},
          el("a", {
            href: `/t/${P.table}/review?token=${encodeURIComponent(P.token)}&lang=${R.lang}`,
            target: "_blank",
            id: "review-session-link",
            text: _("The coach on your session"),
          }),
        )
      : "",
  ];
}
/* the coach's review of a finished hand (a new tab: the table stays open); your own seat by default */
function reviewLink(n, words) {
  const label = _("The coach on hand {n}", { n: n });
  return el("a", {
    href: `/t/${P.table}/review?token=${encodeURIComponent(P.token)}&hand=${n}&lang=${R.lang}`,
    target: "_blank",
    class: "review-link",
    "data-review": String(n),
    title: words ? null : label,
    "aria-label": words ? null : label,
    text: words ? label : _("review"),
  });
}

async function openHand(n) {
  try {
    S.shownHand = await R.api("GET", `/api/tables/${P.table}/hands/${n}.json?token=${encodeURIComponent(P.token)}`);
    openOverlay("hand");
  } catch (e) {
    R.toast(e.message, "", "bad");
  }
}
function handBody() {
  const hv = S.shownHand;
  const changed = summaryDigestProblem(hv); // not the digest seen at the deal: said here, loud
  const rows = [
    changed
      ? el("p", {
          class: "banner deal-warning",
          id: "hand-digest-warning",
          role: "alert",
          text: _(
            "Warning: this summary of hand {hand} does not show the deal committed before the first declaration: {reason}. Download the hand history and check it with ramsli verify.",
            { hand: hv.number, reason: changed },
          ),
        })
      : "",
    el("p", {
      text: _("Dealer: {name} · turn-up {card}", { name: seatName(hv.dealer), card: R.cardName(hv.turn_up) }),
    }),
  ];
  if (hv.your_cards.length)
    rows.push(
      el("h3", { text: _("Your cards") }),
      el(
        "div",
        { class: "trick-list" },
        R.sortHand(hv.your_cards, hv.trump).map((c) => cardFace(c)),
      ),
    );
  const decl = hv.declarations.map(([sid, d]) => seatName(sid) + " " + (d === "in" ? _("in") : _("out")));
  if (decl.length) rows.push(el("p", { text: decl.join(" · ") }));
  hv.tricks.forEach((t, k) => rows.push(el("h3", { text: _("Trick {n}", { n: k + 1 }) }), trickList(t)));
  rows.push(el("h3", { text: _("Result") }), ...summaryBody(hv.settlement));
  rows.push(
    el(
      "p",
      {},
      el("a", {
        href: hv.history + "?token=" + encodeURIComponent(P.token),
        download: "",
        text: _("Download hand {n} (TOML)", { n: hv.number }),
      }),
      " · ",
      reviewLink(hv.number, true),
    ),
  );
  return rows;
}

/* under the last hand's summary: the session is over, why, and the standings a tap away */
function sessionOverLine() {
  const why = endReason(S.view);
  return el(
    "p",
    { class: "session-over" },
    why ? _("The session is over: {reason}.", { reason: why }) : _("The session is over."),
    " ",
    el("button", { type: "button", class: "small", onclick: closeOverlay, text: _("Standings") }),
  );
}

function endReason(view) {
  return (
    {
      bust: _("a player is bust"),
      players: _("only one player is left"),
      "win-at": _("a player reached the target"),
      hands: _("all hands are played"),
      time: _("the time is up"),
    }[view.end_reason] || ""
  );
}

function standingsBody() {
  const view = S.view;
  const reason = endReason(view);
  const ol = el(
    "ol",
    { class: "standings" },
    (view.standings || []).map((s) =>
      el(
        "li",
        { class: s.seat === me() ? "me" : "" },
        el("span", { class: "place", text: String(s.place) + "." }),
        el("span", { class: "who", text: s.name || s.seat }),
        el("span", { class: "num", text: counters(s.stack) }),
      ),
    ),
  );
  const pot = view.pot_left || 0;
  const starter = view.next_table ? _("A new session is ready: the same people, the same rules.") : "";
  return [
    reason ? el("p", { text: _("The session is over: {reason}.", { reason: reason }) }) : "",
    ol,
    pot
      ? el("p", { class: "pot-left" }, _("Left in the pot, won by nobody: {n}.", { n: counters(pot) }), ruleRef("R3.7"))
      : el("p", { class: "pot-left", text: _("The pot is empty.") }),
    starter ? el("p", { class: "note", text: starter }) : "",
    // the session's review at its end (a seat's own only, R7)
    view.status === "over" && P.role === "seat"
      ? el(
          "p",
          {},
          el("a", {
            href: `/t/${P.table}/review?token=${encodeURIComponent(P.token)}&lang=${R.lang}`,
            target: "_blank",
            class: "standings-review",
            text: _("The coach on your session"),
          }),
        )
      : "",
    againRow(),
  ];
}
/* "Play again" and "Back to the lobby": under the standings, and in the last hand's summary at the
   session's end, so that neither has to be closed or scrolled to reach them */
function againRow() {
  if (eveningOf()) return eveningNext(); // an evening's table: where you sit next, not "play again"
  const ch = (S.view && S.view.challenge) || null; // a weekly challenge's deal (issue 35): back to it
  if (ch) {
    const back = ch.club ? `/c/${encodeURIComponent(ch.club)}/challenge` : "/challenge";
    return el(
      "div",
      { class: "row again-row" },
      el("a", { class: "button primary", href: back + "?lang=" + R.lang, text: _("Back to the challenge") }),
    );
  }
  const mineTaken = P.role === "seat" && (S.view.seats.find((x) => x.seat === me()) || {}).taken;
  const again = mineTaken || R.creatorToken(P.table);
  return el(
    "div",
    { class: "row again-row" },
    again
      ? el("button", { type: "button", class: "primary play-again", onclick: playAgain, text: _("Play again") })
      : "",
    el("a", { class: "button", href: "/?lang=" + R.lang, text: _("Back to the lobby") }),
  );
}
async function playAgain(ev) {
  const b = ev.currentTarget;
  b.disabled = true;
  try {
    const creator = R.creatorToken(P.table);
    const r = await R.api("POST", `/api/tables/${P.table}/rematch`, { token: P.token, creator_token: creator || null });
    let link = null;
    if (r.invite) {
      const sat = await R.api("POST", `/api/tables/${r.table}/sit`, { token: r.invite.split("/").pop(), name: r.name });
      link = `/t/${r.table}/s/${sat.token}`;
      R.rememberTable({
        table: r.table,
        token: sat.token,
        seat: sat.seat,
        name: r.name,
        invite: link,
        created: Date.now(),
        preset: S.view.rules.preset,
        creator: r.creator_token || undefined,
        spectate: r.spectate,
        invites: r.seats
          ? r.seats
              .filter((x) => x.seat !== sat.seat)
              .map((x) => ({ seat: x.seat, invite: x.invite, kind: x.kind, bot: x.bot }))
          : undefined,
      });
    } else if (r.creator_token) {
      R.rememberTable({
        table: r.table,
        token: r.creator_token,
        seat: null,
        name: null,
        invite: r.spectate,
        created: Date.now(),
        creator: r.creator_token,
        invites: r.seats.map((x) => ({ seat: x.seat, invite: x.invite, kind: x.kind, bot: x.bot })),
        spectate: r.spectate,
      });
      link = r.spectate;
    }
    if (link) location.href = R.url(link) + "?lang=" + R.lang;
  } catch (e) {
    R.toast(e.message, "", "bad");
    b.disabled = false;
  }
}

function settingsBody() {
  const check = (id, key, text) => {
    const c = el("input", {
      type: "checkbox",
      id: id,
      checked: !!R.settings[key],
      onchange: (e) => {
        R.settings[key] = e.target.checked;
        R.saveSettings();
        R.applySettings();
        render();
      },
    });
    return el("div", { class: "check" }, c, el("label", { for: id, text: text }));
  };
  const pause = el("select", {
    id: "set-pause",
    onchange: (e) => {
      R.settings.trickPause = +e.target.value;
      R.saveSettings();
    },
  });
  for (const [v, t] of [
    [0.8, _("short")],
    [1.6, _("normal")],
    [3, _("long")],
    [30, _("until I tap")],
  ])
    pause.append(el("option", { value: String(v), selected: +R.settings.trickPause === v, text: t }));
  // the creator may change the bots' speed during play (stored with the table)
  const creator = R.creatorToken(P.table);
  const botPace = el("select", {
    id: "set-bot-pace",
    onchange: async (e) => {
      try {
        await R.api("POST", `/api/tables/${P.table}/pace`, {
          creator_token: creator,
          bot_pace_seconds: +e.target.value,
        });
      } catch (err) {
        R.toast(err.message, "", "bad");
      }
    },
  });
  const paceNow = S.view.options.bot_pace_seconds;
  for (const [v, t] of [
    [0.3, _("fast")],
    [0.8, _("normal")],
    [1.6, _("slow")],
  ])
    botPace.append(el("option", { value: String(v), selected: paceNow === v, text: t }));
  if (![0.3, 0.8, 1.6].includes(paceNow))
    botPace.append(
      el("option", { value: String(paceNow), selected: true, text: ngettext("{n} second", "{n} seconds", paceNow) }),
    );
  return [
    check("set-four", "fourColour", _("Four-colour suits (♠ black, ♥ red, ♦ blue, ♣ green)")),
    check("set-german", "german", _("German-suited cards (acorns, leaves, hearts, bells)")),
    check("set-sound", "sound", _("Sound on your turn")),
    notifyCheck(),
    check("set-motion", "reduceMotion", _("Reduce motion")),
    el(
      "div",
      { class: "form-grid" },
      el("label", { for: "set-pause", text: _("A finished trick stays") }),
      pause,
      creator ? el("label", { for: "set-bot-pace", text: _("Bot speed") }) : "",
      creator ? botPace : "",
      el("label", { for: "lang", text: _("Language") }),
      R.langPicker(),
    ),
    el("p", {
      class: "note",
      text: _(
        "Keys: 1–5 play a card (or ← → and Enter), I in, O out, G General Rams, P pass, L last trick, S score sheet, Esc closes.",
      ),
    }),
    el("p", { class: "note", id: "query-keys", text: queryHelp() }),
    canLeave()
      ? el(
          "div",
          { class: "row" },
          el("button", { type: "button", id: "btn-leave", onclick: leaveTable, text: _("Leave the table") }),
        )
      : "",
  ];
}

/* a system notification when it is your turn in another tab, if the person allows it */
function notifyCheck() {
  const c = el("input", {
    type: "checkbox",
    id: "set-notify",
    checked: !!R.settings.notify && window.Notification && Notification.permission === "granted",
    disabled: !window.Notification,
    onchange: async (e) => {
      let on = e.target.checked;
      if (on && Notification.permission !== "granted") on = (await Notification.requestPermission()) === "granted";
      R.settings.notify = on;
      R.saveSettings();
      e.target.checked = on;
    },
  });
  return el(
    "div",
    { class: "check" },
    c,
    el("label", { for: "set-notify", text: _("Notify me when it is my turn and this tab is hidden") }),
  );
}

function canLeave() {
  const mine = S.view.seats.find((x) => x.seat === me());
  return P.role === "seat" && S.view.status === "playing" && mine && mine.taken;
}
function leaveTable() {
  if (
    !window.confirm(
      _("Leave the table? A bot plays your seat until you come back through your link (Your tables, in the lobby)."),
    )
  )
    return;
  sendChat({ type: "leave" });
}
