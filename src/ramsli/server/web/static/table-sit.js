/* ramsli web, the table page: sitting down through an invite link (the table's facts, who is at it,
   your name); the personal token the server returns plays the seat from then on (docs/protocol.md). */
import { P, app } from "./table-state.js";

const R = window.R;
const { _, ngettext, el } = R;

/* the form; sat() runs once the seat is taken */
export function sitForm(sat) {
  const inp = el("input", {
    id: "sit-name",
    type: "text",
    maxlength: "24",
    value: R.settings.name || "",
    autocomplete: "nickname",
    required: true,
  });
  const info = P.info || { seats: [], rules: { options: {} } };
  const opts = info.rules.options || {};
  const people = info.seats.filter((s) => s.name && s.taken).map((s) => s.name);
  const host = people.length ? people[0] : null;
  const seatItems = info.seats.map((s) =>
    el(
      "li",
      { class: s.seat === P.seat ? "me" : "" },
      el("b", { text: _("Seat {n}", { n: s.seat.slice(1) }) + ": " }),
      s.seat === P.seat
        ? _("your seat") + (s.kind === "bot" ? " — " + _("you take it over from its bot") : "")
        : s.name
          ? s.name
          : s.kind === "bot"
            ? _("bot ({level})", { level: R.botLevel(s.bot) })
            : _("open seat (a friend)"),
    ),
  );
  const stackText = ngettext("{n} counter", "{n} counters", opts.starting_stack || 0);
  const beteText = opts.bete === "pot" ? _("the pot") : String(opts.bete);
  const facts = el(
    "dl",
    { class: "facts" },
    el("dt", { text: _("Rules") }),
    el("dd", { text: R.presetName(info.rules.preset) }),
    el("dt", { text: _("Session end") }),
    el("dd", { text: R.endText(opts.end) }),
    el("dt", { text: _("Stacks") }),
    el("dd", {
      text: _("{stack} each, ante {ante}, bete {bete}", {
        stack: stackText,
        ante: opts.ante,
        bete: beteText,
      }),
    }),
    el("dt", { text: _("Status") }),
    el("dd", {
      text:
        { waiting: _("waiting for the start"), playing: _("playing"), over: _("over") }[info.status] ||
        info.status ||
        "",
    }),
  );
  const f = el(
    "form",
    { class: "panel sit", id: "sit" },
    el("h1", {
      text: host
        ? _("{name} invites you to a game of Ramsli", { name: host })
        : _("Sit down at seat {seat}", { seat: P.seat }),
    }),
    el(
      "section",
      { class: "table-facts", "aria-label": _("This table") },
      facts,
      el("h2", { text: _("At this table") }),
      el("ul", { class: "seat-list" }, seatItems),
    ),
    el(
      "div",
      { class: "sit-row" },
      el("label", { for: "sit-name", text: _("Your name") }),
      inp,
      el("button", { class: "primary", type: "submit", text: _("Sit down") }),
    ),
    el(
      "p",
      { class: "note" },
      el("a", { href: "/how-to-play?lang=" + R.lang + "&table=" + P.table, target: "_blank", text: _("How to play") }),
    ),
    el("div", { class: "top-nav" }, R.langPicker()),
  );
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    R.toastHide();
    try {
      const name = inp.value.trim();
      if (!name) {
        R.toast(_("Please give your name."), "", "bad");
        inp.focus();
        return;
      }
      const r = await R.api("POST", `/api/tables/${P.table}/sit`, { token: P.token, name: name });
      R.settings.name = name;
      R.saveSettings();
      /* from now on only the personal token sitting down returned plays this seat (docs/protocol.md) */
      P.token = r.token;
      history.replaceState(null, "", R.url(`/t/${P.table}/s/${r.token}`) + location.search);
      R.rememberTable({
        table: P.table,
        token: P.token,
        seat: r.seat,
        name: name,
        invite: location.pathname,
        created: Date.now(),
      });
      P.taken = true;
      P.name = name;
      sat();
    } catch (e) {
      R.toast(e.message, "", "bad");
    }
  });
  app.replaceChildren(el("main", { class: "lobby" }, f));
  inp.focus();
}
