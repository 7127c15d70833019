/* ramsli web, the table page: the top bar (tools), the status line's text and the panel before the
   start (invite links, the start button, who the session waits for). */
import { S, P, me, seatName } from "./table-state.js";
import { toggleChat } from "./table-chat.js";
import { openOverlay } from "./table-dialogs.js";
import { countdown } from "./table-timers.js";

const R = window.R;
const { _, el } = R;

export function topBar() {
  const view = S.view,
    h = view.hand;
  return el(
    "header",
    { class: "table-top" },
    el("h1", { class: "brand-small" }, el("a", { href: "/?lang=" + R.lang, title: _("Lobby"), text: "Ramsli" })),
    el(
      "span",
      { class: "muted info" },
      el("span", {
        class: "preset",
        text: R.presetName(view.rules.preset || "") + (view.test_seeded ? " · " + _("test table") : ""),
      }),
      h ? el("span", { class: "hand-no", text: _("Hand {n}", { n: h.number }) }) : "",
    ),
    el(
      "nav",
      { class: "tools", "aria-label": _("Table tools") },
      el(
        "button",
        {
          type: "button",
          id: "btn-chat",
          "aria-expanded": S.chatOpen ? "true" : "false",
          "aria-controls": "chat",
          onclick: () => toggleChat(),
        },
        el("span", { text: _("Chat") }),
        el("span", { class: "badge", "aria-hidden": "true", text: S.chatUnread ? String(S.chatUnread) : "" }),
      ),

      el("button", {
        type: "button",
        id: "btn-last",
        "aria-keyshortcuts": "l",
        disabled: !(h && h.last_trick),
        onclick: () => openOverlay("last"),
        text: _("Last trick"),
      }),
      el("button", {
        type: "button",
        id: "btn-sheet",
        "aria-keyshortcuts": "s",
        onclick: () => openOverlay("sheet"),
        text: _("Score sheet"),
      }),
      el(
        "a",
        {
          class: "button",
          href: "/how-to-play?lang=" + R.lang + "&table=" + P.table,
          target: "_blank",
          title: _("How to play"),
        },
        el("span", { class: "wide-only", text: _("How to play") }),
        el("span", { class: "phone-only", "aria-hidden": "true", text: "?" }),
        el("span", { class: "sr-only phone-only", text: _("How to play") }),
      ),
      el(
        "button",
        {
          type: "button",
          id: "btn-settings",
          onclick: () => openOverlay("settings"),
          "aria-label": _("Settings"),
          title: _("Settings"),
        },
        el("span", { "aria-hidden": "true", text: "⚙" }),
      ),
    ),
  );
}

/* what the status line says: whose turn it is and to do what */
export function statusText() {
  const view = S.view;
  if (view.status === "waiting") return _("Waiting for the start");
  if (view.you.pending) return _("You take over this seat from the next hand; until then its bot plays and you watch.");
  if (view.status === "over") return _("The session is over.");
  const h = view.hand;
  if (!h) return "";
  if (h.phase === "over") return _("Hand {n} is over", { n: h.number });
  const who = view.to_act;
  if (!who) return "";
  const mine = who === me();
  const what = {
    declare: mine ? _("Your turn: in or out?") : _("{name} declares", { name: seatName(who) }),
    "general-rams": mine
      ? _("Your turn: General Rams or pass?")
      : _("{name} may announce General Rams", { name: seatName(who) }),
    targets: mine ? _("Your turn: announce a target") : _("{name} announces a target", { name: seatName(who) }),
    play: mine
      ? h.current.plays.length
        ? _("Your turn: play a card")
        : _("Your lead: play a card")
      : _("{name} plays", { name: seatName(who) }),
  }[h.phase];
  return what || "";
}

/* before the start: the creator's invite links and start button; who the session waits for */
export function waitingPanel() {
  const view = S.view;
  const creator = R.creatorToken(P.table);
  const entry = R.myTables().find((e) => e.table === P.table && e.creator) || {};
  const box = el("div", { class: "waiting panel" });
  if (creator) {
    const links = (entry.invites || []).map((s) => {
      const url = location.origin + R.url(s.invite);
      const n = s.seat.slice(1);
      const label =
        s.kind === "bot"
          ? _("Seat {n}, bot ({level}): a friend may take it over", { n: n, level: R.botLevel(s.bot) })
          : _("Invite for seat {n}", { n: n });
      return el(
        "li",
        { class: "link-row" },
        el("span", { class: "link-label", text: label }),
        el("input", { type: "text", readonly: true, value: url, "aria-label": label }),
        el("button", {
          type: "button",
          class: "small",
          text: _("Copy"),
          onclick: () => navigator.clipboard && navigator.clipboard.writeText(url),
        }),
      );
    });
    if (links.length) box.append(el("ul", { class: "links" }, links));
    box.append(
      el("button", {
        type: "button",
        class: "primary",
        id: "start",
        text: _("Start the session"),
        onclick: async (ev) => {
          ev.target.disabled = true;
          try {
            await R.api("POST", `/api/tables/${P.table}/start`, { creator_token: creator });
          } catch (e) {
            R.toast(e.message, "", "bad");
            ev.target.disabled = false;
          }
        },
      }),
    );
    box.append(el("p", { class: "note", text: _("Seats nobody takes are played by a bot when you start.") }));
  } else if (!view.expect.length)
    box.append(el("p", { class: "note", text: _("The person who made the table starts the session.") }));
  if (view.expect.length) {
    const missing = view.seats.filter((s) => view.expect.includes(s.seat) && !s.taken).map((s) => s.seat);
    const names = missing.map((sid) => _("Seat {n}", { n: sid.slice(1) }));
    box.append(
      el(
        "p",
        { class: "rematch-wait" },
        missing.length
          ? view.starts_in !== null
            ? countdown(view.starts_in, (n) =>
                _(
                  "Waiting for {names}; the session starts when everyone is here, at the latest in {n} s (a bot takes a seat nobody comes to).",
                  { names: R.listText(names), n: n },
                ),
              )
            : _("Waiting for {names}; the session starts when everyone is here.", { names: R.listText(names) })
          : _("Everyone is here."),
      ),
    );
  }
  return box;
}
