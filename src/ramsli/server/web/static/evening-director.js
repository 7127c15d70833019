/* ramsli web, the director's page of an evening (/e/{id}/director, issue 34 items 2 and 5): who is
   checked in, substitute bots, withdrawals, re-seats, starting a round (mixed: which tables play
   with real cards), pausing a table, a real-card table's captain, closing. Every action is the
   server's to allow: a refusal is shown as the server says it, in the reader's language, and the
   page then shows the state as it is. Destructive actions ask first. */
import {
  P,
  app,
  api,
  pagePath,
  loadState,
  header,
  fail,
  alertBox,
  showError,
  clearError,
  who,
  whoEl,
  levelName,
  tableName,
  tableStatus,
  statusName,
  currentRound,
  roundsBlock,
  standingsTable,
  keepFocus,
  poll,
  handsLeft,
  person,
  seatNo,
  scrollBox,
} from "./evening-common.js";

const R = window.R;
const { _, ngettext, pgettext, el } = R;

let state = null,
  keep = {}; // table number -> the keeper link of a real-card table of the round (GET .../me, the director's)

/* the state, and the director's keeper links of the round's real-card tables */
async function load() {
  const ev = await loadState();
  keep = {};
  const cur = currentRound(ev);
  if (cur && !cur.done && (cur.tables || []).some((t) => t.mode === "cards")) {
    try {
      for (const k of (await R.api("GET", api("/me"))).keep || []) keep[k.table] = k.url;
    } catch (e) {
      /* no links: the page still directs */
    }
  }
  return ev;
}

/* one director action: POST (or DELETE) to the evening's API, then the state again */
async function act(method, tail, body, focusId) {
  clearError();
  try {
    await R.api(method, api(tail), body);
    R.toast(_("Done."));
  } catch (e) {
    showError(e);
  }
  try {
    state = await load();
    draw();
  } catch (e) {
    showError(e);
  }
  const f = focusId && document.getElementById(focusId);
  if (f) f.focus();
}

/* who takes part in the next round: checked in, not withdrawn */
function comingCount(ev) {
  return (ev.people || []).filter((p) => p.checked_in && !p.withdrawn).length;
}
/* the next round's number and kind, or null when every round is played */
function nextRound(ev) {
  const played = (ev.rounds_played || []).length;
  const total = ev.rounds_total || ev.rounds;
  if (played >= total) return null;
  return { round: played + 1, final: ev.format === "final" && played + 1 > ev.rounds };
}
/* how many tables the next draw makes, as far as the page can tell (the server splits; this only
   offers the checkboxes of a mixed evening): tables of the preset's best size, none under 3 */
function tablesFor(ev, n) {
  const best = ev.best || 5;
  let t = Math.max(1, Math.ceil(n / best));
  while (t > 1 && n / t < 3) t -= 1;
  return t;
}

