/* ramsli web: the pub ledger. ramsli keeps the counters for a table playing with real cards.
   Modes (R.page.mode): "setup" (new ledger), "keep" (the keeper's phone), "follow" (read-only link).
   Every settlement is the server's (the engine's R5); this page only collects what the table declared. */
"use strict";

(function () {
  const _ = R._,
    el = R.el,
    page = R.page;
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = R.url("/static/ledger.css");
  document.head.append(css);
  const app = document.getElementById("app");
  let state = null,
    editing = null;

  function money(n) {
    if (!state || !state.cents) return String(n);
    return new Intl.NumberFormat(R.lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n / 100);
  }
  /* the site's header, as the lobby, club and account pages have it: the title, the links, the language */
  function header(title) {
    return el(
      "header",
      { class: "top lg-top no-print" },
      el("div", { class: "brand" }, el("h1", { text: title })),
      el(
        "nav",
        { class: "top-nav" },
        el("a", { href: "/?lang=" + R.lang, class: "lg-home", text: _("Lobby") }),
        el("a", { href: "/account?lang=" + R.lang, text: _("Your player") }),
        R.langPicker(),
      ),
    );
  }
  function alertBox() {
    return el("div", { id: "lg-alert", class: "lg-alert", role: "alert", "aria-live": "assertive" });
  }
  /* the server's refusal, in the page's language (it names the rule); nothing was saved */
  function showError(err) {
    const box = document.getElementById("lg-alert");
    box.replaceChildren(
      el("strong", { text: err.message || _("That entry was refused; nothing was saved.") }),
      el("div", { class: "lg-detail", text: _("That entry was refused; nothing was saved.") }),
    );
    box.focus && box.setAttribute("tabindex", "-1");
    box.focus();
  }
  async function call(method, path, body) {
    const opts = { method: method, headers: R.headers() };
    if (body !== undefined) opts.body = JSON.stringify(body);
    const r = await fetch(R.url(path), opts);
    const data = await r.json().catch(() => null);
    if (!r.ok) {
      const e = new Error((data && data.message) || r.statusText);
      e.code = data && (data.code || data.error);
      throw e;
    }
    return data;
  }

  /* ---- setup ---- */
  function setup() {
    const names = [],
      members = [];
    const list = el("div", { class: "lg-names" });
    for (let i = 0; i < 6; i++) {
      const inp = el("input", { id: "name-" + i, type: "text", maxlength: "24", autocomplete: "off" });
      const who = el("select", {
        id: "member-" + i,
        hidden: true,
        "aria-label": _("Club member at seat {n}", { n: i + 1 }),
      });
      who.addEventListener("change", () => {
        const opt = who.selectedOptions[0];
        inp.disabled = !!who.value;
        if (who.value) inp.value = opt.textContent;
      });
      names.push(inp);
      members.push(who);
      list.append(
        el("label", { for: "name-" + i, text: _("Player {n}", { n: i + 1 }) }),
        el("div", { class: "lg-seat" }, who, inp),
      );
    }
    /* a club's ledger counts for the club's season: its members sit at the seats (docs/clubs.md) */
    const club = el("select", { id: "club" }, el("option", { value: "", text: _("no club") }));
    const clubRow = el("div", { id: "club-row", hidden: true }, el("label", { for: "club", text: _("Club") }), club);
    async function pickClub() {
      for (const w of members) {
        w.replaceChildren(el("option", { value: "", text: _("a guest (type the name)") }));
        w.hidden = !club.value;
      }
      for (let i = 0; i < 6; i++) names[i].disabled = false;
      if (!club.value) return;
      try {
        const info = await call("GET", "/api/clubs/" + club.value);
        for (const w of members)
          for (const m of info.members) w.append(el("option", { value: m.player, text: m.name }));
      } catch (e) {
        showError(e);
      }
    }
    club.addEventListener("change", pickClub);
    R.me().then((me) => {
      if (!me.player || !me.clubs || !me.clubs.length) return;
      for (const c of me.clubs) club.append(el("option", { value: c.id, text: c.name, selected: c.id === page.club }));
      clubRow.hidden = false;
      if (club.value) pickClub();
    });
    const preset = el("select", { id: "preset" });
    for (const p of page.presets) preset.append(el("option", { value: p, text: R.presetName(p) }));
    const stack = el("input", { id: "stack", type: "number", min: "1", value: "20", inputmode: "numeric" });
    const ante = el("input", { id: "ante", type: "number", min: "0", value: "1", inputmode: "numeric" });
    const hands = el("input", { id: "hands", type: "number", min: "1", placeholder: "—", inputmode: "numeric" });
    const first = el("select", { id: "first" });
    for (let i = 0; i < 6; i++) first.append(el("option", { value: String(i), text: _("Player {n}", { n: i + 1 }) }));
    const cents = el("input", { id: "cents", type: "checkbox" });
    preset.addEventListener("change", () => {
      if (preset.value === "rounce") cents.checked = true;
    });
    const form = el(
      "form",
      {
        class: "lg-card",
        onsubmit: async (ev) => {
          ev.preventDefault();
          const seats = names
            .map((n, i) => ({ name: n.value.trim(), player: members[i].value || null }))
            .filter((x) => x.name);
          const chosen = seats.map((x) => x.name);
          const options = { starting_stack: Number(stack.value), ante: Number(ante.value) };
          if (hands.value) options.end = ["hands:" + Number(hands.value)];
          const body = {
            names: chosen,
            preset: preset.value,
            options: options,
            first_dealer: Math.min(Number(first.value), Math.max(0, chosen.length - 1)),
            cents: cents.checked,
          };
          if (club.value) {
            body.club = club.value;
            body.players = seats.map((x) => x.player);
          }
          try {
            const made = await call("POST", "/api/ledgers", body);
            location.href = R.url(made.page) + "?lang=" + R.lang;
          } catch (e) {
            showError(e);
          }
        },
      },
      el("p", {
        class: "note",
        text: _("Play with a real pack; one phone keeps the counters. ramsli settles every hand by the rules."),
      }),
      clubRow,
      el("fieldset", {}, el("legend", { text: _("Players, clockwise") }), list),
      el("label", { for: "preset", text: _("Preset") }),
      preset,
      el("label", { for: "stack", text: _("Starting stack (counters)") }),
      stack,
      el("label", { for: "ante", text: _("Ante (counters)") }),
      ante,
      el("label", { for: "hands", text: _("End after this many hands (optional)") }),
      hands,
      el("label", { for: "first", text: _("First dealer") }),
      first,
      el("label", { class: "lg-check" }, cents, " ", _("We play for cents (show stakes as money)")),
      alertBox(),
      el("button", { type: "submit", class: "primary big", id: "lg-create", text: _("Start the ledger") }),
    );
    app.replaceChildren(header(_("Pub ledger")), el("main", { class: "lg-main" }, form));
  }

  /* ---- the entry form (next hand or a correction) ---- */
  function entryForm() {
    const r = state.rules,
      names = state.names;
    const number = editing ? editing.number : state.hands.length + 1;
    const old = editing ? editing.entry : null;
    const seats = editing ? names.map((_n, i) => i).filter((i) => editing.seats.includes(i)) : state.order;
    const rows = el("div", { class: "lg-rows" });
    const grSel = el("select", { id: "gr" }, el("option", { value: "", text: _("nobody") }));
    const inputs = {};
    for (const s of seats) {
      const wasIn = old ? old.active.includes(s) : r.compulsory;
      const inBox = el("input", { type: "checkbox", id: "in-" + s, checked: wasIn, disabled: r.compulsory });
      const tricks = el("input", {
        type: "number",
        id: "tricks-" + s,
        min: "0",
        max: "5",
        inputmode: "numeric",
        value: old && old.tricks[s] !== undefined ? String(old.tricks[s]) : "",
        "aria-label": _("Tricks of {name}", { name: names[s] }),
      });
      const sync = () => {
        tricks.disabled = !inBox.checked;
        if (!inBox.checked) tricks.value = "";
      };
      inBox.addEventListener("change", sync);
      sync();
      const row = el(
        "div",
        { class: "lg-row" },
        el(
          "label",
          { class: "lg-in", for: "in-" + s },
          inBox,
          " ",
          el("span", { class: "lg-name", text: names[s] }),
          s === (editing ? editing.dealer : state.dealer)
            ? el("span", { class: "lg-dealer", text: " · " + _("dealer") })
            : "",
        ),
        el(
          "label",
          { class: "lg-tricks", for: "tricks-" + s },
          el("span", { class: "lg-sr", text: _("tricks") }),
          tricks,
        ),
      );
      inputs[s] = { inBox: inBox, tricks: tricks };
      if (r.targets) {
        const t = el(
          "select",
          { id: "target-" + s, "aria-label": _("Target of {name}", { name: names[s] }) },
          el("option", { value: "", text: _("no target") }),
        );
        for (let k = 2; k <= r.largest_target; k++)
          t.append(
            el("option", { value: String(k), text: _("target {n}", { n: k }), selected: old && old.targets[s] === k }),
          );
        inputs[s].target = t;
        row.append(t);
      }
      rows.append(row);
      grSel.append(el("option", { value: String(s), text: names[s], selected: old && old.general_rams === s }));
    }
    const form = el(
      "form",
      {
        class: "lg-card no-print",
        id: "lg-entry",
        onsubmit: async (ev) => {
          ev.preventDefault();
          const hand = { active: [], tricks: {}, targets: {}, general_rams: null };
          for (const s of seats) {
            const x = inputs[s];
            if (x.inBox.checked) {
              hand.active.push(s);
              hand.tricks[s] = Number(x.tricks.value || 0);
            }
            if (x.target && x.target.value) hand.targets[s] = Number(x.target.value);
          }
          if (r.general_rams && grSel.value !== "") hand.general_rams = Number(grSel.value);
          const base = "/api/ledgers/" + state.ledger + "/hands";
          try {
            state = editing
              ? await call("PUT", base + "/" + editing.number + "?token=" + page.token, hand)
              : await call("POST", base + "?token=" + page.token, hand);
            R.toast(
              editing
                ? _("Hand {n} corrected; later hands settled again.", { n: number })
                : _("Hand {n} booked.", { n: number }),
            );
            editing = null;
            render();
            const first = document.querySelector("#lg-entry input:not([disabled])");
            if (first) first.focus();
          } catch (e) {
            showError(e);
          }
        },
      },
      el("h2", { text: editing ? _("Correct hand {n}", { n: number }) : _("Hand {n}", { n: number }) }),
      /* an evening's real-card table: the printed score sheet's check digit of this row */
      rowCheck(editing ? editing.check : state.next_check),
      el("p", {
        class: "note",
        text: r.compulsory
          ? _("Everyone is in. Enter the tricks each player took.")
          : _("Tick who was in, then the tricks each took."),
      }),
      rows,
      r.general_rams ? el("label", { for: "gr", text: _("General Rams announced by") }) : "",
      r.general_rams ? grSel : "",
      alertBox(),
      el(
        "div",
        { class: "lg-buttons" },
        el("button", {
          type: "submit",
          class: "primary",
          id: "lg-book",
          text: editing ? _("Save the correction") : _("Book the hand"),
        }),
        editing
          ? el("button", {
              type: "button",
              text: _("Cancel"),
              onclick: () => {
                editing = null;
                render();
              },
            })
          : "",
      ),
    );
    return form;
  }

  /* ---- the books ---- */
  function standings() {
    const t = el(
      "table",
      { class: "lg-stand" },
      el("caption", { text: state.over ? _("Final standings") : _("Stacks") }),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", text: _("Player") }),
          el("th", { scope: "col", text: state.cents ? _("Money") : _("Counters") }),
          el("th", { scope: "col", text: "±" }),
        ),
      ),
    );
    const body = el("tbody");
    for (const s of state.standings) {
      body.append(
        el(
          "tr",
          { class: s.winner && state.over ? "lg-winner" : "" },
          el("th", { scope: "row", text: s.name + (s.winner && state.over ? " ★ " + _("winner") : "") }),
          el("td", { text: money(s.stack) }),
          el("td", { text: (s.net > 0 ? "+" : "") + money(s.net) }),
        ),
      );
    }
    body.append(
      el(
        "tr",
        { class: "lg-pot" },
        el("th", { scope: "row", text: state.over ? _("Pot left unwon") : _("Pot") }),
        el("td", { id: "lg-pot", text: money(state.pot) }),
        el("td"),
      ),
    );
    t.append(body);
    return t;
  }
  function notes(h) {
    const d = h.settlement,
      out = [];
    if (d.kind === "thrown-in") out.push(_("thrown in"));
    if (d.kind === "walkover") out.push(_("walkover"));
    if (d.general_rams) out.push(_("General Rams") + " " + d.general_rams.seat + (d.general_rams.made ? " ✓" : " ✗"));
    for (const t of d.targets) out.push(t.seat + " " + _("target {n}", { n: t.target }) + (t.met ? " ✓" : " ✗"));
    const bete = d.seats.filter((x) => x.bete).map((x) => x.seat);
    if (bete.length) out.push(_("bete") + ": " + bete.join(", "));
    if (h.left.length) out.push(_("bust") + ": " + h.left.join(", "));
    if (h.edited) out.push(_("corrected"));
    return out.join(" · ");
  }
  function rowCheck(digit) {
    if (!state.evening || !digit) return "";
    return el("p", {
      class: "lg-row-check",
      id: "lg-row-check",
      text: _("Check digit of this row on the printed sheet: {digit}", { digit }),
    });
  }
  function sheet() {
    const names = state.names;
    const t = el("table", { class: "lg-sheet", id: "lg-sheet" }, el("caption", { text: _("Score sheet") }));
    t.append(
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", text: "#" }),
          el("th", { scope: "col", text: _("dealer") }),
          state.evening ? el("th", { scope: "col", text: _("Check") }) : "",
          names.map((n) => el("th", { scope: "col", text: n })),
          el("th", { scope: "col", text: _("Pot") }),
          el("th", { scope: "col", text: _("Notes") }),
          state.keeper && !state.over ? el("th", { scope: "col", class: "no-print", text: "" }) : "",
        ),
      ),
    );
    const body = el("tbody");
    for (const h of state.hands) {
      const d = h.settlement;
      body.append(
        el(
          "tr",
          { class: h.edited ? "lg-edited" : "" },
          el("th", { scope: "row", text: String(h.number) }),
          el("td", { text: h.dealer }),
          state.evening ? el("td", { class: "lg-check", text: h.check || "" }) : "",
          d.seats.map((x, i) =>
            el(
              "td",
              {},
              el("span", { class: "lg-stack", text: money(h.stacks[i]) }),
              x.in
                ? el("small", { class: "lg-t", text: d.kind === "played" ? " (" + x.tricks + ")" : " ✓" })
                : el("small", { class: "lg-t", text: " –" }),
            ),
          ),
          el("td", { text: money(h.pot) }),
          el("td", { class: "lg-notes", text: notes(h) }),
          state.keeper && !state.over
            ? el(
                "td",
                { class: "no-print" },
                el("button", {
                  type: "button",
                  class: "small",
                  "aria-label": _("Correct hand {n}", { n: h.number }),
                  text: _("Correct"),
                  onclick: () => {
                    editing = {
                      number: h.number,
                      entry: h.entry,
                      dealer: names.indexOf(h.dealer),
                      seats: names
                        .map((_x, i) => i)
                        .filter((i) => !state.hands.some((e) => e.number < h.number && e.left.includes(names[i]))),
                    };
                    render();
                    document.getElementById("lg-entry").scrollIntoView();
                  },
                }),
              )
            : "",
        ),
      );
    }
    t.append(body);
    return el("div", { class: "lg-scroll", tabindex: "0", role: "region", "aria-label": _("Score sheet") }, t);
  }
  function payments() {
    const h = state.hands[state.hands.length - 1];
    if (!h) return "";
    const reasons = {
      pot: _("pot"),
      "general-rams": _("General Rams"),
      bete: _("bete"),
      "general-rams-penalty": _("General Rams penalty"),
      target: _("target"),
      "target-missed": _("target missed"),
    };
    const ul = el("ul", { class: "lg-pay" });
    for (const p of h.settlement.payments) {
      if (!p.owed) continue;
      const from = p.payer || _("the pot"),
        to = p.payee || _("the next pot");
      ul.append(
        el("li", {
          text:
            _("{from} → {to}: {amount} ({why})", {
              from: from,
              to: to,
              amount: money(p.paid),
              why: reasons[p.reason] || p.reason,
            }) + (p.paid < p.owed ? " — " + _("short by {n}", { n: money(p.owed - p.paid) }) : ""),
        }),
      );
    }
    if (!ul.children.length) ul.append(el("li", { text: _("Nothing moved; the pot carries over.") }));
    return el(
      "section",
      { class: "lg-card", "aria-label": _("Who pays whom") },
      el("h2", { text: _("Hand {n}: who pays whom", { n: h.number }) }),
      ul,
      el("p", { class: "note", text: _("Carried to the next hand: {n}", { n: money(h.pot) }) }),
    );
  }
  function share() {
    const url = location.origin + R.url(state.follow) + "?lang=" + R.lang;
    const csvHref = state.csv + "?token=" + page.token;
    return el(
      "section",
      { class: "lg-card no-print" },
      el(
        "div",
        { class: "lg-buttons" },
        el("a", {
          class: "button",
          id: "lg-csv",
          href: csvHref,
          download: "ramsli-ledger.csv",
          text: _("Download CSV"),
        }),
        el("button", {
          type: "button",
          id: "lg-print",
          text: _("Print the score sheet"),
          onclick: () => window.print(),
        }),
        state.keeper && !state.over
          ? el("button", {
              type: "button",
              id: "lg-end",
              text: _("End the session"),
              onclick: async () => {
                if (!confirm(_("End the session now? The standings become final."))) return;
                try {
                  state = await call("POST", "/api/ledgers/" + state.ledger + "/end?token=" + page.token);
                  render();
                } catch (e) {
                  showError(e);
                }
              },
            })
          : "",
      ),
      state.keeper
        ? el(
            "p",
            {},
            el("label", { for: "lg-follow", text: _("Others follow read-only with this link:") }),
            el("input", {
              id: "lg-follow",
              type: "text",
              readonly: true,
              value: url,
              onfocus: (e) => e.target.select(),
            }),
          )
        : "",
    );
  }
  /* an evening's real-card table (state.evening = {id, round, table, name}): where it belongs, and
     the way back once its hands are played (issue 34) */
  function eveningLine() {
    const ev = state.evening;
    if (!ev || typeof ev !== "object" || !ev.id) return "";
    const href = "/e/" + encodeURIComponent(ev.id) + "?lang=" + R.lang;
    return el(
      "p",
      { class: "lg-evening", id: "ledger-evening" },
      el("a", {
        href: R.url(href),
        text: [ev.name || _("Evening"), _("Round {n}", { n: ev.round }), _("Table {n}", { n: ev.table })].join(" · "),
      }),
      state.over
        ? el("a", {
            class: "button primary lg-back",
            id: "back-to-evening",
            href: R.url(href),
            text: _("Back to the evening"),
          })
        : "",
    );
  }
  /* ratings by consent (issue 38.11): who of the members named confirmed; a named member confirms here */
  function consentLine() {
    const c = state.consent;
    if (!c) return "";
    let text;
    if (!c.over) text = _("Rated once every player named confirms the result after the end.");
    else if (c.rated) text = _("Rated: every player named confirmed the result.");
    else if (c.waiting.length)
      text = _("Not rated yet: waiting for {names} to confirm the result.", { names: R.listText(c.waiting) });
    else text = _("Not rated.");
    return el(
      "p",
      { class: "note lg-consent", id: "ledger-consent" },
      text,
      c.over && c.you === "confirm"
        ? el("button", {
            type: "button",
            class: "small primary",
            id: "confirm-ledger",
            text: _("Confirm the result"),
            onclick: async () => {
              try {
                await R.api("POST", "/api/ledgers/" + page.ledger + "/confirm");
                await load();
              } catch (e) {
                showError(e);
              }
            },
          })
        : "",
    );
  }
  function render() {
    const live = el("p", { class: "lg-sr", text: state.over ? _("The session is over.") : "" });
    const kids = [
      header(_("Pub ledger")),
      el(
        "main",
        { class: "lg-main" },
        eveningLine(),
        state.over ? el("p", { class: "lg-over", text: _("The session is over.") }) : "",
        state.keeper && (!state.over || editing)
          ? entryForm()
          : state.keeper
            ? ""
            : el("p", { class: "note no-print", text: _("Read-only: the keeper's phone enters the hands.") }),
        standings(),
        consentLine(),
        payments(),
        sheet(),
        share(),
        live,
      ),
    ];
    app.replaceChildren(...kids);
  }
  /* the follower's one live region (outside the redrawn page): a new hand and the end, each said once */
  let followSaid = null;
  function followNews(old) {
    let box = document.getElementById("lg-news");
    if (!box) {
      box = el("div", { id: "lg-news", class: "lg-sr", "aria-live": "polite" });
      document.body.append(box);
    }
    const hands = (state.hands || []).length;
    if (old && hands > (old.hands || []).length) box.append(el("p", { text: _("Hand {n} is entered.", { n: hands }) }));
    if (old && state.over && !old.over) box.append(el("p", { text: _("The session is over.") }));
  }
  async function load() {
    try {
      const got = await call("GET", "/api/ledgers/" + page.ledger + "?token=" + page.token);
      const text = JSON.stringify(got);
      if (page.mode === "follow" && text === followSaid) return; // nothing new: the page stays as it is
      const old = followSaid === null ? null : JSON.parse(followSaid);
      followSaid = text;
      state = got;
      followNews(old);
      const at = document.activeElement && document.activeElement.id;
      render();
      const again = at && document.getElementById(at);
      if (again) again.focus();
    } catch (e) {
      app.replaceChildren(header(_("Pub ledger")), el("main", { class: "lg-main" }, alertBox()));
      showError(e);
    }
  }

  if (page.mode === "setup") setup();
  else {
    load();
    if (page.mode === "follow")
      setInterval(() => {
        if (!state || !state.over) load();
      }, 5000);
  }
})();
