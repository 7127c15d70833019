/* ramsli web, the evening pages (issue 34): what every page of an evening shares — the page's data,
   the API, names of formats, modes and tables in the page's language, the date in the reader's
   locale, the standings and the rounds as tables. Every fact comes from the server's state
   (GET /api/evenings/{id}); nothing here decides a draw, a score or a rule, and no card is shown (R7). */
const R = window.R;
const { _, ngettext, pgettext, el } = R;

/* the page's data, rendered in by the server (mode, evening, levels, presets, club) */
export const P = R.page;
export const app = document.getElementById("app");
/* the evening's id (every page but the new evening's form) */
export const EID = P.evening || null;

/* the evening pages' stylesheet (linked, not inline: the CSP allows this server's files only) */
export function loadStyle() {
  if (document.querySelector("link[data-evening-css]")) return;
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = R.url("/static/evening.css");
  css.dataset.eveningCss = "";
  document.head.append(css);
}

/* the evening's API paths */
export const api = (tail) => `/api/evenings/${encodeURIComponent(EID)}${tail || ""}`;
/* the evening's page paths */
export const pagePath = (tail) => `/e/${encodeURIComponent(EID)}${tail || ""}?lang=${R.lang}`;

/* the state as the reader may see it */
/* the TV screen's key (its link from the director's page): a pub's TV reads a members-only evening
   without a login */
const KEY = new URLSearchParams(location.search).get("key");
export function loadState() {
  return R.api("GET", api(KEY ? `?key=${encodeURIComponent(KEY)}` : ""));
}

/* the top of a page: its title, the lobby, your player, the language */
export function header(title, ...links) {
  return el(
    "header",
    { class: "top" },
    el("div", { class: "brand" }, el("div", {}, el("h1", { id: "title", text: title }))),
    el(
      "nav",
      { class: "top-nav", "aria-label": _("Pages") },
      ...links,
      el("a", { href: "/?lang=" + R.lang, text: _("Lobby") }),
      el("a", { href: "/account?lang=" + R.lang, text: _("Your player") }),
      R.langPicker(),
    ),
  );
}

/* where the account page brings a person back to after logging in */
export function loginLink(text) {
  return el("a", {
    class: "button primary",
    id: "log-in",
    href: "/account?lang=" + R.lang + "&next=" + encodeURIComponent(location.pathname),
    text: text || _("Log in"),
  });
}
const LOGIN_CODES = ["not_logged_in", "login_unknown", "login_expired"];
export const needsLogin = (e) => LOGIN_CODES.includes(e && e.code);

/* a refused page: the server's message in the reader's language, and a way on */
export function fail(e, title) {
  app.replaceChildren(
    header(title || "Ramsli"),
    el(
      "main",
      { class: "club evening" },
      el(
        "section",
        { class: "panel", id: "refused" },
        el("p", { role: "alert", text: e.message }),
        needsLogin(e) ? loginLink() : "",
      ),
    ),
  );
}

/* a place for the answer of an action: the server's refusal (already in the reader's language) */
export function alertBox(id) {
  return el("div", { id: id || "ev-alert", class: "ev-alert", role: "alert", "aria-live": "assertive" });
}
export function showError(e, id) {
  const box = document.getElementById(id || "ev-alert");
  if (box) {
    box.replaceChildren(el("strong", { text: e.message }));
    box.hidden = false;
  }
  R.toast(e.message, "", "bad");
}
export function clearError(id) {
  const box = document.getElementById(id || "ev-alert");
  if (box) box.replaceChildren();
}

/* ---- words ---- */

/* the date and time of the evening in the reader's locale; `starts` is ISO 8601, maybe with a
   "[Zone/Name]" suffix (RFC 9557): then in that zone, named (R.startsText) */