function roundBox(ev) {
  const cur = currentRound(ev);
  const next = nextRound(ev);
  const playing = cur && !cur.done;
  const box = el(
    "section",
    { class: "panel", id: "round-box", "aria-labelledby": "round-h" },
    el("h2", { id: "round-h", text: _("Rounds") }),
    el("p", {
      id: "round-status",
      text:
        statusName(ev.status) +
        " · " +
        (cur
          ? cur.kind === "final"
            ? _("The final round")
            : _("Round {r} of {n}", { r: cur.round, n: ev.rounds })
          : _("No round has started yet.")),
    }),
  );
  if (ev.status === "closed") return box;
  if (!next) {
    box.append(
      el("p", { class: "note", text: _("Every round is played: close the evening when the last table is done.") }),
    );
    return box;
  }
  const label = next.final ? _("Start the final round") : _("Start round {r}", { r: next.round });
  const n = comingCount(ev);
  const form = el("form", { id: "start-form", class: "form-stack" });
  if (ev.mode === "mixed" && !next.final) {
    const t = tablesFor(ev, n);
    form.append(
      el(
        "fieldset",
        { class: "ev-cards" },
        el("legend", { text: _("Tables that play with real cards") }),
        Array.from({ length: t }, (_x, i) =>
          el(
            "div",
            { class: "check" },
            el("input", { type: "checkbox", id: "cards-" + (i + 1), value: String(i + 1) }),
            el("label", { for: "cards-" + (i + 1), text: _("Table {n}", { n: i + 1 }) }),
          ),
        ),
        el("p", {
          class: "note",
          text: _("The others play online. The draw makes the tables; a table's captain keeps its score."),
        }),
      ),
    );
  } else if (ev.mode === "mixed") {
    form.append(
      el(
        "div",
        { class: "check" },
        el("input", { type: "checkbox", id: "cards-1", value: "1" }),
        el("label", { for: "cards-1", text: _("The final plays with real cards") }),
      ),
    );
  }
  form.append(
    el("p", {
      class: "note",
      text: playing
        ? _("The round being played must end first.")
        : ngettext(
            "{n} is checked in; the server draws the tables from the seed.",
            "{n} are checked in; the server draws the tables from the seed.",
            n,
          ),
    }),
    el("button", { type: "submit", class: "primary big", id: "start-round", disabled: !!playing, text: label }),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!confirm(_("{what} now? The draw cannot be taken back.", { what: label }))) return;
    const body = {};
    if (ev.mode === "mixed")
      body.cards = [...form.querySelectorAll("input[type=checkbox]:checked")].map((c) => +c.value);
    act("POST", "/rounds", body, "start-round");
  });
  box.append(form);
  return box;
}

function peopleBox(ev, levels) {
  const rows = (ev.people || []).map((p) => {
    const status = p.withdrawn
      ? _("withdrawn")
      : p.checked_in
        ? p.from_round > 1
          ? _("checked in, from round {r}", { r: p.from_round })
          : _("checked in")
        : _("not checked in");
    const name = who(p);
    return el(
      "tr",
      { "data-participant": p.id },
      el("td", { class: "name" }, whoEl(p), el("br"), el("small", { class: "muted ev-state", text: status })),
      el(
        "td",
        {},
        p.withdrawn || !p.checked_in
          ? ""
          : el("button", {
              type: "button",
              class: "small withdraw",
              id: "withdraw-" + p.id.replace(/[^\w-]/g, "_"),
              "aria-label": _("Withdraw {name}", { name: name }),
              text: _("Withdraw"),
              onclick: () => {
                if (!confirm(_("Withdraw {name} from the evening? They play no further round.", { name: name })))
                  return;
                act("POST", "/withdraw", { participant: p.id });
              },
            }),
      ),
    );
  });
  const level = el(
    "select",
    { id: "bot-level" },
    (levels || []).map((l) => el("option", { value: l, selected: l === "hard", text: levelName(l) })),
  );
  const sub = el(
    "form",
    { class: "inline", id: "substitute-form" },
    el("label", { for: "bot-level", text: _("Level of the bot") }),
    level,
    el("button", { type: "submit", id: "add-bot", text: _("Add a substitute bot") }),
  );
  sub.addEventListener("submit", (e) => {
    e.preventDefault();
    act("POST", "/substitutes", { level: level.value }, "add-bot");
  });
  return el(
    "section",
    { class: "panel", id: "people-box", "aria-labelledby": "people-h" },
    el("h2", { id: "people-h", text: _("Check-in") }),
    scrollBox(
      _("Who is checked in"),
      el(
        "table",
        { class: "season", id: "checkins" },
        el("caption", { class: "sr-only", text: _("Who is checked in") }),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col", class: "name", text: _("Name") }),
            el("th", { scope: "col", text: _("Actions") }),
          ),
        ),
        el(
          "tbody",
          {},
          rows.length
            ? rows
            : el("tr", {}, el("td", { colspan: "2", class: "note", text: _("Nobody has checked in yet.") })),
        ),
      ),
    ),
    el("h3", { text: _("Substitutes") }),
    el("p", {
      class: "note",
      text: _("A substitute bot fills a seat when the count does not split; it is marked as a bot in every result."),
    }),
    sub,
  );
}

