/* ramsli web: your player (docs/clubs.md). Log in or make a player; then your clubs, your rating,
   your logins on every device, guest seats to claim, your data, deleting the player.
   Passwords go to the server only; the page never keeps one. */
"use strict";
(function () {
  const R = window.R,
    _ = R._,
    el = R.el;
  R.applySettings();
  const app = document.getElementById("app");
  document.title = _("Ramsli — your player");

  /* where to go after logging in (?next=): a page of this server under its path prefix only, read
     with the browser's own URL parser (it drops tabs and newlines, reads "\\" as "/"), so that
     "/\t/evil.example", "//evil.example", "/\\evil.example" or "https://evil.example" go nowhere */
  function nextPath() {
    const n = new URL(location.href).searchParams.get("next");
    if (!n) return null;
    let u;
    try {
      u = new URL(n, location.origin + R.base + "/");
    } catch (e) {
      return null;
    }
    if (u.origin !== location.origin || !(u.protocol === "http:" || u.protocol === "https:")) return null;
    if (!u.pathname.startsWith(R.base + "/")) return null;
    return u.pathname + u.search + u.hash;
  }
  function header() {
    return el(
      "header",
      { class: "top" },
      el(
        "div",
        { class: "brand" },
        el("a", { href: "/?lang=" + R.lang, class: "logo-link" }, el("h1", { text: "Ramsli" })),
      ),
      el(
        "nav",
        { class: "top-nav" },
        el("a", { href: "/?lang=" + R.lang, text: _("Lobby") }),
        el("a", { href: "/ratings?lang=" + R.lang, text: _("Ratings") }),
        R.langPicker(),
      ),
    );
  }
  function field(id, label, attrs) {
    return [el("label", { for: id, text: label }), el("input", Object.assign({ id: id }, attrs))];
  }
  function when(t) {
    try {
      return new Intl.DateTimeFormat(R.lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(t * 1000));
    } catch (e) {
      return new Date(t * 1000).toISOString();
    }
  }
  function done(player) {
    R.settings.name = player.name;
    R.saveSettings();
    const n = nextPath();
    if (n) location.href = n;
    else location.reload();
  }

  function loginForms() {
    const login = el(
      "form",
      { class: "panel form-stack", id: "login" },
      el("h2", { text: _("Log in") }),
      ...field("login-name", _("Name"), { type: "text", maxlength: "24", autocomplete: "username", required: true }),
      ...field("login-password", _("Password"), { type: "password", autocomplete: "current-password", required: true }),
      el("button", { type: "submit", class: "primary", text: _("Log in") }),
    );
    login.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const r = await R.api("POST", "/api/login", {
          name: login.querySelector("#login-name").value,
          password: login.querySelector("#login-password").value,
        });
        done(r.player);
      } catch (e) {
        R.toast(e.message, "", "bad");
      }
    });
    const make = el(
      "form",
      { class: "panel form-stack", id: "new-player" },
      el("h2", { text: _("Make a player") }),
      el("p", {
        class: "note",
        text: _(
          "A player keeps your name from table to table: clubs, seasons and ratings. You may always play as a guest instead.",
        ),
      }),
      ...field("new-name", _("Name"), {
        type: "text",
        maxlength: "24",
        autocomplete: "username",
        required: true,
        value: R.settings.name || "",
      }),
      ...field("new-password", _("Password (at least 8 characters)"), {
        type: "password",
        autocomplete: "new-password",
        required: true,
        minlength: "8",
      }),
      ...field("new-password2", _("The password again"), {
        type: "password",
        autocomplete: "new-password",
        required: true,
      }),
      el(
        "div",
        { class: "check" },
        el("input", { id: "new-listed", type: "checkbox" }),
        el("label", { for: "new-listed", text: _("Show me in the server-wide ratings") }),
      ),
      el("button", { type: "submit", class: "primary", text: _("Make the player") }),
    );
    make.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const pw = make.querySelector("#new-password").value;
      if (pw !== make.querySelector("#new-password2").value) {
        R.toast(_("The two passwords differ."), "", "bad");
        return;
      }
      try {
        const r = await R.api("POST", "/api/players", {
          name: make.querySelector("#new-name").value,
          password: pw,
          listed: make.querySelector("#new-listed").checked,
        });
        done(r.player);
      } catch (e) {
        R.toast(e.message, "", "bad");
      }
    });
    return [login, make];
  }

  /* a login's browser as a person names it ("Chrome on Linux"), not its user-agent string */
  function agentName(ua) {
    const text = String(ua || "");
    const browser =
      [
        [/Edg\//, "Edge"],
        [/OPR\/|Opera/, "Opera"],
        [/Firefox\//, "Firefox"],
        [/Chromium\//, "Chromium"],
        [/Chrome\//, "Chrome"],
        [/Safari\//, "Safari"],
      ].find(([re]) => re.test(text)) || [];
    const system =
      [
        [/Android/, "Android"],
        [/iPhone|iPad|iPod/, "iOS"],
        [/Windows/, "Windows"],
        [/Mac OS X|Macintosh/, "macOS"],
        [/CrOS/, "ChromeOS"],
        [/Linux/, "Linux"],
      ].find(([re]) => re.test(text)) || [];
    if (browser[1] && system[1]) return _("{browser} on {system}", { browser: browser[1], system: system[1] });
    return browser[1] || system[1] || (text ? text.slice(0, 60) : _("a browser"));
  }
  async function loginsBox() {
    const box = el("section", { class: "panel", id: "logins" }, el("h2", { text: _("Where you are logged in") }));
    let list = [];
    try {
      list = await R.api("GET", "/api/me/logins");
    } catch (e) {
      box.append(el("p", { class: "note", text: e.message }));
      return box;
    }
    const ul = el("ul", { class: "plain" });
    for (const l of list) {
      ul.append(
        el(
          "li",
          { class: "row", "data-login": l.login },
          el("span", { class: "agent", title: l.agent || "", text: agentName(l.agent) }),
          el("span", {
            class: "muted",
            text: _("since {when}, last used {last}", { when: when(l.created), last: when(l.last_seen) }),
          }),
          l.current ? el("b", { text: _("this browser") }) : "",
          el("button", {
            type: "button",
            class: "small",
            text: _("End"),
            "aria-label": _("End this login"),
            onclick: async () => {
              try {
                await R.api("DELETE", "/api/me/logins/" + l.login);
                if (l.current) location.reload();
                else render();
              } catch (e) {
                R.toast(e.message, "", "bad");
              }
            },
          }),
        ),
      );
    }
    box.append(
      ul,
      el("button", {
        type: "button",
        id: "end-others",
        text: _("End every other login"),
        onclick: async () => {
          try {
            await R.api("POST", "/api/me/logins/end-others");
            render();
          } catch (e) {
            R.toast(e.message, "", "bad");
          }
        },
      }),
    );
    return box;
  }

  function clubsBox(me) {
    const box = el("section", { class: "panel", id: "clubs" }, el("h2", { text: _("Your clubs") }));
    const ul = el("ul", { class: "plain" });
    for (const c of me.clubs)
      ul.append(
        el(
          "li",
          {},
          el("a", { href: `/c/${c.id}?lang=${R.lang}`, text: c.name }),
          c.role === "owner" ? el("span", { class: "muted", text: " · " + _("owner") }) : "",
        ),
      );
    if (!me.clubs.length)
      ul.append(el("li", { class: "note", text: _("No club yet. Make one, or open a club's invite link.") }));
    const form = el(
      "form",
      { class: "inline", id: "new-club" },
      el("input", {
        id: "club-name",
        type: "text",
        maxlength: "48",
        required: true,
        "aria-label": _("Name of the club"),
        placeholder: _("Name of the club"),
      }),
      el("button", { type: "submit", class: "primary", text: _("Make a club") }),
    );
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const r = await R.api("POST", "/api/clubs", { name: form.querySelector("#club-name").value });
        location.href = R.url(`/c/${r.club.id}?lang=${R.lang}`);
      } catch (e) {
        R.toast(e.message, "", "bad");
      }
    });
    box.append(ul, form);
    return box;
  }

  function claimBox() {
    const box = el(
      "section",
      { class: "panel", id: "claim" },
      el("h2", { text: _("Guest seats of this browser") }),
      el("p", {
        class: "note",
        text: _("Seats you played as a guest in this browser: claim one and it counts as yours."),
      }),
    );
    const ul = el("ul", { class: "plain" });
    for (const t of R.myTables()) {
      if (!t.token) continue;
      ul.append(
        el(
          "li",
          { class: "row" },
          el("span", { text: _("Table {table}, seat {seat}", { table: t.table, seat: t.seat }) }),
          el("button", {
            type: "button",
            class: "small claim",
            text: _("Claim"),
            onclick: async (ev) => {
              try {
                await R.api("POST", "/api/me/claim", { table: t.table, token: t.token });
                ev.target.replaceWith(el("b", { text: _("claimed") }));
              } catch (e) {
                R.toast(e.message, "", "bad");
              }
            },
          }),
        ),
      );
    }
    if (!ul.children.length) ul.append(el("li", { class: "note", text: _("No guest seats in this browser.") }));
    box.append(ul);
    return box;
  }

  /* skill counters by consent (docs/skill.md, issue 35): one switch, off by default; the figure when on */
  async function skillBox(me) {
    const sw = el("input", { id: "skill-opt-in", type: "checkbox", checked: !!me.skill_opt_in });
    sw.addEventListener("change", async () => {
      try {
        await R.api("PUT", "/api/me/skill", { opt_in: sw.checked });
        R.toast(_("Saved."));
        render();
      } catch (e) {
        R.toast(e.message, "", "bad");
        sw.checked = !sw.checked;
      }
    });
    const box = el(
      "section",
      { class: "panel", id: "skill" },
      el("h2", { text: _("Your skill counters") }),
      el(
        "div",
        { class: "check" },
        sw,
        el("label", { for: "skill-opt-in", text: _("Measure and show my skill counters") }),
      ),
      el("p", {
        class: "note",
        text: _(
          "Counters your decisions gained per hand against the expert, luck taken out. Off: nothing is measured or shown.",
        ),
      }),
    );
    if (!me.skill_opt_in) return box;
    let mine;
    try {
      mine = await R.api("GET", "/api/me/skill");
    } catch (e) {
      box.append(el("p", { class: "note", text: e.message }));
      return box;
    }
    const f = mine.figure;
    const num = (x) => (x === null ? "—" : (x > 0 ? "+" : "") + x.toFixed(2));
    box.append(
      el("p", {
        id: "skill-figure",
        text: f.hands
          ? _("Skill: {skill} ± {ci} counters per hand ({n} hands measured); net: {net} counters per hand.", {
              skill: num(f.skill.mean),
              ci: f.skill.ci95 === null ? "?" : f.skill.ci95.toFixed(2),
              n: f.hands,
              net: num(f.net.mean),
            })
          : _("No hand measured yet: your hands are measured after each finished table."),
      }),
    );
    if (mine.pending)
      box.append(el("p", { class: "note", text: _("{n} hands still to measure.", { n: mine.pending }) }));
    box.append(
      el(
        "details",
        {},
        el("summary", { text: _("What it means") }),
        el("p", {
          text: _(
            "For each of your decisions the coach values your choice and the expert bot's choice from what you knew; the difference, added up over a hand, is that hand's skill counters. The cards you were dealt and how the others' cards fell do not count. Above zero: your decisions gained counters against the expert's. The interval narrows as more hands are measured; the expert is not perfect, so read small differences with care.",
          ),
        }),
        el("a", { href: "/ratings?lang=" + R.lang + "#skill", text: _("Skill rating") }),
      ),
    );
    return box;
  }

  function settingsBox(me) {
    const listed = el("input", { id: "listed", type: "checkbox", checked: me.player.listed });
    listed.addEventListener("change", async () => {
      try {
        await R.api("PUT", "/api/me", { listed: listed.checked });
        R.toast(_("Saved."));
      } catch (e) {
        R.toast(e.message, "", "bad");
        listed.checked = !listed.checked;
      }
    });
    const r = me.rating;
    const pw = el(
      "form",
      { class: "form-stack", id: "password" },
      el("h3", { text: _("Change the password") }),
      ...field("pw-old", _("Password now"), { type: "password", autocomplete: "current-password", required: true }),
      ...field("pw-new", _("New password"), {
        type: "password",
        autocomplete: "new-password",
        required: true,
        minlength: "8",
      }),
      el("button", { type: "submit", text: _("Change the password") }),
    );
    pw.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        await R.api("POST", "/api/me/password", {
          password: pw.querySelector("#pw-old").value,
          new_password: pw.querySelector("#pw-new").value,
        });
        R.toast(_("Password changed; your other logins were ended."));
        render();
      } catch (e) {
        R.toast(e.message, "", "bad");
      }
    });
    const del = el(
      "form",
      { class: "form-stack", id: "delete" },
      el("h3", { text: _("Delete your player") }),
      el("p", {
        class: "note",
        text: _('Your name and password are removed, every login ends; your past seats show as "a former player".'),
      }),
      ...field("del-password", _("Password"), { type: "password", autocomplete: "current-password", required: true }),
      el("button", { type: "submit", class: "danger", text: _("Delete my player") }),
    );
    del.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      if (!confirm(_("Delete your player for good?"))) return;
      try {
        await R.api("DELETE", "/api/me", { password: del.querySelector("#del-password").value });
        location.href = R.url("/?lang=" + R.lang);
      } catch (e) {
        R.toast(e.message, "", "bad");
      }
    });
    return el(
      "section",
      { class: "panel", id: "settings" },
      el("h2", { text: _("You") }),
      el("p", {
        id: "my-rating",
        text: r
          ? _("Your rating: {rating} ± {sigma} ({n} sessions)", {
              rating: r.rating.toFixed(1),
              sigma: r.uncertainty.toFixed(1),
              n: r.sessions,
            })
          : _("No rated session yet."),
      }),
      el(
        "div",
        { class: "check" },
        listed,
        el("label", { for: "listed", text: _("Show me in the server-wide ratings") }),
      ),
      el(
        "p",
        {},
        el("a", {
          class: "button",
          id: "download",
          href: "/api/me/data",
          download: "ramsli-player.json",
          text: _("Download your data"),
        }),
      ),
      pw,
      del,
    );
  }

  /* ratings by consent (issue 38.11): the club ledgers naming this member, waiting for their word */
  async function confirmBox() {
    let list = [];
    try {
      list = await R.api("GET", "/api/me/confirmations");
    } catch (e) {
      list = [];
    }
    const box = el(
      "section",
      { class: "panel", id: "confirmations" },
      el("h2", { text: _("Sessions to confirm") }),
      el("p", {
        class: "note",
        text: _(
          "A club member kept these ledgers with you at a seat. They count for the ratings only when every player named confirms them.",
        ),
      }),
    );
    const ul = el("ul", { class: "plain" });
    for (const c of list) {
      const result = (c.standings || []).map((s) => s.name + " " + s.stack).join(", ");
      ul.append(
        el(
          "li",
          { class: "row", "data-ledger": c.ledger },
          el("span", { text: _("{hands} hands: {result}", { hands: c.hands, result: result }) }),
          el("button", {
            type: "button",
            class: "small confirm-ledger",
            text: _("Confirm"),
            onclick: async (ev) => {
              try {
                await R.api("POST", "/api/ledgers/" + c.ledger + "/confirm");
                ev.target.replaceWith(el("b", { text: _("confirmed") }));
              } catch (e) {
                R.toast(e.message, "", "bad");
              }
            },
          }),
        ),
      );
    }
    if (!ul.children.length) ul.append(el("li", { class: "note", text: _("Nothing to confirm.") }));
    box.append(ul);
    return box;
  }

  async function render() {
    R._me = null;
    const me = await R.me();
    const main = el("main", { class: "lobby" });
    if (!me.player) main.append(...loginForms());
    else {
      const out = el("button", {
        type: "button",
        id: "logout",
        text: _("Log out"),
        onclick: async () => {
          await R.api("POST", "/api/logout");
          location.reload();
        },
      });
      main.append(
        el(
          "section",
          { class: "panel hero" },
          el("h2", { id: "who", text: _("Logged in as {name}", { name: me.player.name }) }),
          el("div", {}, out),
        ),
        clubsBox(me),
        await confirmBox(),
        settingsBox(me),
        await skillBox(me),
        await loginsBox(),
        claimBox(),
      );
    }
    app.replaceChildren(header(), main);
  }
  render();
})();