export function startsText(starts) {
  return R.startsText(starts);
}
/* a moment of the log (seconds since 1970) */
export function when(t) {
  try {
    return new Intl.DateTimeFormat(R.lang, { dateStyle: "short", timeStyle: "medium" }).format(new Date(t * 1000));
  } catch (e) {
    return new Date(t * 1000).toISOString();
  }
}
export function clock(d) {
  try {
    return new Intl.DateTimeFormat(R.lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" }).format(d);
  } catch (e) {
    return d.toTimeString().slice(0, 8);
  }
}
/* an evening score: at most two decimals, only when shown */
export function score(n) {
  if (n === null || n === undefined) return "–";
  return new Intl.NumberFormat(R.lang, { maximumFractionDigits: 2 }).format(n);
}
export function signed(n) {
  if (n === null || n === undefined) return "–";
  const s = new Intl.NumberFormat(R.lang, { maximumFractionDigits: 2 }).format(n);
  return n > 0 ? "+" + s : s;
}
export function formatName(f) {
  return (
    {
      lot: _("every round drawn by lot"),
      results: _("rounds redrawn by results"),
      final: _("rounds and a final"),
      duplicate: _("duplicate"),
    }[f] || f
  );
}
export function modeName(m) {
  return { online: _("online"), cards: _("real cards"), mixed: _("mixed: online and real cards") }[m] || m;
}
export function statusName(s) {
  return { open: _("open for check-in"), running: _("running"), closed: _("closed") }[s] || s;
}
export function tableStatus(s) {
  return { playing: _("playing"), paused: _("paused"), done: _("done"), waiting: _("waiting") }[s] || s;
}
const LEVEL_WORDS = () => ({ easy: _("easy"), medium: _("medium"), hard: _("hard"), expert: _("expert") });
export function levelName(level) {
  const w = LEVEL_WORDS();
  return Object.prototype.hasOwnProperty.call(w, level) ? w[level] : level;
}
/* a participant's name: a person's own; a substitute bot's in the reader's language ("Bot 1 (expert)") */
export function who(p) {
  if (!p) return _("a former player");
  const id = String(p.id || p.participant || "");
  if (p.kind === "bot" || id.startsWith("bot:")) {
    const [, level, k] = id.split(":");
    if (level && k) return _("Bot {n} ({level})", { n: k, level: levelName(level) });
  }
  return p.name === null || p.name === undefined ? _("a former player") : p.name;
}
/* a name with a visible "bot" mark for a substitute bot (every result marks them, item 2) */
export function whoEl(p, extra) {
  const bot = p && (p.kind === "bot" || String(p.id || "").startsWith("bot:"));
  return el(
    "span",
    { class: "who" + (bot ? " is-bot" : "") + (extra ? " " + extra : "") },
    who(p),
    bot ? el("span", { class: "bot-mark", text: _("bot") }) : "",
  );
}
/* a round's heading: "Round 2", the final round */
export function roundName(ev, rnd) {
  if (rnd.kind === "final") return _("The final round");
  return _("Round {r} of {n}", { r: rnd.round, n: ev.rounds });
}
/* a table's name: "Table 3", "Final", "Small final" */
export function tableName(rnd, t) {
  const kind = t.kind || (rnd && rnd.kind === "final" ? (t.number === 1 ? "final" : "small_final") : "");
  if (kind === "final") return _("Final");
  if (kind === "small_final") return _("Small final");
  return _("Table {n}", { n: t.number });
}
export function noteName(note) {
  return { final: _("Final"), small_final: _("Small final") }[note] || "";
}
/* a person (id) of the evening: its entry of `people`, or of a table's seats */
export function person(ev, id) {
  const p = (ev.people || []).find((x) => x.id === id);
  if (p) return p;
  for (const rnd of ev.rounds_played || [])
    for (const t of rnd.tables || []) for (const s of t.seats || []) if (s.id === id) return s;
  return { id: id, name: id, kind: String(id).startsWith("bot:") ? "bot" : "person" };
}
/* the round being played or last played, or null before the first */
export function currentRound(ev) {
  const list = ev.rounds_played || [];
  return list.length ? list[list.length - 1] : null;
}
/* a seat's number: the state names seats "p1".."p6" */
export const seatNo = (seat) => String(seat).replace(/^p/, "");
/* the hands a table has left to play */
export const handsLeft = (t) => Math.max(0, (t.hands || 0) - (t.hands_played || 0));

/* ---- tables of numbers ---- */

/* a wide table's box: it scrolls sideways on a phone, so it is a named region the keyboard reaches */
export function scrollBox(label, table) {
  return el("div", { class: "season-scroll", tabindex: "0", role: "region", "aria-label": label }, table);
}

/* has any table of the evening a result yet? Before one, the standings rank nobody (item 5) */
export function hasResults(ev) {
  if (ev.format === "duplicate") return (ev.rounds_played || []).some((r) => r.done); // by whole rounds (D-21)
  return (ev.rounds_played || []).some((r) => (r.tables || []).some((t) => t.results && t.results.length));
}

/* the place of a participant at the Final or the Small final (the final format's final round), or
   null: the table's result when it is done */
export function finalPlace(ev, id) {
  const rnd = (ev.rounds_played || []).find((r) => r.kind === "final");
  if (!rnd) return null;
  for (const t of rnd.tables || [])
    for (const r of t.results || []) if (r.id === id) return { table: tableName(rnd, t), place: r.place };
  return null;
}
/* the "Final" cell of a standings line: "Final, place 2", "Small final" while it plays, or "" */
export function finalText(ev, s) {
  const at = finalPlace(ev, s.id);
  if (at) return _("{table}, place {place}", { table: at.table, place: at.place });
  return noteName(s.note);
}
/* the line under the standings of the final format: where the rank comes from (duplicate: how it scores) */
export function finalCaption(ev) {
  if (ev.format === "duplicate")
    return el("p", {
      class: "note ev-dup-note",
      text: _(
        "Duplicate: every table of a section plays the same deals. On each deal a seat scores 2 matchpoints for each table it beat and 1 for each tie, against those who held the same seat; the standings are the mean percentage over the rounds every table has finished (ties: counters against the field, then tops, then the lot).",
      ),
    });
  if (ev.format !== "final") return "";
  return el("p", {
    class: "note ev-final-note",
    text: _(
      "In the final format the Final decides places 1–{n}, the Small final the next; the score is the qualifying rounds'.",
      { n: ev.final_size || 6 },
    ),
  });
}

/* who is checked in, as a list (the standings before any result, item 5) */
export function checkedInList(ev, cls) {
  const people = (ev.people || []).filter((p) => p.checked_in && !p.withdrawn);
  return el(
    "div",
    { class: "ev-no-results " + (cls || "") },
    el("p", { class: "note", id: "no-results", text: _("No results yet.") }),
    people.length
      ? el(
          "p",
          { class: "note" },
          ngettext("{n} checked in:", "{n} checked in:", people.length) + " ",
          ...people.flatMap((p, i) => (i ? [", ", whoEl(p)] : [whoEl(p)])),
        )
      : "",
  );
}

/* the standings: rank, name, score, the score of each round, the net, and in the final format the
   place at the Final or Small final. Under a heading pass `labelledby` (the heading's id): the
   table is named by it, not by a second caption of the same words (item 7). On a narrow screen
   the per-round and net columns hide (evening.css), so nothing scrolls sideways (item 8). */
export function standingsTable(ev, opts) {
  const o = opts || {};
  if (!hasResults(ev)) return checkedInList(ev);
  const rows = (ev.standings || []).slice(0, o.limit || undefined);
  const rounds = Math.max(0, ...rows.map((s) => (s.rounds || []).length));
  const fin = ev.format === "final";
  const dup = ev.format === "duplicate";
  const me = ev.me && ev.me.id;
  /* skill counters per hand ± 95 % (docs/skill.md): shown when a participant opted in; "—" for the others */
  const sk = !o.short && rows.some((s) => s.skill && s.skill.hands);
  const skillText = (f) =>
    !f || !f.hands || f.skill.mean === null
      ? "—"
      : (f.skill.mean > 0 ? "+" : "") +
        f.skill.mean.toFixed(2) +
        (f.skill.ci95 === null ? "" : " ± " + f.skill.ci95.toFixed(2));
  const head = el(
    "tr",
    {},
    el("th", { scope: "col", text: _("Rank") }),
    el("th", { scope: "col", class: "name", text: _("Name") }),
    el("th", { scope: "col", text: dup ? _("Matchpoints %") : _("Score") }),
    o.short
      ? ""
      : Array.from({ length: rounds }, (_x, i) =>
          el("th", {
            scope: "col",
            class: "ev-detail",
            text: fin && i === ev.rounds ? _("Final round") : _("R{n}", { n: i + 1 }),
            title: _("Round {n}", { n: i + 1 }),
          }),
        ),
    o.short
      ? ""
      : el("th", {
          scope: "col",
          class: "ev-detail",
          text: dup ? _("Counters against the field") : _("Net against the table"),
        }),
    dup && !o.short ? el("th", { scope: "col", class: "ev-detail", text: _("Tops") }) : "",
    sk ? el("th", { scope: "col", class: "ev-detail", text: _("Skill / hand") }) : "",
    fin ? el("th", { scope: "col", class: "name", text: _("Final") }) : "",
  );
  const cols = 3 + (o.short ? 0 : rounds + 1) + (fin ? 1 : 0) + (dup && !o.short ? 1 : 0) + (sk ? 1 : 0);
  const body = el(
    "tbody",
    {},
    rows.map((s) =>
      el(
        "tr",
        { class: s.id === me ? "me" : "", "data-participant": s.id },
        el("td", { text: String(s.rank) }),
        el("td", { class: "name" }, whoEl(s)),
        el("td", { class: "score", text: score(s.score) }),
        o.short
          ? ""
          : Array.from({ length: rounds }, (_x, i) =>
              el("td", { class: "ev-detail", text: score((s.rounds || [])[i]) }),
            ),
        o.short ? "" : el("td", { class: "ev-detail", text: signed(s.net_vs_mean) }),
        dup && !o.short ? el("td", { class: "ev-detail", text: String(s.firsts) }) : "",
        sk ? el("td", { class: "ev-detail skill", text: skillText(s.skill) }) : "",
        fin ? el("td", { class: "name note-col", text: finalText(ev, s) }) : "",
      ),
    ),
  );
  if (!rows.length)
    body.append(el("tr", {}, el("td", { colspan: String(cols), class: "note", text: _("No results yet.") })));
  const label = o.caption || pgettext("evening", "Standings");
  const table = el(
    "table",
    Object.assign(
      { class: "season ev-standings", id: o.id || "standings" },
      o.labelledby ? { "aria-labelledby": o.labelledby } : {},
    ),
    o.labelledby ? "" : el("caption", { class: o.caption ? "" : "sr-only", text: label }),
    el("thead", {}, head),
    body,
  );
  return el("div", { class: "ev-standings-box" }, table, finalCaption(ev));
}

/* a duplicate deal's seat: "Dealer", "1", "2", … (counted from the dealer's left) */
function dupSeat(n) {
  return n === 0 ? _("Dealer") : String(n);
}
function declared(s) {
  let text = s.declared === "in" ? _("in") : s.declared === "out" ? _("out") : s.declared;
  if (s.announced === "general-rams") text += " · " + _("General Rams");
  else if (s.announced && s.announced.startsWith("target:"))
    text += " · " + _("target {n}", { n: s.announced.slice(7) });
  return text;
}

/* the field of one duplicate deal (GET /api/evenings/{id}/deals/{round}/{hand}): per table and
   seat the public outcome only — declaration, announcement, tricks, counters won and paid, the
   net and the matchpoints (R7, D-21: never a card) */
export function fieldTables(field) {
  const heads = [_("Seat"), _("Name"), _("Declared"), _("Tricks"), _("Won"), _("Paid"), _("Net"), _("Matchpoints %")];
  return el(
    "div",
    { class: "ev-field", id: "field-tables" },
    (field.sections || []).flatMap((sec) => [
      (sec.tables || []).length === 1
        ? el("p", {
            class: "note ev-no-field",
            text: _("A section of one table has no field: every seat scores 50 %."),
          })
        : "",
      ...(sec.tables || []).map((t) =>
        el(
          "table",
          { class: "season ev-field-table", "data-table": String(t.number) },
          el("caption", {
            text: t.played
              ? _("{table}: deal {hand}", { table: _("Table {n}", { n: t.number }), hand: field.hand })
              : _("{table}: not played yet", { table: _("Table {n}", { n: t.number }) }),
          }),
          t.played
            ? el(
                "thead",
                {},
                el(
                  "tr",
                  {},
                  heads.map((h) => el("th", { scope: "col", text: h })),
                ),
              )
            : "",
          t.played
            ? el(
                "tbody",
                {},
                t.seats.map((s) =>
                  el(
                    "tr",
                    { "data-participant": s.id },
                    el("td", { text: dupSeat(s.seat) }),
                    el("td", { class: "name" }, whoEl(s)),
                    el("td", { text: declared(s) }),
                    el("td", { text: String(s.tricks) }),
                    el("td", { text: String(s.won) }),
                    el("td", { text: String(s.paid) }),
                    el("td", { text: signed(s.net) }),
                    el("td", { class: "score", text: score(s.pct) }),
                  ),
                ),
              )
            : "",
        ),
      ),
    ]),
  );
}

/* one table of a round: its seats and, once played, its result */
export function tableCard(ev, rnd, t, extra) {
  const results = {};
  for (const r of t.results || []) results[r.id] = r;
  const me = ev.me && ev.me.id;
  const left = handsLeft(t);
  const progress =
    t.status === "done"
      ? ngettext("{n} hand played", "{n} hands played", t.hands_played || 0)
      : _("{played} of {hands} hands played", { played: t.hands_played || 0, hands: t.hands || 0 });
  const rows = (t.seats || []).map((s) => {
    const r = results[s.id];
    return el(
      "tr",
      { class: s.id === me ? "me" : "", "data-participant": s.id },
      el("td", { text: seatNo(s.seat) }),
      el(
        "td",
        { class: "name" },
        whoEl(person(ev, s.id)),
        s.id === t.captain ? el("span", { class: "captain-mark", text: _("captain") }) : "",
      ),
      el("td", { text: r ? String(r.place) : "" }),
      el("td", { text: r ? signed(r.net) : "" }),
      el("td", { text: r ? score(r.score) : "" }),
    );
  });
  return el(
    "article",
    {
      class: "ev-table status-" + (t.status || "playing"),
      "data-table": String(t.number),
      "aria-label": tableName(rnd, t),
    },
    el(
      "h4",
      {},
      tableName(rnd, t),
      el("span", { class: "muted", text: " · " + (t.mode === "cards" ? _("real cards") : _("online")) }),
    ),
    el(
      "p",
      { class: "ev-progress" },
      el("span", { class: "status-pill", text: tableStatus(t.status) }),
      " ",
      el("span", { text: progress }),
      t.status !== "done" && left
        ? el("span", { class: "muted", text: " · " + ngettext("{n} hand left", "{n} hands left", left) })
        : "",
    ),
    scrollBox(
      tableName(rnd, t),
      el(
        "table",
        { class: "season ev-seats" },
        el("caption", { class: "sr-only", text: tableName(rnd, t) }),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col", text: _("Seat") }),
            el("th", { scope: "col", class: "name", text: _("Name") }),
            el("th", { scope: "col", text: pgettext("result", "Place") }),
            el("th", { scope: "col", text: _("Net counters") }),
            el("th", { scope: "col", text: _("Score") }),
          ),
        ),
        el("tbody", {}, rows),
      ),
    ),
    extra || "",
  );
}