/* the tables of the round being played: pause, resume, captain */
function tablesBox(ev) {
  const cur = currentRound(ev);
  if (!cur || cur.done) return "";
  const controls = (rnd, t) => {
    const row = el("div", { class: "row ev-table-tools" });
    if (t.status !== "done") {
      const paused = t.status === "paused";
      row.append(
        el("button", {
          type: "button",
          class: "small",
          id: `pause-${t.number}`,
          text: paused ? _("Resume") : _("Pause"),
          "aria-label": paused
            ? _("Resume {table}", { table: tableName(rnd, t) })
            : _("Pause {table}", { table: tableName(rnd, t) }),
          onclick: () => act("POST", "/pause", { table: t.number, paused: !paused }, `pause-${t.number}`),
        }),
      );
    }
    if (t.mode === "cards") {
      const sel = el(
        "select",
        { id: `captain-${t.number}` },
        (t.seats || []).map((s) =>
          el("option", { value: s.id, selected: s.id === t.captain, text: who(person(ev, s.id)) }),
        ),
      );
      row.append(
        el("label", { for: `captain-${t.number}`, text: _("Captain") }),
        sel,
        el("button", {
          type: "button",
          class: "small",
          text: _("Set the captain"),
          onclick: () => act("POST", "/captain", { table: t.number, participant: sel.value }, `captain-${t.number}`),
        }),
      );
    }
    if (keep[t.number])
      row.append(
        el("a", {
          href: keep[t.number] + "?lang=" + R.lang,
          class: "keep-link",
          text: _("Keep the score of {table}", { table: tableName(rnd, t) }),
        }),
      );
    return row;
  };
  const playing = (cur.tables || []).filter((t) => t.status !== "done");
  return el(
    "section",
    { class: "panel", id: "tables-box", "aria-labelledby": "tables-h" },
    el("h2", {
      id: "tables-h",
      text: _("Tables of this round: {n} still playing", { n: playing.length }),
    }),
    el(
      "ul",
      { class: "plain", id: "tables-left" },
      playing.map((t) =>
        el("li", {
          text:
            tableName(cur, t) +
            " · " +
            tableStatus(t.status) +
            " · " +
            ngettext("{n} hand left", "{n} hands left", handsLeft(t)),
        }),
      ),
    ),
    roundsBlock({ ...ev, rounds_played: [cur] }, controls),
  );
}

/* the re-seat of two people: in the round being played (before their tables' first deal), or
   between rounds for the next draw (the swap applies to the tables it draws) */
function reseatBox(ev) {
  if (ev.status === "closed") return "";
  const cur = currentRound(ev);
  const playing = cur && !cur.done;
  const choices = [];
  if (playing) {
    for (const t of cur.tables || [])
      for (const s of t.seats || [])
        choices.push({
          id: s.id,
          text: _("{name} ({table}, seat {seat})", {
            name: who(person(ev, s.id)),
            table: tableName(cur, t),
            seat: seatNo(s.seat),
          }),
        });
  } else for (const p of ev.people || []) if (p.checked_in && !p.withdrawn) choices.push({ id: p.id, text: who(p) });
  if (choices.length < 2) return "";
  const option = (x) => el("option", { value: x.id, text: x.text });
  const a = el("select", { id: "reseat-a" }, choices.map(option));
  const b = el("select", { id: "reseat-b" }, choices.map(option));
  b.selectedIndex = 1;
  const form = el(
    "form",
    { class: "form-grid", id: "reseat-form" },
    el("label", { for: "reseat-a", text: _("Swap") }),
    a,
    el("label", { for: "reseat-b", text: _("with") }),
    b,
    el("span"),
    el("button", { type: "submit", id: "reseat", text: _("Swap their seats") }),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (a.value === b.value) return;
    const names = { a: a.selectedOptions[0].textContent, b: b.selectedOptions[0].textContent };
    if (!confirm(_("Swap the seats of {a} and {b}?", names))) return;
    act("POST", "/reseat", { a: a.value, b: b.value }, "reseat");
  });
  const pending = ev.pending_swaps || [];
  return el(
    "section",
    { class: "panel", id: "reseat-box", "aria-labelledby": "reseat-h" },
    el("h2", { id: "reseat-h", text: _("Re-seat") }),
    el("p", {
      class: "note",
      text: playing
        ? _("Before a table's first deal the director may swap two people; the swap is in the audit trail.")
        : _(
            "Swap two people of the next draw: the swap applies to the tables the draw makes, and is in the audit trail.",
          ),
    }),
    pending.length
      ? el("p", {
          id: "pending-swaps",
          text: _("Swaps for the next draw: {list}", {
            list: R.listText(pending.map(([x, y]) => who(person(ev, x)) + " ⇄ " + who(person(ev, y)))),
          }),
        })
      : "",
    form,
  );
}

