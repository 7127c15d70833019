/* ramsli web: the lobby. One click to a table against bots, or a table set up in full; the tables open
   to anyone (take a free seat, watch) and quick play; a club's table when logged in (docs/clubs.md). */
"use strict";
(function () {
  const R = window.R,
    _ = R._,
    ngettext = R.ngettext,
    el = R.el;
  R.applySettings();
  const app = document.getElementById("app");
  const page = R.page;
  document.title = _("Ramsli — a card table");

  /* a name for one who gave none, so that "Play now" is one click (changeable; remembered once used) */
  function defaultName() {
    return _("Guest {n}", { n: 100 + Math.floor(Math.random() * 900) });
  }
  function nameInput() {
    const inp = el("input", {
      id: "your-name",
      type: "text",
      maxlength: "24",
      autocomplete: "nickname",
      value: me.player ? me.player.name : R.settings.name || defaultName(),
      placeholder: _("Your name"),
      readonly: !!me.player,
    });
    inp.addEventListener("input", () => {
      R.settings.name = inp.value.trim();
      R.saveSettings();
    });
    return inp;
  }
  function myName() {
    const v = (document.getElementById("your-name").value || "").trim();
    R.settings.name = v;
    R.saveSettings();
    if (!v) {
      const err = new Error(_("Please give your name."));
      err.noName = true;
      document.getElementById("your-name").focus();
      throw err;
    }
    return v;
  }

  let me = { player: null };

  async function createAndSit(spec, hint, startNow) {
    const name = myName();
    R.toastHide();
    const made = await R.api("POST", "/api/web/tables", Object.assign({}, spec, { hint: hint }));
    const mine = made.seats[0];
    const sat = await R.api("POST", `/api/tables/${made.table}/sit`, { token: mine.token, name: name });
    /* the personal token sitting down returned plays the seat; the invite link no longer does */
    R.rememberTable({
      table: made.table,
      token: sat.token,
      seat: mine.seat,
      name: name,
      invite: `/t/${made.table}/s/${sat.token}`,
      creator: made.creator_token,
      created: Date.now(),
      preset: spec.preset,
      invites: made.seats.slice(1).map((s) => ({ seat: s.seat, invite: s.invite, kind: s.kind, bot: s.bot })),
      spectate: made.spectate,
    });
    if (startNow) await R.api("POST", `/api/tables/${made.table}/start`, { creator_token: made.creator_token });
    made.mine = `/t/${made.table}/s/${sat.token}`;
    return made;
  }

  async function quickStart(ev) {
    ev.target.disabled = true;
    try {
      const spec = {
        preset: "traditional",
        rules: ["end=hands:10"],
        seats: [{ kind: "human" }].concat(Array(4).fill({ kind: "bot", bot: "easy" })),
      };
      const made = await createAndSit(spec, true, true);
      location.href = R.url(made.mine) + "?lang=" + R.lang;
    } catch (e) {
      // under the button, in the form: a floating message would cover the name's label
      const msg = document.getElementById("quick-msg");
      msg.replaceChildren(
        el("span", { class: "toast-main", text: e.noName ? e.message : _("The table could not be made.") }),
        e.noName ? "" : el("span", { class: "toast-detail", text: " " + e.message }),
      );
      msg.hidden = false;
      ev.target.disabled = false;
      if (!document.getElementById("your-name").value.trim()) document.getElementById("your-name").focus();
    }
  }

  /* -- the set-up form -- */
  function seatRow(i) {
    const sel = el("select", { id: `seat-${i + 1}`, "aria-label": _("Seat {n}", { n: i + 1 }) });
    if (i === 0) sel.append(el("option", { value: "you", text: _("you") }));
    else {
      sel.append(el("option", { value: "human", text: _("a friend (invite link)") }));
      for (const b of page.bots)
        sel.append(
          el("option", { value: "bot:" + b, title: R.botLevel(b), text: R.botShort(b), selected: b === "easy" }),
        );
    }
    if (i === 0) sel.disabled = true;
    // the short label in the menu, the bot's full words under it
    const desc = el("span", { class: "seat-desc note", id: `seat-${i + 1}-desc` });
    const describe = () => {
      const v = sel.value;
      desc.textContent = v.startsWith("bot:") ? R.botLevel(v.slice(4)) : "";
    };
    sel.setAttribute("aria-describedby", desc.id);
    sel.addEventListener("change", describe);
    describe();
    return el(
      "div",
      { class: "seat-row" },
      el("label", { for: `seat-${i + 1}`, text: _("Seat {n}", { n: i + 1 }) }),
      sel,
      desc,
    );
  }
  function setupForm() {
    const preset = el("select", { id: "preset" });
    for (const p of page.presets)
      preset.append(el("option", { value: p, text: R.presetName(p), selected: p === "traditional" }));
    const count = el("select", { id: "players" });
    for (let n = 2; n <= 6; n++) count.append(el("option", { value: String(n), text: String(n), selected: n === 5 }));
    const seats = el("div", { id: "seats", class: "seats-grid" });
    const drawSeats = () => {
      seats.replaceChildren();
      for (let i = 0; i < +count.value; i++) seats.append(seatRow(i));
    };
    count.addEventListener("change", drawSeats);
    drawSeats();
    const endKind = el(
      "select",
      { id: "end-kind" },
      el("option", { value: "", text: _("until a player is bust") }),
      el("option", { value: "hands", text: _("after a number of hands"), selected: true }),
      el("option", { value: "win-at", text: _("first to a number of counters") }),
      el("option", { value: "time", text: _("after a number of minutes") }),
    );
    const endN = el("input", {
      id: "end-n",
      type: "number",
      min: "1",
      max: "1000",
      value: "10",
      "aria-label": _("Number"),
    });
    const pace = el(
      "select",
      { id: "pace" },
      el("option", { value: "0.3", text: _("fast") }),
      el("option", { value: "0.8", text: _("normal"), selected: true }),
      el("option", { value: "1.6", text: _("slow") }),
    );
    const timer = el(
      "select",
      { id: "turn-timer" },
      el("option", { value: "", text: _("off") }),
      [15, 30, 60].map((n) => el("option", { value: String(n), text: ngettext("{n} second", "{n} seconds", n) })),
    );
    const rules = el("textarea", {
      id: "rule-options",
      rows: "3",
      placeholder: "bete=pot\njokers=true",
      spellcheck: "false",
    });
    const hint = el("input", { id: "hint", type: "checkbox", checked: true });
    const open = el("input", { id: "open", type: "checkbox" });
    const club = el("select", { id: "club" }, el("option", { value: "", text: _("no club") }));
    const wanted = new URL(location.href).searchParams.get("club");
    for (const c of me.clubs || []) club.append(el("option", { value: c.id, text: c.name, selected: c.id === wanted }));
    const form = el(
      "form",
      { id: "setup", class: "panel" },
      el("h2", { text: _("Set up a table") }),
      el(
        "div",
        { class: "form-grid" },
        el("label", { for: "preset", text: _("Rules (preset)") }),
        preset,
        el("label", { for: "players", text: _("Players") }),
        count,
      ),
      seats,
      el(
        "div",
        { class: "form-grid" },
        el("label", { for: "end-kind", text: _("Session end") }),
        el("div", { class: "inline" }, endKind, endN),
        el("label", { for: "pace", text: _("Bot speed") }),
        pace,
        el("label", { for: "turn-timer", text: _("Turn timer (a bot moves for whoever runs out)") }),
        timer,
        el("label", { for: "rule-options", text: _("More rule options (key=value, one a line)") }),
        rules,
      ),
      el("div", { class: "check" }, hint, el("label", { for: "hint", text: _('Allow the "should I stay in?" hint') })),
      el(
        "div",
        { class: "check" },
        open,
        el("label", { for: "open", text: _("Open to anyone: list the table in the lobby") }),
      ),
      me.clubs && me.clubs.length
        ? el("div", { class: "form-grid" }, el("label", { for: "club", text: _("Club table") }), club)
        : "",
      el("button", { type: "submit", class: "primary", text: _("Create the table") }),
    );
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const seatSpecs = [];
      for (let i = 0; i < +count.value; i++) {
        const v = document.getElementById(`seat-${i + 1}`).value;
        seatSpecs.push(v === "you" || v === "human" ? { kind: "human" } : { kind: "bot", bot: v.slice(4) });
      }
      const list = rules.value
        .split(/\n|,/)
        .map((x) => x.trim())
        .filter(Boolean);
      if (endKind.value) list.push(`end=${endKind.value}:${Math.max(1, parseInt(endN.value || "1", 10))}`);
      const spec = {
        preset: preset.value,
        rules: list,
        seats: seatSpecs,
        bot_pace_seconds: +pace.value,
        turn_seconds: timer.value ? +timer.value : null,
        open: open.checked,
      };
      if (club.value) spec.club = club.value;
      try {
        const made = await createAndSit(spec, hint.checked, false);
        showCreated(made);
        document.getElementById("my-tables").replaceWith(await myTablesBox());
        refreshOpen();
      } catch (e) {
        R.toast(e.noName ? e.message : _("The table could not be made."), e.noName ? "" : e.message, "bad");
      }
    });
    return form;
  }

  function copyButton(text) {
    return el("button", {
      type: "button",
      class: "small",
      text: _("Copy"),
      "aria-label": _("Copy the link"),
      onclick: async (ev) => {
        try {
          await navigator.clipboard.writeText(text);
          ev.target.textContent = _("Copied");
        } catch (e) {
          window.prompt(_("Copy the link"), text);
        }
      },
    });
  }
  function linkRow(label, path) {
    const url = location.origin + R.url(path);
    return el(
      "li",
      { class: "link-row" },
      el("span", { class: "link-label", text: label }),
      el("input", { type: "text", readonly: true, value: url, "aria-label": label, onfocus: (e) => e.target.select() }),
      copyButton(url),
    );
  }
  function showCreated(made) {
    const box = document.getElementById("created");
    const rows = made.seats
      .slice(1)
      .map((s) =>
        linkRow(
          s.kind === "bot"
            ? _("Seat {n}, bot ({level}): a friend may take it over", { n: s.seat.slice(1), level: R.botLevel(s.bot) })
            : _("Invite for seat {n}", { n: s.seat.slice(1) }),
          s.invite,
        ),
      );
    rows.push(linkRow(_("Spectators"), made.spectate));
    box.replaceChildren(
      el("h2", { text: _("Your table is ready") }),
      el("p", { text: _("Send each friend their own link. Seats nobody takes are played by a bot when you start.") }),
      el("ul", { class: "links" }, rows),
      el(
        "div",
        { class: "row" },
        el("a", { class: "button primary", href: made.mine + "?lang=" + R.lang, text: _("Go to your seat") }),
      ),
    );
    box.hidden = false;
    box.scrollIntoView({ block: "start" });
  }

  function joinBox() {
    const inp = el("input", {
      id: "join-link",
      type: "url",
      placeholder: location.origin + R.url("/t/…"),
      "aria-label": _("Invite link"),
    });
    const f = el(
      "form",
      { class: "panel", id: "join", novalidate: true },
      el("h2", { text: _("Join a table") }),
      el("p", { text: _("Paste the invite link a friend sent you.") }),
      el("div", { class: "inline" }, inp, el("button", { type: "submit", text: _("Join") })),
    );
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      try {
        const u = new URL(inp.value.trim(), location.origin);
        const path = R.base && u.pathname.startsWith(R.base + "/") ? u.pathname.slice(R.base.length) : u.pathname;
        if (!/^\/t\/[^/]+\/(s|watch)\/[^/]+$/.test(path)) throw new Error("bad");
        location.href = R.url(path) + "?lang=" + R.lang;
      } catch (e) {
        R.toast(_("That is not an invite link of this server."), "", "bad");
      }
    });
    return f;
  }

  /* -- tables open to anyone, and quick play -- */
  function paceText(p) {
    const speed = p.bot_pace_seconds <= 0.4 ? _("fast") : p.bot_pace_seconds <= 1.0 ? _("normal") : _("slow");
    const turn = p.turn_seconds ? _("{n} s a turn", { n: Math.round(p.turn_seconds) }) : _("no turn timer");
    return _("bots {speed}, {turn}", { speed: speed, turn: turn });
  }
  async function takeSeat(t, ev) {
    if (ev) ev.target.disabled = true;
    try {
      const name = myName();
      const sat = await R.api("POST", `/api/tables/${t}/join`, { name: name });
      R.rememberTable({
        table: t,
        token: sat.token,
        seat: sat.seat,
        name: name,
        invite: sat.page,
        created: Date.now(),
      });
      location.href = R.url(sat.page) + "?lang=" + R.lang;
    } catch (e) {
      R.toast(e.noName ? e.message : _("You could not take that seat."), e.noName ? "" : e.message, "bad");
      if (ev) ev.target.disabled = false;
      refreshOpen();
    }
  }
  function openRow(t) {
    const people = t.seats.filter((s) => s.taken).map((s) => s.name);
    const status = t.status === "waiting" ? _("waiting for the start") : _("playing");
    return el(
      "li",
      { class: "open-table", "data-table": t.table },
      el(
        "div",
        { class: "open-main" },
        el("b", { text: R.presetName(t.rules.preset) }),
        " ",
        el("span", { class: "muted", text: R.rulesChanges(t.rules.changes) }),
        t.club ? el("span", { class: "club-tag", text: t.club.name }) : "",
        el(
          "div",
          { class: "open-facts" },
          el("span", { text: ngettext("{n} free seat", "{n} free seats", t.free) }),
          " · ",
          el("span", { text: status }),
          " · ",
          el("span", { text: paceText(t.pace) }),
        ),
        people.length
          ? el("div", { class: "note", text: _("At the table: {names}", { names: R.listText(people) }) })
          : "",
      ),
      el(
        "div",
        { class: "row" },
        t.free
          ? el("button", {
              type: "button",
              class: "primary small take-seat",
              text: _("Take a seat"),
              "aria-label": _("Take a seat at table {table}", { table: t.table }),
              onclick: (ev) => takeSeat(t.table, ev),
            })
          : "",
        el("a", { class: "button small", href: t.spectate + "?lang=" + R.lang, text: _("Watch") }),
      ),
    );
  }
  let shownOpen = null; // the open tables last drawn: an unchanged list is not drawn again
  async function refreshOpen() {
    const list = document.getElementById("open-list");
    if (!list) return;
    let tables = [];
    try {
      tables = await R.api("GET", "/api/tables");
    } catch (e) {
      tables = [];
    }
    const key = JSON.stringify(tables);
    if (key === shownOpen && list.children.length) return;
    shownOpen = key;
    // the keyboard's place survives a new list: the same button (by its name) is focused again
    const focused = list.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
    list.replaceChildren(
      ...(tables.length
        ? tables.map(openRow)
        : [el("li", { class: "note", text: _("No table is open right now. Quick play opens one.") })]),
    );
    if (focused) {
      const again = [...list.querySelectorAll("button")].find((b) => b.getAttribute("aria-label") === focused);
      (again || list.closest("section") || list).focus?.();
    }
  }
  function openBox() {
    const preset = el("select", { id: "quick-preset", "aria-label": _("Rules (preset)") });
    for (const p of page.presets)
      preset.append(el("option", { value: p, text: R.presetName(p), selected: p === "traditional" }));
    const go = el("button", {
      id: "quick-play",
      type: "button",
      class: "primary",
      text: _("Quick play"),
      onclick: async (ev) => {
        ev.target.disabled = true;
        try {
          const name = myName();
          const sat = await R.api("POST", "/api/quick-play", { preset: preset.value, name: name });
          R.rememberTable({
            table: sat.table,
            token: sat.token,
            seat: sat.seat,
            name: name,
            invite: sat.page,
            created: Date.now(),
            preset: preset.value,
            creator: sat.creator_token || undefined,
            spectate: sat.spectate,
          });
          location.href = R.url(sat.page) + "?lang=" + R.lang;
        } catch (e) {
          R.toast(e.noName ? e.message : _("Quick play found no seat."), e.noName ? "" : e.message, "bad");
          ev.target.disabled = false;
        }
      },
    });
    return el(
      "section",
      { class: "panel", id: "open-tables" },
      el("h2", { text: _("Open tables") }),
      el("p", { class: "note", text: _("Tables anyone may join. Take a free seat, or watch.") }),
      el("div", { class: "inline" }, preset, go),
      el("p", {
        class: "note",
        text: _("Quick play seats you at the fullest open table of these rules, or opens one."),
      }),
      el("ul", { class: "open-list", id: "open-list" }),
    );
  }

  async function myTablesBox() {
    const box = el("section", { class: "panel", id: "my-tables" }, el("h2", { text: _("Your tables") }));
    const list = R.myTables();
    if (!list.length) {
      box.append(el("p", { class: "note", text: _("No tables yet.") }));
      return box;
    }
    const ul = el("ul", { class: "tables" });
    for (const e of list) {
      // a table is named by its players (as its seats show them), its rules and when it was made;
      // its id stays in the link only
      const status = el("span", { class: "status", text: "…" });
      const when = e.created
        ? new Date(e.created).toLocaleString(R.lang, { dateStyle: "medium", timeStyle: "short" })
        : "";
      const link = el("a", {
        href: e.invite + "?lang=" + R.lang,
        class: "my-table",
        text: when ? _("Table of {when}", { when: when }) : _("A table"),
      });
      const facts = el("span", {
        class: "muted",
        text: [e.preset ? R.presetName(e.preset) : "", when].filter(Boolean).join(" · "),
      });
      const forget = el("button", {
        type: "button",
        class: "small link",
        text: _("Forget"),
        "aria-label": _("Forget table {table}", { table: link.textContent }),
        onclick: (ev) => {
          R.forgetTable(e.table, e.token);
          ev.target.closest("li").remove();
        },
      });
      ul.append(el("li", { "data-table": e.table }, link, " ", facts, " ", status, forget));
      R.api("GET", `/api/tables/${e.table}`)
        .then((info) => {
          status.textContent =
            { waiting: _("waiting"), playing: _("playing"), over: _("over") }[info.status] || info.status;
          const names = (info.seats || []).map((s) =>
            s.seat === e.seat && !s.name
              ? e.name || _("you")
              : s.name || (s.kind === "bot" ? R.botShort(s.bot) : _("open seat")),
          );
          if (names.length) link.textContent = R.listText(names);
          if (info.rules && info.rules.preset)
            facts.textContent = [R.presetName(info.rules.preset), when].filter(Boolean).join(" · ");
          forget.setAttribute("aria-label", _("Forget table {table}", { table: link.textContent }));
        })
        .catch(() => {
          status.textContent = _("gone");
        });
    }
    box.append(ul);
    return box;
  }

  async function render() {
    const header = el(
      "header",
      { class: "top" },
      el(
        "div",
        { class: "brand" },
        el("span", { class: "logo", "aria-hidden": "true" }, R.cardSVG("AH"), R.cardSVG("KS")),
        el(
          "div",
          {},
          el("h1", { text: "Ramsli" }),
          el("p", { class: "tagline", text: _("Five cards, a turned-up trump, one question: in or out?") }),
        ),
      ),
      el(
        "nav",
        { class: "top-nav" },
        el("a", { href: "/how-to-play?lang=" + R.lang, text: _("How to play") }),
        el("a", { href: "/ledger?lang=" + R.lang, id: "ledger-link", text: _("Pub ledger") }),
        el("a", { href: "/ratings?lang=" + R.lang, id: "ratings-link", text: _("Ratings") }),
        /* club evenings (issue 34): each club's page lists its evenings; the account page lists your clubs */
        el("a", { href: "/account?lang=" + R.lang + "#clubs", id: "evenings-link", text: _("Club evenings") }),
        /* the weekly challenge (issue 35): the same deals for everyone, scored against the field */
        el("a", { href: "/challenge?lang=" + R.lang, id: "challenge-link", text: _("Weekly challenge") }),
        /* the coach's training page: "in or out?" on positions of the training games */
        el("a", { href: "/train?lang=" + R.lang, id: "train-link", text: _("Practise: in or out?") }),
        el("a", {
          href: "/account?lang=" + R.lang,
          id: "account-link",
          text: me.player ? _("{name}: clubs and account", { name: me.player.name }) : _("Log in"),
        }),
        R.langPicker(),
      ),
    );
    const quick = el(
      "section",
      { class: "panel hero" },
      el("div", { class: "name-row" }, el("label", { for: "your-name", text: _("Your name") }), nameInput()),
      el("button", {
        id: "quick",
        class: "primary big",
        type: "button",
        onclick: quickStart,
        text: _("Play now against 4 bots"),
      }),
      el("p", { id: "quick-msg", class: "form-msg bad", role: "alert", hidden: true }),
      el("p", { class: "note", text: _("Five players, traditional rules, ten hands, bots of the easy level.") }),
    );
    const created = el("section", { class: "panel", id: "created", hidden: true });
    app.replaceChildren(
      header,
      el("main", { class: "lobby" }, quick, created, openBox(), setupForm(), joinBox(), await myTablesBox()),
    );
    refreshOpen();
    setInterval(refreshOpen, 10000);
  }
  R.me().then((m) => {
    me = m || { player: null };
    render();
  });
})();