/* who sits out a round: a bye scores 50 in a qualifying round; in the final round (kind "final")
   those not at the Final or the Small final score nothing (item 3) */
export function byesLine(ev, rnd) {
  const names = R.listText((rnd.byes || []).map((id) => who(person(ev, id))));
  return el("p", {
    class: "note ev-byes",
    text:
      rnd.kind === "final"
        ? _("Not in the Final or Small final: {names}", { names: names })
        : _("Bye this round (scores 50): {names}", { names: names }),
  });
}

/* every round played so far, the latest first */
export function roundsBlock(ev, extraFor) {
  const list = (ev.rounds_played || []).slice().reverse();
  if (!list.length) return el("p", { class: "note", id: "no-rounds", text: _("No round has started yet.") });
  return el(
    "div",
    { class: "ev-rounds" },
    list.map((rnd) =>
      el(
        "section",
        { class: "ev-round", "data-round": String(rnd.round) },
        el(
          "h3",
          {},
          roundName(ev, rnd),
          el("span", { class: "muted", text: " · " + (rnd.done ? _("finished") : _("playing")) }),
        ),
        (rnd.byes || []).length ? byesLine(ev, rnd) : "",
        el(
          "div",
          { class: "ev-tables" },
          (rnd.tables || []).map((t) => tableCard(ev, rnd, t, extraFor ? extraFor(rnd, t) : "")),
        ),
      ),
    ),
  );
}

