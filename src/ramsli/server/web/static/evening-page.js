/* ramsli web, the evening's page for everyone (the standing link /e/{id}, issue 34 items 1, 2, 3, 6):
   the evening, who is coming, check in and out, your table once a round starts, the rounds, the
   standings, the seed commitment with the opened seeds and how to check them, the audit trail, the
   QR code of the link. It asks the state again every few seconds, so a new round's seat appears. */
import {
  EID,
  app,
  api,
  pagePath,
  loadState,
  header,
  loginLink,
  fail,
  alertBox,
  showError,
  clearError,
  factsList,
  roundsBlock,
  standingsTable,
  tableName,
  copyLink,
  whoEl,
  who,
  when,
  keepFocus,
  poll,
  currentRound,
  seatNo,
  fieldTables,
} from "./evening-common.js";

const R = window.R;
const { _, ngettext, pgettext, el } = R;

let state = null,
  mine = null; // GET /api/evenings/{id}/me: the reader's current table, or null
/* a duplicate evening's field of one deal, as asked (issue 35, D-21): {round, hand, answer | error} */
const field = { round: null, hand: null, answer: null, error: null };

/* the reader's seat in the round being played: {round, table (the round's table), seat} */
function mySeat(ev) {
  if (!ev.me) return null;
  const rnd = currentRound(ev);
  if (!rnd) return null;
  for (const t of rnd.tables || [])
    for (const s of t.seats || []) if (s.id === ev.me.id) return { rnd: rnd, table: t, seat: seatNo(s.seat) };
  for (const t of rnd.tables || []) if (t.captain === ev.me.id) return { rnd: rnd, table: t, seat: null };
  return null;
}

function checkInBox(ev) {
  const box = el("section", { class: "panel", id: "check-in", "aria-labelledby": "check-in-h" });
  box.append(el("h2", { id: "check-in-h", text: _("Coming?") }), alertBox("check-alert"));
  if (ev.status === "closed") {
    box.append(el("p", { class: "note", text: _("This evening is over.") }));
    return box;
  }
  if (!ev.me) {
    box.append(el("p", { text: _("Log in, or make a player, to check in.") }), loginLink(_("Log in to check in")));
    return box;
  }
  const act = async (method) => {
    clearError("check-alert");
    try {
      await R.api(method, api("/check-in"));
      await refresh();
      const b = document.getElementById(method === "POST" ? "check-out" : "check-in-button");
      if (b) b.focus();
    } catch (e) {
      showError(e, "check-alert");
    }
  };
  if (ev.me.checked_in) {
    const p = (ev.people || []).find((x) => x.id === ev.me.id) || {};
    box.append(
      el("p", { class: "big-line", id: "checked-in", text: _("You are checked in.") }),
      p.from_round > 1 && p.from_round > ev.round
        ? el("p", { class: "note", text: _("You play from round {r}.", { r: p.from_round }) })
        : "",
      el("button", { type: "button", id: "check-out", onclick: () => act("DELETE"), text: _("Check out") }),
    );
  } else {
    box.append(
      el("p", {
        text:
          ev.status === "running"
            ? _("The evening has started: checking in now, you play from the next round.")
            : _("Check in when you are there (or sure to come): the draw seats everyone checked in."),
      }),
      el("button", {
        type: "button",
        class: "primary big",
        id: "check-in-button",
        disabled: !(ev.may && ev.may.check_in),
        onclick: () => act("POST"),
        text: _("Check in"),
      }),
    );
  }
  return box;
}

/* "Your table: Table 3, seat 2 — Go to your table"; for a captain the ledger keeper's link */
function myTableBox(ev) {
  const seat = mySeat(ev);
  if (!seat || !mine || !mine.url || seat.rnd.done) return "";
  const name = tableName(seat.rnd, seat.table);
  const captain = seat.table.mode === "cards" && seat.table.captain === ev.me.id;
  const text =
    seat.seat !== null
      ? _("Your table: {table}, seat {seat}", { table: name, seat: seat.seat })
      : _("Your table: {table}", { table: name });
  return el(
    "section",
    { class: "panel ev-mine", id: "my-table", "aria-labelledby": "my-table-h" },
    el("h2", { id: "my-table-h", text: text }),
    seat.table.mode === "cards"
      ? el("p", {
          class: "note",
          text: captain
            ? _("This table plays with real cards and you are its captain: keep its hands in the ledger.")
            : _("This table plays with real cards; its captain keeps the score."),
        })
      : "",
    el("a", {
      class: "button primary big",
      id: "go-to-table",
      href: mine.url + (mine.url.includes("?") ? "&" : "?") + "lang=" + R.lang,
      text: captain
        ? _("Keep the table's score")
        : seat.table.mode === "cards"
          ? _("Follow the table")
          : _("Go to your table"),
    }),
  );
}

