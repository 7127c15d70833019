/* ramsli web, an evening on paper (/e/{id}/print, issue 34 item 5): the table lists of a round with
   their seats, and a score sheet per table that plays with real cards (the deal order: hand k and
   its dealer, R3.2 the deal passes to the left), laid out for the printer by evening.css's
   @media print. The server's PDF of the same (/api/evenings/{id}/sheets.pdf) needs no browser. */
import {
  P,
  app,
  api,
  pagePath,
  loadState,
  header,
  fail,
  who,
  person,
  tableName,
  roundName,
  startsText,
  scrollBox,
  standingsTable,
  hasResults,
} from "./evening-common.js";

const R = window.R;
const { _, pgettext, el } = R;

let state = null,
  chosen = null;

function tableList(ev, rnd) {
  return el(
    "section",
    { class: "panel print-block", id: "table-lists", "aria-labelledby": "lists-h" },
    el("h2", { id: "lists-h", text: _("Table lists · {round}", { round: roundName(ev, rnd) }) }),
    el(
      "div",
      { class: "print-lists" },
      (rnd.tables || []).map((t) =>
        el(
          "div",
          { class: "print-list", "data-table": String(t.number) },
          el("h3", { text: tableName(rnd, t) + " · " + (t.mode === "cards" ? _("real cards") : _("online")) }),
          el(
            "ol",
            {},
            (t.seats || []).map((s) =>
              el(
                "li",
                {},
                who(person(ev, s.id)),
                s.id === t.captain ? el("span", { class: "captain-mark", text: _("captain") }) : "",
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/* the sheet a real-card table's captain fills in: a row per hand, the dealer of each, a column per
   player; the rows of the server's sheet (with its check digits) when it gives them */
function scoreSheet(ev, rnd, t) {
  const seats = t.seats || [];
  const names = seats.map((s) => who(person(ev, s.id)));
  const rows = t.sheet && t.sheet.rows ? t.sheet.rows : null;
  const hands = rows ? rows.length : t.hands || 0;
  /* each row's check digit as the server's PDF prints it (ramsli.evening.check.row_check), when the
     server gives them: the sheet's rows, the table's `checks` (hand k at k - 1), or the page's data
     P.checks["round:table"]; the page never computes one */
  const checks = rows ? rows.map((r) => r.check) : t.checks || (P.checks && P.checks[`${rnd.round}:${t.number}`]);
  const checked = !!(checks && checks.length);
  const body = [];
  for (let k = 1; k <= hands; k++) {
    const row = rows ? rows[k - 1] : null;
    const dealer = row && row.dealer !== undefined ? row.dealer : (k - 1) % Math.max(1, seats.length);
    body.push(
      el(
        "tr",
        {},
        el("th", { scope: "row", text: String(row && row.hand ? row.hand : k) }),
        el("td", { class: "name", text: typeof dealer === "number" ? names[dealer] || "" : String(dealer) }),
        names.map(() => el("td", { class: "write" })),
        el("td", { class: "write" }),
        checked ? el("td", { class: "check", text: checks[k - 1] === undefined ? "" : String(checks[k - 1]) }) : "",
      ),
    );
  }
  return el(
    "section",
    {
      class: "panel print-block sheet-page",
      "data-table": String(t.number),
      "aria-label": _("Score sheet of {table}", { table: tableName(rnd, t) }),
    },
    el("h2", { text: _("Score sheet · {table} · {round}", { table: tableName(rnd, t), round: roundName(ev, rnd) }) }),
    el("p", {
      class: "note",
      text:
        ev.name +
        " · " +
        startsText(ev.starts) +
        (t.captain ? " · " + _("captain: {name}", { name: who(person(ev, t.captain)) }) : ""),
    }),
    scrollBox(
      _("Score sheet of {table}", { table: tableName(rnd, t) }),
      el(
        "table",
        { class: "season print-sheet" },
        el("caption", { class: "sr-only", text: _("Score sheet of {table}", { table: tableName(rnd, t) }) }),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col", text: _("Hand") }),
            el("th", { scope: "col", class: "name", text: _("Dealer") }),
            names.map((n) => el("th", { scope: "col", text: n })),
            el("th", { scope: "col", text: _("Pot") }),
            checked ? el("th", { scope: "col", class: "check", text: _("Check") }) : "",
          ),
        ),
        el("tbody", {}, body),
      ),
    ),
    checked
      ? el("p", {
          class: "note print-check-note",
          text: _("Check: the digit the pub ledger shows for this hand — compare it before booking."),
        })
      : "",
    el("p", {
      class: "note",
      text: _(
        "Write each player's counters after the hand. The captain keeps the same hands in the ledger on a phone; its results count like an online table's.",
      ),
    }),
  );
}

function draw() {
  const ev = state;
  document.title = _("Print: {name}", { name: ev.name }) + " — Ramsli";
  const rounds = ev.rounds_played || [];
  const rnd = rounds.find((r) => r.round === chosen) || rounds[rounds.length - 1] || null;
  const chooser = el(
    "select",
    { id: "print-round" },
    rounds.map((r) =>
      el("option", { value: String(r.round), selected: rnd && r.round === rnd.round, text: roundName(ev, r) }),
    ),
  );
  chooser.addEventListener("change", () => {
    chosen = +chooser.value;
    draw();
    document.getElementById("print-round").focus();
  });
  const tools = el(
    "section",
    { class: "panel no-print", id: "print-tools" },
    el(
      "p",
      { class: "row" },
      rounds.length ? el("label", { for: "print-round", text: _("Round") }) : "",
      rounds.length ? chooser : "",
      el("button", {
        type: "button",
        class: "primary",
        id: "print-now",
        onclick: () => window.print(),
        text: _("Print"),
      }),
      el("a", { class: "button", id: "pdf-link", href: R.url(api("/sheets.pdf")), text: _("PDF from the server") }),
      el("a", { class: "button", href: pagePath(""), text: _("The evening's page") }),
    ),
  );
  const parts = [tools];
  if (!rnd)
    parts.push(
      el(
        "section",
        { class: "panel" },
        el("p", {
          class: "note",
          text: _("No round has been drawn yet: the lists appear when the director starts a round."),
        }),
      ),
    );
  else {
    parts.push(tableList(ev, rnd));
    const cards = (rnd.tables || []).filter((t) => t.mode === "cards");
    for (const t of cards) parts.push(scoreSheet(ev, rnd, t));
    if (!cards.length)
      parts.push(
        el("p", {
          class: "panel note no-print",
          text: _("No table of this round plays with real cards: no score sheet to print."),
        }),
      );
  }
  if (hasResults(ev))
    parts.push(
      el(
        "section",
        { class: "panel print-block", id: "print-standings", "aria-labelledby": "print-standings-h" },
        el("h2", {
          id: "print-standings-h",
          text: ev.status === "closed" ? _("Final standings") : pgettext("evening", "Standings"),
        }),
        standingsTable(ev, { labelledby: "print-standings-h", id: "standings" }),
      ),
    );
  app.replaceChildren(header(ev.name), el("main", { class: "club evening print" }, ...parts));
}

export async function printPage() {
  try {
    state = await loadState();
  } catch (e) {
    fail(e);
    return;
  }
  draw();
}