/* a labelled read-only link with a copy button */
export function copyLink(id, label, url) {
  const input = el("input", {
    type: "text",
    readonly: true,
    id: id,
    value: url,
    onfocus: (e) => e.target.select(),
  });
  return el(
    "div",
    { class: "link-row ev-link" },
    el("label", { class: "link-label", for: id, text: label }),
    input,
    el("button", {
      type: "button",
      class: "small",
      text: _("Copy"),
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(url);
          R.toast(_("Copied."));
        } catch (e) {
          input.focus();
          input.select();
        }
      },
    }),
  );
}

/* the facts of an evening as a description list */
export function factsList(ev) {
  const rows = [
    [_("When"), startsText(ev.starts)],
    ev.club ? [_("Club"), el("a", { href: `/c/${ev.club.id}?lang=${R.lang}`, text: ev.club.name })] : null,
    [_("Director"), ev.director ? ev.director.name : ""],
    [_("Rules"), ev.summary ? R.rulesSpecText(ev.summary) : R.presetName(ev.preset)],
    [
      _("Format"),
      formatName(ev.format) +
        " · " +
        ngettext("{n} round", "{n} rounds", ev.rounds) +
        (ev.format === "final" && ev.final_size
          ? " · " +
            (ev.small_final
              ? _("final and small final of {n}", { n: ev.final_size })
              : _("final of {n}", { n: ev.final_size }))
          : ""),
    ],
    [_("Hands per round"), String(ev.hands_per_round)],
    ev.format === "duplicate"
      ? [
          _("Deals"),
          _(
            "the same deals at every table of a section: the server shuffles and cuts each deal once (no player cuts, R4.2) and the dealer passes to the left",
          ),
        ]
      : null,
    [_("Play"), modeName(ev.mode)],
    [_("Who may come"), ev.members_only ? _("members of the club only") : _("everyone with the link")],
    ev.recurring === "weekly" ? [_("Repeats"), _("every week")] : null,
    [_("Status"), statusName(ev.status)],
  ].filter(Boolean);
  return el(
    "dl",
    { class: "facts ev-facts" },
    rows.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", {}, v)]),
  );
}

