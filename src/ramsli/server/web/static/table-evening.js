/* ramsli web, the table page: a table of a club evening (issue 34 item 7). The view's `evening`
   ({id, round, table, name}) puts "Evening · Round 2 of 4 · Table 3" under the top bar, a link to
   the evening's page (its standings one click away); when the table's session is over the page asks
   the evening where this person sits next (GET /api/evenings/{id}/me, with their login) until the
   next round's seat exists, then offers "Next: Table 2 — Take your seat", which goes there. */
import { S, P, render } from "./table-state.js";

const R = window.R;
const { _, el } = R;

/* the table's evening, or null for a table of no evening */
export function eveningOf() {
  return (S.view && S.view.evening) || (P.info && P.info.evening) || null;
}

const E = {
  state: null, // the evening's state, asked once (its rounds, its format)
  asked: false,
  next: null, // {round, table, name, url}: the seat of the next round, once it exists
  waiting: false, // asking /me until the next seat exists
  closed: false, // the evening is over (or this person plays no further round)
  timer: null,
};

function path(ev, tail) {
  return `/api/evenings/${encodeURIComponent(ev.id)}${tail || ""}`;
}
async function loadState(ev) {
  try {
    E.state = await R.api("GET", path(ev));
  } catch (e) {
    E.state = null;
  }
}

/* "Table 3", or the final's name in the final round */
function tableWords(ev, number) {
  const st = E.state;
  if (st && st.format === "final" && ev.round > st.rounds) return number === 1 ? _("Final") : _("Small final");
  return _("Table {n}", { n: number });
}
function roundWords(ev) {
  const st = E.state;
  if (st && st.format === "final" && ev.round > st.rounds) return _("The final round");
  return st ? _("Round {r} of {n}", { r: ev.round, n: st.rounds }) : _("Round {r}", { r: ev.round });
}

/* the line under the top bar: the evening, the round, the table; a link to the evening's page */
export function eveningBar() {
  const ev = eveningOf();
  if (!ev) return "";
  if (!E.asked) {
    E.asked = true;
    loadState(ev).then(render);
  }
  const title = (E.state && E.state.name) || _("Evening");
  /* a duplicate evening: after a deal, how the other tables played it (issue 35, D-21) */
  const played = (S.view && S.view.results) || [];
  const field =
    E.state && E.state.format === "duplicate" && played.length
      ? el("a", {
          href: `/e/${encodeURIComponent(ev.id)}?deal=${ev.round}.${played.length}&lang=${R.lang}#field`,
          id: "evening-field",
          target: "_blank",
          rel: "noopener",
          text: _("How did the others do? (deal {n})", { n: played.length }),
        })
      : "";
  return el(
    "nav",
    { class: "evening-bar", "aria-label": _("Evening") },
    el("a", {
      href: `/e/${encodeURIComponent(ev.id)}?lang=${R.lang}`,
      id: "evening-link",
      text: title + " · " + roundWords(ev) + " · " + tableWords(ev, ev.table),
    }),
    field ? " · " : "",
    field,
  );
}

async function ask(ev) {
  clearTimeout(E.timer);
  let me = null;
  try {
    me = await R.api("GET", path(ev, "/me"));
  } catch (e) {
    me = null;
  }
  if (me && me.round > ev.round && me.url) {
    E.next = me;
    E.waiting = false;
    render();
    return;
  }
  await loadState(ev);
  const st = E.state;
  if (st && (st.status === "closed" || (st.rounds_total && ev.round >= st.rounds_total))) {
    E.closed = true;
    E.waiting = false;
    render();
    return;
  }
  E.timer = setTimeout(() => ask(ev), 3000);
}

/* at the session's end: where this person sits next (or that the evening waits for the draw) */
export function eveningNext() {
  const ev = eveningOf();
  if (!ev || !S.view || S.view.status !== "over") return "";
  if (!E.next && !E.waiting && !E.closed && P.role === "seat") {
    E.waiting = true;
    ask(ev);
  }
  const page = el("a", {
    class: "button evening-standings",
    href: `/e/${encodeURIComponent(ev.id)}?lang=${R.lang}`,
    text: _("The evening's standings"),
  });
  if (E.next) {
    const url = E.next.url + (E.next.url.includes("?") ? "&" : "?") + "lang=" + R.lang;
    return el(
      "div",
      { class: "row again-row evening-next-row" },
      el("a", {
        class: "button primary evening-next",
        href: url,
        text: _("Next: {table} — Take your seat", { table: tableWords({ round: E.next.round }, E.next.table) }),
      }),
      page,
    );
  }
  return el(
    "div",
    { class: "row again-row evening-next-row" },
    el("p", {
      class: "note evening-wait",
      text: E.closed
        ? _("This was your last table of the evening.")
        : _("Your table is done. When the director starts the next round, your new seat appears here."),
    }),
    page,
  );
}