function comingBox(ev) {
  const people = (ev.people || []).filter((p) => p.checked_in && !p.withdrawn);
  const gone = (ev.people || []).filter((p) => p.withdrawn);
  const bots = people.filter((p) => p.kind === "bot").length;
  return el(
    "section",
    { class: "panel", id: "coming", "aria-labelledby": "coming-h" },
    el("h2", { id: "coming-h", text: _("Who is coming") }),
    el("p", {
      class: "note",
      id: "coming-count",
      text:
        ngettext("{n} checked in", "{n} checked in", people.length) +
        (bots ? " · " + ngettext("{n} substitute bot", "{n} substitute bots", bots) : ""),
    }),
    el(
      "ul",
      { class: "plain ev-people", id: "people" },
      people.map((p) =>
        el(
          "li",
          { "data-participant": p.id, class: ev.me && p.id === ev.me.id ? "me" : "" },
          whoEl(p),
          p.from_round > 1
            ? el("span", { class: "muted", text: " · " + _("from round {r}", { r: p.from_round }) })
            : "",
        ),
      ),
      people.length ? "" : el("li", { class: "note", text: _("Nobody has checked in yet.") }),
    ),
    gone.length
      ? el("p", {
          class: "note",
          id: "withdrawn",
          text: _("Withdrawn: {names}", { names: R.listText(gone.map((p) => who(p))) }),
        })
      : "",
  );
}

/* the standing link, its QR code (the server draws it) and the links of the evening */
function linkBox(ev) {
  const url = location.origin + R.url(`/e/${encodeURIComponent(EID)}`);
  return el(
    "section",
    { class: "panel ev-share", id: "share", "aria-labelledby": "share-h" },
    el("h2", { id: "share-h", text: _("The evening's link") }),
    el("p", { class: "note", text: _("One link for everyone: open it to see who is coming and to check in.") }),
    el(
      "div",
      { class: "ev-qr-row" },
      el("img", {
        class: "ev-qr",
        src: R.url(api("/qr.svg")),
        width: "180",
        height: "180",
        alt: _("QR code of the evening's link"),
      }),
      el("div", { class: "ev-links" }, copyLink("evening-link", _("Link to this evening"), url)),
    ),
    el(
      "p",
      { class: "row" },
      el("a", { class: "button", href: pagePath("/tv"), id: "tv-link", text: _("Screen for the TV") }),
      el("a", { class: "button", href: pagePath("/print"), text: _("Table lists and score sheets") }),
      ev.may && ev.may.direct
        ? el("a", {
            class: "button primary",
            href: pagePath("/director"),
            id: "director-link",
            text: _("Director's page"),
          })
        : "",
    ),
  );
}

/* the seed commitment, the opened seeds, and how anyone checks the draw (item 3) */
function fairBox(ev) {
  const seeds = Object.entries(ev.seeds || {}).sort((a, b) => +a[0] - +b[0]);
  return el(
    "section",
    { class: "panel", id: "fair", "aria-labelledby": "fair-h" },
    el("h2", { id: "fair-h", text: _("A draw anyone can check") }),
    el("p", {
      text: _(
        "The server chose the evening's secret seeds when the evening was made and shows their SHA-256 commitment below. Each round's draw is a fixed function of its seed, the round and the sorted list of who is checked in; the seed is opened after the draw. Hashing an opened seed as many times as its round number gives the commitment.",
      ),
    }),
    el(
      "p",
      {},
      el("strong", { text: _("Commitment (SHA-256)") }),
      el("br"),
      el("code", { class: "hex", id: "commitment", text: ev.commitment || "" }),
    ),
    seeds.length
      ? el(
          "ul",
          { class: "plain", id: "seeds" },
          seeds.map(([r, s]) =>
            el(
              "li",
              {},
              el("strong", { text: _("Seed of round {r}", { r: r }) }),
              el("br"),
              el("code", { class: "hex", text: s }),
            ),
          ),
        )
      : el("p", { class: "note", text: _("No seed is opened yet: the first opens when round 1 is drawn.") }),
    el("h3", { text: _("How to check") }),
    el(
      "ol",
      { class: "ev-howto" },
      el(
        "li",
        {},
        el("a", {
          href: R.url(api("/download.json")),
          download: "evening.json",
          id: "download",
          text: _("Download the evening (it holds no card and no secret)."),
        }),
      ),
      el(
        "li",
        {},
        ...withCode(
          _("Run {command} on any computer with Python and ramsli (free software)."),
          "ramsli verify evening.json",
        ),
      ),
      el("li", {
        text: _(
          "It recomputes every draw from the opened seeds and every standing from the results, and says what does not match.",
        ),
      }),
    ),
  );
}

/* a translated sentence with a command in it: the "{command}" of the text becomes a <code> */
function withCode(text, command) {
  const [before, after] = text.split("{command}");
  return after === undefined
    ? [text, " ", el("code", { text: command })]
    : [before, el("code", { text: command }), after];
}

function auditBox(ev) {
  const items = (ev.audit || []).slice().reverse();
  return el(
    "section",
    { class: "panel", id: "audit", "aria-labelledby": "audit-h" },
    el("h2", { id: "audit-h", text: _("What happened") }),
    items.length
      ? el(
          "ol",
          { class: "plain ev-audit", id: "audit-list", reversed: true },
          items.map((a) =>
            el(
              "li",
              { "data-seq": String(a.seq) },
              el("time", { class: "muted", text: when(a.at) }),
              " ",
              el("span", { text: a.text || a.kind }),
            ),
          ),
        )
      : el("p", { class: "note", text: _("Nothing yet.") }),
  );
}