/* re-draw a part without losing the keyboard's place nor what was typed or chosen: the focused
   control (by id) is focused again, and each form control with an id keeps its value */
export function keepFocus(draw) {
  const a = document.activeElement;
  const id = a && a !== document.body ? a.id : null;
  const values = {};
  for (const c of app.querySelectorAll("input[id], select[id], textarea[id]"))
    values[c.id] = c.type === "checkbox" || c.type === "radio" ? c.checked : c.value;
  draw();
  for (const [cid, v] of Object.entries(values)) {
    const c = document.getElementById(cid);
    if (!c || c.readOnly) continue;
    if (c.type === "checkbox" || c.type === "radio") c.checked = v;
    else if (c.tagName !== "SELECT" || [...c.options].some((o) => o.value === v)) c.value = v;
  }
  if (id) {
    const again = document.getElementById(id);
    if (again && again !== document.activeElement) again.focus();
  }
}

/* ask `load` every `seconds` while the tab is visible; `show(data)` on a change, `failed(e)` on an error */
export function poll(seconds, load, show, failed) {
  let last = null,
    timer = null,
    busy = false;
  async function tick() {
    clearTimeout(timer);
    if (busy) return;
    busy = true;
    try {
      const data = await load();
      const text = JSON.stringify(data);
      if (text !== last) {
        last = text;
        show(data, true);
      } else show(data, false);
    } catch (e) {
      if (failed) failed(e);
    }
    busy = false;
    timer = setTimeout(tick, seconds * 1000);
  }
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) tick();
  });
  return { start: tick, now: tick };
}
