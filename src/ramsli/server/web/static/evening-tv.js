/* ramsli web, the pub's TV screen of an evening (/e/{id}/tv, issue 34 item 6): big type, dark, no
   controls; it fills a 1920x1080 screen and is still readable on a phone. Every 5 seconds it asks
   the state again and says when it last did; when a request fails it keeps what it showed with a
   small "offline" mark. Shown: the round, the tables still playing with their hands left, the
   standings (the first 20) and, once drawn, the next round's tables. No card (R7). */
import {
  app,
  loadState,
  fail,
  who,
  whoEl,
  score,
  finalText,
  finalCaption,
  hasResults,
  checkedInList,
  startsText,
  tableName,
  currentRound,
  handsLeft,
  person,
  clock,
  poll,
} from "./evening-common.js";

const R = window.R;
const { _, ngettext, pgettext, el } = R;

const SHOWN = 20;
let state = null,
  updated = null,
  offline = false;

function roundLine(ev, cur) {
  if (ev.status === "closed") return _("Final standings");
  if (!cur) return _("Check-in is open");
  if (cur.kind === "final") return _("The final round");
  return _("Round {r} of {n}", { r: cur.round, n: ev.rounds });
}

function tablesPanel(ev, cur) {
  if (!cur) return "";
  const fresh = !cur.done && (cur.tables || []).every((t) => !t.hands_played);
  if (fresh) {
    // the round was just drawn: the draw, table by table, so people find their seats
    return el(
      "section",
      { class: "tv-panel tv-draw", id: "tv-draw", "aria-labelledby": "tv-draw-h" },
      el("h2", { id: "tv-draw-h", text: _("The draw of {round}", { round: roundLine(ev, cur) }) }),
      el(
        "div",
        { class: "tv-draw-grid" },
        (cur.tables || []).map((t) =>
          el(
            "div",
            { class: "tv-draw-table", "data-table": String(t.number) },
            el(
              "h3",
              {},
              tableName(cur, t),
              t.mode === "cards" ? el("span", { class: "tv-cards", text: " · " + _("real cards") }) : "",
            ),
            el(
              "ol",
              {},
              (t.seats || []).map((s) => el("li", {}, whoEl(person(ev, s.id)))),
            ),
          ),
        ),
      ),
    );
  }
  const playing = (cur.tables || []).filter((t) => t.status !== "done");
  return el(
    "section",
    { class: "tv-panel tv-playing", id: "tv-playing", "aria-labelledby": "tv-playing-h" },
    el("h2", { id: "tv-playing-h" }, playing.length ? _("Tables still playing") : _("Every table is done")),
    el(
      "ul",
      { class: "tv-tables" },
      playing.map((t) =>
        el(
          "li",
          { "data-table": String(t.number), class: "status-" + t.status },
          el("span", { class: "tv-tname", text: tableName(cur, t) }),
          el(
            "span",
            { class: "tv-left" },
            ngettext("{n} hand left", "{n} hands left", handsLeft(t)),
            t.status === "paused" ? el("span", { class: "tv-paused", text: " · " + _("paused") }) : "",
          ),
          el("span", {
            class: "tv-who",
            text: R.listText((t.seats || []).map((s) => who(person(ev, s.id)))),
          }),
        ),
      ),
    ),
  );
}

/* the standings; before any result "No results yet" and who is checked in (unless `coming`: the
   panel beside it lists them already) */
function standingsPanel(ev, coming) {
  const rows = (ev.standings || []).slice(0, SHOWN);
  const more = (ev.standings || []).length - rows.length;
  const fin = ev.format === "final";
  const results = hasResults(ev);
  return el(
    "section",
    { class: "tv-panel tv-standings", id: "tv-standings", "aria-labelledby": "tv-standings-h" },
    el("h2", {
      id: "tv-standings-h",
      text: ev.status === "closed" ? _("Final standings") : pgettext("evening", "Standings"),
    }),
    results && rows.length
      ? el(
          "table",
          { class: "tv-table", id: "tv-standings-table", "aria-labelledby": "tv-standings-h" },
          el(
            "thead",
            {},
            el(
              "tr",
              {},
              el("th", { scope: "col", text: _("Rank") }),
              el("th", { scope: "col", class: "name", text: _("Name") }),
              el("th", { scope: "col", text: ev.format === "duplicate" ? _("Matchpoints %") : _("Score") }),
              fin ? el("th", { scope: "col", class: "name", text: _("Final") }) : "",
            ),
          ),
          el(
            "tbody",
            {},
            rows.map((s) =>
              el(
                "tr",
                { "data-participant": s.id, class: s.note ? "note-" + s.note : "" },
                el("td", { class: "rank", text: String(s.rank) }),
                el("td", { class: "name" }, whoEl(s)),
                el("td", { class: "score", text: score(s.score) }),
                fin ? el("td", { class: "name", text: finalText(ev, s) }) : "",
              ),
            ),
          ),
        )
      : coming
        ? el("p", { class: "tv-empty", id: "no-results", text: _("No results yet.") })
        : checkedInList(ev, "tv-empty"),
    results && more > 0 ? el("p", { class: "tv-more", text: ngettext("and {n} more", "and {n} more", more) }) : "",
    results ? finalCaption(ev) : "",
  );
}

function comingPanel(ev) {
  const people = (ev.people || []).filter((p) => p.checked_in && !p.withdrawn);
  return el(
    "section",
    { class: "tv-panel tv-coming", id: "tv-coming", "aria-labelledby": "tv-coming-h" },
    el("h2", { id: "tv-coming-h", text: ngettext("{n} checked in", "{n} checked in", people.length) }),
    el(
      "ul",
      { class: "tv-names" },
      people.map((p) => el("li", {}, whoEl(p))),
    ),
  );
}

function draw() {
  const ev = state;
  document.title = ev.name + " — Ramsli";
  const cur = currentRound(ev);
  const stamp = el(
    "p",
    { class: "tv-stamp" + (offline ? " offline" : ""), id: "tv-stamp", "aria-live": "off" },
    updated ? _("updated {time}", { time: clock(updated) }) : "",
    offline ? el("span", { class: "tv-offline", id: "tv-offline", text: " · " + _("offline") }) : "",
  );
  app.replaceChildren(
    el(
      "main",
      { class: "tv", "data-status": ev.status, "data-round": String(ev.round || 0) },
      el(
        "header",
        { class: "tv-head" },
        el("h1", { text: ev.name }),
        el("p", { class: "tv-round", id: "tv-round", text: roundLine(ev, cur) }),
        cur ? "" : el("p", { class: "tv-when", id: "tv-when", text: startsText(ev.starts) }),
        stamp,
      ),
      el(
        "div",
        { class: "tv-grid" },
        ev.status === "closed" ? "" : cur ? tablesPanel(ev, cur) : comingPanel(ev),
        standingsPanel(ev, !cur && ev.status !== "closed"),
      ),
    ),
  );
}

export async function tvPage() {
  document.body.classList.add("ev-tv");
  try {
    state = await loadState();
    updated = new Date();
  } catch (e) {
    fail(e);
    return;
  }
  draw();
  const p = poll(
    5,
    loadState,
    (ev) => {
      state = ev;
      updated = new Date();
      offline = false;
      draw();
    },
    () => {
      offline = true;
      draw();
    },
  );
  setTimeout(p.start, 5000);
}