function endBox(ev) {
  const csv = api("/standings.csv");
  return el(
    "section",
    { class: "panel", id: "end-box", "aria-labelledby": "end-h" },
    el("h2", { id: "end-h", text: _("Print, screen, downloads") }),
    el(
      "p",
      { class: "row" },
      el("a", { class: "button", href: pagePath("/print"), id: "print-link", text: _("Table lists and score sheets") }),
      el("a", {
        class: "button",
        /* with its key: the pub's TV needs no login (members-only evenings too) */
        href: ev.screen ? `${ev.screen}&lang=${R.lang}` : pagePath("/tv"),
        id: "tv-link",
        text: _("Screen for the TV"),
      }),
      el("a", { class: "button", href: R.url(api("/sheets.pdf")), text: _("PDF to print") }),
      el("a", {
        class: "button",
        href: R.url(api("/download.json")),
        download: "evening.json",
        text: _("Download (JSON)"),
      }),
      el("a", { class: "button", href: R.url(csv), download: "standings.csv", text: _("Standings (CSV)") }),
    ),
    ev.status === "closed"
      ? el("p", { class: "note", text: _("The evening is closed.") })
      : el(
          "p",
          { class: "row" },
          el("button", {
            type: "button",
            class: "danger",
            id: "close-evening",
            text: _("Close the evening"),
            onclick: () => {
              if (!confirm(_("Close the evening? Nobody can check in or start a round after that."))) return;
              act("POST", "/close", undefined, "close-evening");
            },
          }),
          el("button", {
            type: "button",
            class: "link",
            id: "delete-evening",
            text: _("Delete the evening"),
            onclick: async () => {
              if (!confirm(_("Delete the evening and all it recorded? This cannot be undone."))) return;
              clearError();
              try {
                await R.api("DELETE", api());
                location.href = R.url(ev.club ? `/c/${ev.club.id}?lang=${R.lang}` : `/?lang=${R.lang}`);
              } catch (e) {
                showError(e);
              }
            },
          }),
        ),
  );
}

function draw() {
  const ev = state;
  document.title = _("Director: {name}", { name: ev.name }) + " — Ramsli";
  const parts = [header(ev.name, el("a", { href: pagePath(""), id: "evening-link", text: _("The evening's page") }))];
  if (!(ev.may && ev.may.direct)) {
    parts.push(
      el(
        "main",
        { class: "club evening" },
        el(
          "section",
          { class: "panel", id: "refused" },
          el("p", {
            role: "alert",
            text: _("Only the evening's director (for a club evening: the club's owner) directs it."),
          }),
        ),
      ),
    );
    app.replaceChildren(...parts);
    return;
  }
  parts.push(
    el(
      "main",
      { class: "club evening director", "data-status": ev.status, "data-round": String(ev.round || 0) },
      alertBox(),
      roundBox(ev),
      tablesBox(ev),
      reseatBox(ev),
      peopleBox(ev, P.levels),
      el(
        "section",
        { class: "panel", id: "standings-panel", "aria-labelledby": "standings-h" },
        el("h2", { id: "standings-h", text: pgettext("evening", "Standings") }),
        standingsTable(ev, { labelledby: "standings-h" }),
      ),
      endBox(ev),
    ),
  );
  keepFocus(() => {
    const alert = document.getElementById("ev-alert");
    app.replaceChildren(...parts);
    if (alert && alert.childNodes.length) document.getElementById("ev-alert").replaceChildren(...alert.childNodes);
  });
}

export async function directorPage() {
  try {
    state = await load();
  } catch (e) {
    fail(e);
    return;
  }
  draw();
  const p = poll(5, load, (ev, changed) => {
    if (!changed) return;
    state = ev;
    draw();
  });
  setTimeout(p.start, 5000);
}