/* ask the field of deal `hand` of round `round`: refused (deal_not_played) until one's own table
   has played it; the refusal's words are the server's, in the reader's language */
async function askField(round, hand) {
  Object.assign(field, { round: round, hand: hand, answer: null, error: null });
  try {
    field.answer = await R.api("GET", api(`/deals/${round}/${hand}`));
  } catch (e) {
    field.error = e;
  }
  draw();
}

/* a duplicate evening's deals: choose a round and a deal, see how every table did on it */
function fieldBox(ev) {
  if (ev.format !== "duplicate" || !(ev.rounds_played || []).length) return "";
  const last = ev.rounds_played[ev.rounds_played.length - 1];
  /* no max: a deal the round does not have is the server's refusal, said in the reader's language */
  const num = (id, value) =>
    el("input", { type: "number", id: id, min: "1", value: String(value), inputmode: "numeric" });
  const roundIn = num("field-round", field.round || last.round);
  const handIn = num("field-hand", field.hand || 1);
  const form = el(
    "form",
    { class: "row", id: "field-form" },
    el("label", { for: "field-round", text: _("Round") }),
    roundIn,
    el("label", { for: "field-hand", text: _("Deal") }),
    handIn,
    el("button", { type: "submit", class: "button", text: _("How did the others do?") }),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    askField(Number(roundIn.value), Number(handIn.value));
  });
  let out = "";
  if (field.error)
    out = el("p", { class: "note ev-warn", id: "field-refused", role: "status", text: field.error.message || "" });
  else if (field.answer) out = fieldTables(field.answer);
  return el(
    "section",
    { class: "panel", id: "field", "aria-labelledby": "field-h" },
    el("h2", { id: "field-h", text: _("The deals at every table") }),
    el("p", {
      class: "note",
      text: _(
        "Every table of a section is dealt the same cards. Once your own table has played a deal, see how the others played it: declarations, tricks and counters, never a card.",
      ),
    }),
    form,
    el("div", { role: "status", "aria-live": "polite" }, out),
  );
}

function draw() {
  const ev = state;
  document.title = ev.name + " — Ramsli";
  const cur = currentRound(ev);
  const roundLine =
    ev.status === "running" && cur
      ? cur.kind === "final"
        ? _("The final round")
        : _("Round {r} of {n}", { r: cur.round, n: ev.rounds })
      : "";
  keepFocus(() =>
    app.replaceChildren(
      header(ev.name),
      el(
        "main",
        { class: "club evening", "data-status": ev.status, "data-round": String(ev.round || 0) },
        el(
          "section",
          { class: "panel", id: "about", "aria-labelledby": "about-h" },
          el("h2", {
            id: "about-h",
            text: roundLine ? _("The evening · {round}", { round: roundLine }) : _("The evening"),
          }),
          factsList(ev),
        ),
        myTableBox(ev),
        checkInBox(ev),
        comingBox(ev),
        el(
          "section",
          { class: "panel", id: "standings-panel", "aria-labelledby": "standings-h" },
          el("h2", {
            id: "standings-h",
            text: ev.status === "closed" ? _("Final standings") : pgettext("evening", "Standings"),
          }),
          standingsTable(ev, { labelledby: "standings-h" }),
          el("p", {
            class: "note",
            hidden: ev.format === "duplicate",
            text: _(
              "A table's first scores 100, its last 0, everyone else in between by place (the same at every table size); ties are broken by net counters against the table's mean, then first places, then the lot.",
            ),
          }),
        ),
        fieldBox(ev),
        el(
          "section",
          { class: "panel", id: "rounds", "aria-labelledby": "rounds-h" },
          el("h2", { id: "rounds-h", text: _("Rounds") }),
          roundsBlock(ev),
        ),
        linkBox(ev),
        fairBox(ev),
        auditBox(ev),
      ),
    ),
  );
}

async function loadMine(ev) {
  if (!ev.me || !mySeat(ev)) return null;
  try {
    return await R.api("GET", api("/me"));
  } catch (e) {
    return null;
  }
}

async function refresh() {
  const ev = await loadState();
  const me = await loadMine(ev);
  const changed = JSON.stringify([ev, me]) !== JSON.stringify([state, mine]);
  state = ev;
  mine = me;
  if (changed) draw();
}

export async function eveningPage() {
  try {
    state = await loadState();
  } catch (e) {
    fail(e);
    return;
  }
  mine = await loadMine(state);
  draw();
  const deal = /^(\d{1,3})\.(\d{1,3})$/.exec(new URLSearchParams(location.search).get("deal") || "");
  if (deal && state.format === "duplicate") await askField(Number(deal[1]), Number(deal[2])); // from the table page
  const p = poll(
    5,
    async () => {
      const ev = await loadState();
      return { ev: ev, me: await loadMine(ev) };
    },
    (d, changed) => {
      if (!changed) return;
      state = d.ev;
      mine = d.me;
      draw();
    },
  );
  setTimeout(p.start, 5000);
}
