/* ramsli web: a club (docs/clubs.md). Modes (R.page.mode): "club" (season table, chart, sessions,
   members, ratings, invites), "sheet" (one session's score sheet), "join" (an invite link),
   "ratings" (the server-wide ratings). Every number comes from the server; the chart is drawn here
   as SVG (nothing from the internet). No card is ever shown here (R7). */
"use strict";
(function () {
  const R = window.R,
    _ = R._,
    ngettext = R.ngettext,
    el = R.el,
    page = R.page;
  R.applySettings();
  const app = document.getElementById("app");
  const SVG = "http://www.w3.org/2000/svg";
  const COLOURS = [
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
    "#bcbd22",
  ];
  document.title = _("Ramsli — club");

  function header(title) {
    return el(
      "header",
      { class: "top" },
      el("div", { class: "brand" }, el("div", {}, el("h1", { id: "title", text: title }))),
      el(
        "nav",
        { class: "top-nav" },
        el("a", { href: "/?lang=" + R.lang, text: _("Lobby") }),
        el("a", { href: "/account?lang=" + R.lang, text: _("Your player") }),
        el("a", { href: "/ratings?lang=" + R.lang, text: _("Ratings") }),
        R.langPicker(),
      ),
    );
  }
  function who(name, bot) {
    if (bot) return _("bot ({level})", { level: R.botLevel(bot) });
    return name === null || name === undefined ? _("a former player") : name;
  }
  function signed(n) {
    return (n > 0 ? "+" : "") + n;
  }
  function num(n, digits) {
    return new Intl.NumberFormat(R.lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
  }
  function when(t) {
    try {
      return new Intl.DateTimeFormat(R.lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(t * 1000));
    } catch (e) {
      return new Date(t * 1000).toISOString();
    }
  }
  /* an evening's start (ISO 8601, maybe with a "[Zone/Name]" suffix) in the reader's locale */
  function startsText(iso) {
    return R.startsText(iso);
  }
  function fail(e) {
    const login = e.code === "not_logged_in" || e.code === "login_unknown" || e.code === "login_expired";
    app.replaceChildren(
      header("Ramsli"),
      el(
        "main",
        { class: "club" },
        el(
          "section",
          { class: "panel", id: "refused" },
          el("p", { role: "alert", text: e.message }),
          login
            ? el("a", {
                class: "button primary",
                href: "/account?lang=" + R.lang + "&next=" + encodeURIComponent(location.pathname),
                text: _("Log in"),
              })
            : "",
        ),
      ),
    );
  }
  /* how a ratings list is ordered, a tap away from its words (OpenSkill: μ − 3σ) */
  function orderNote() {
    return el(
      "details",
      { class: "order-note note" },
      el("summary", { text: _("Ordered by rating minus three uncertainties") }),
      el("p", {
        text: _(
          "A rating is an estimate of skill (OpenSkill), shown with its uncertainty. A player with few sessions is very uncertain, so the list puts first whose skill is surely high: it is ordered by rating − 3 × uncertainty.",
        ),
      }),
    );
  }
  /* the club's ratings: its members ranked, and apart, without a rank, the bots and guests who
     played at its tables (they are no members) */
  function clubRatings(info) {
    const ids = new Set((info.members || []).map((m) => m.player));
    const members = info.ratings.filter((r) => !r.bot && ids.has(r.player));
    const others = info.ratings.filter((r) => r.bot || !ids.has(r.player));
    return [
      el("h2", { text: _("Ratings in the club") }),
      orderNote(),
      el("div", { id: "member-ratings" }, ratingRows(members, _("Members"))),
      others.length
        ? el(
            "div",
            { id: "other-ratings" },
            ratingRows(others, _("Bots and guests at the club's tables (not members)"), false),
          )
        : "",
    ];
  }
  function ratingRows(list, caption, ranked = true) {
    const t = el(
      "table",
      { class: "season ratings" },
      el("caption", { text: caption }),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", text: "#" }),
          el("th", { scope: "col", class: "name", text: _("Player") }),
          el("th", { scope: "col", text: _("Rating") }),
          el("th", { scope: "col", text: _("Sessions") }),
        ),
      ),
    );
    const body = el("tbody");
    list.forEach((r, i) =>
      body.append(
        el(
          "tr",
          { "data-player": r.player },
          el("td", { text: ranked ? String(i + 1) : "–" }),
          el("td", { class: "name", text: who(r.name, r.bot ? r.name : null) }),
          el("td", { class: "rating", text: num(r.rating, 1) + " ± " + num(r.uncertainty, 1) }),
          el("td", { text: String(r.sessions) }),
        ),
      ),
    );
    if (!list.length)
      body.append(el("tr", {}, el("td", { colspan: "4", class: "note", text: _("No rated session yet.") })));
    t.append(body);
    return el("div", { class: "season-scroll" }, t);
  }

  /* ---- the season table: sortable ---- */
  const COLUMNS = [
    ["name", () => _("Player"), (r) => who(r.name)],
    ["sessions", () => _("Sessions"), (r) => String(r.sessions)],
    ["hands", () => _("Hands"), (r) => String(r.hands)],
    ["net", () => _("Net counters"), (r) => signed(r.net)],
    ["per_hand", () => _("Per hand"), (r) => (r.per_hand > 0 ? "+" : "") + num(r.per_hand, 2)],
    ["skill_hand", () => _("Skill / hand"), (r) => skillText(r.skill)],
    ["in_pct", () => _("In %"), (r) => num(r.in_pct, 1)],
    ["bete_pct", () => _("Bete %"), (r) => num(r.bete_pct, 1)],
    ["pots", () => _("Pots won"), (r) => String(r.pots)],
    ["points", () => _("Points"), (r) => num(r.points, 1)],
  ];
  /* skill counters per hand ± the 95 % interval (docs/skill.md); "—" for a player who did not opt in */
  function skillText(f) {
    if (!f || !f.hands || f.skill.mean === null) return "—";
    return (
      (f.skill.mean > 0 ? "+" : "") + num(f.skill.mean, 2) + (f.skill.ci95 === null ? "" : " ± " + num(f.skill.ci95, 2))
    );
  }
  /* the skill rating: opted-in players with enough hands, ordered by the lower end of the interval */
  function skillRows(data, caption) {
    const t = el(
      "table",
      { class: "season ratings skill" },
      el("caption", { text: caption }),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", text: "#" }),
          el("th", { scope: "col", class: "name", text: _("Player") }),
          el("th", { scope: "col", text: _("Skill / hand") }),
          el("th", { scope: "col", text: _("Net / hand") }),
          el("th", { scope: "col", text: _("Hands measured") }),
        ),
      ),
    );
    const body = el("tbody");
    data.rows.forEach((r) =>
      body.append(
        el(
          "tr",
          { "data-player": r.player },
          el("td", { text: String(r.rank) }),
          el("td", { class: "name", text: who(r.name) }),
          el("td", { class: "rating", text: skillText(r) }),
          el("td", { text: r.net.mean === null ? "—" : (r.net.mean > 0 ? "+" : "") + num(r.net.mean, 2) }),
          el("td", { text: String(r.hands) }),
        ),
      ),
    );
    if (!data.rows.length)
      body.append(el("tr", {}, el("td", { colspan: "5", class: "note", text: _("Nobody listed yet.") })));
    t.append(body);
    return el(
      "div",
      { id: "skill-rating" },
      el("p", {
        class: "note",
        text: _(
          "Skill counters: counters your decisions gained per hand against the expert, luck taken out. Only players who chose to share them, with at least {n} hands measured; ordered by the lower end of the 95 % interval.",
          { n: data.min_hands },
        ),
      }),
      el("div", { class: "season-scroll" }, t),
    );
  }
  function seasonTable(data) {
    data.rows.forEach((r) => {
      r.skill_hand = r.skill && r.skill.skill.mean !== null ? r.skill.skill.mean : -1e9;
    });
    let key = "points",
      desc = true;
    const wrap = el("div", { class: "season-scroll" });
    function draw() {
      const rows = data.rows.slice().sort((a, b) => {
        const x = a[key],
          y = b[key];
        const c = typeof x === "string" || x === null ? String(x || "").localeCompare(String(y || ""), R.lang) : x - y;
        return desc ? -c : c;
      });
      const head = el(
        "tr",
        {},
        COLUMNS.map(([k, label]) =>
          el(
            "th",
            {
              scope: "col",
              class: k === "name" ? "name" : "",
              "aria-sort": k === key ? (desc ? "descending" : "ascending") : "none",
            },
            el("button", {
              type: "button",
              "data-sort": k,
              text: label(),
              onclick: () => {
                if (key === k) desc = !desc;
                else {
                  key = k;
                  desc = k !== "name";
                }
                draw();
                const b = wrap.querySelector(`[data-sort="${k}"]`);
                if (b) b.focus();
              },
            }),
          ),
        ),
      );
      const body = el(
        "tbody",
        {},
        rows.map((r) =>
          el(
            "tr",
            { "data-player": r.player },
            COLUMNS.map(([k, _l, f]) => el("td", { class: k === "name" ? "name" : k, text: f(r) })),
          ),
        ),
      );
      // the dates in the page's language; the caption above the box that scrolls, so a phone shows it whole
      const day = (iso) => new Intl.DateTimeFormat(R.lang, { dateStyle: "medium" }).format(new Date(iso + "T12:00"));
      const caption = _("Season {name}: {from} to {to}", {
        name: data.season.name,
        from: day(data.season.starts),
        to: day(data.season.ends),
      });
      wrap.replaceChildren(
        el("p", { class: "season-caption", "aria-hidden": "true", text: caption }),
        el(
          "table",
          { class: "season", id: "season-table" },
          el("caption", { class: "sr-only", text: caption }),
          el("thead", {}, head),
          body,
        ),
      );
    }
    draw();
    return wrap;
  }

  /* ---- each member's running total over the season, as SVG ---- */
  function chart(data) {
    const players = data.rows.filter((r) => (data.running[r.player] || []).length);
    const box = el("div", { class: "chart", id: "chart" });
    if (!players.length) return box;
    const n = data.sessions.length;
    const W = 800,
      H = 300,
      L = 48,
      Rm = 12,
      T = 12,
      B = 30;
    let lo = 0,
      hi = 0;
    for (const p of players)
      for (const [, v] of data.running[p.player]) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    if (lo === hi) {
      lo -= 1;
      hi += 1;
    }
    const x = (i) => L + (W - L - Rm) * (n ? i / n : 0);
    const y = (v) => T + ((H - T - B) * (hi - v)) / (hi - lo);
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", _("Running total of net counters after each session of the season"));
    const line = (x1, y1, x2, y2, colour, width) => {
      const l = document.createElementNS(SVG, "line");
      for (const [k, v] of Object.entries({ x1: x1, y1: y1, x2: x2, y2: y2, stroke: colour, "stroke-width": width }))
        l.setAttribute(k, v);
      svg.append(l);
    };
    const text = (tx, ty, s, anchor) => {
      const t = document.createElementNS(SVG, "text");
      t.setAttribute("x", tx);
      t.setAttribute("y", ty);
      t.setAttribute("font-size", "12");
      t.setAttribute("text-anchor", anchor || "middle");
      t.textContent = s;
      svg.append(t);
    };
    const step = Math.max(1, Math.ceil((hi - lo) / 6));
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      line(L, y(v), W - Rm, y(v), v === 0 ? "#555" : "#e3e3e3", v === 0 ? 1.5 : 1);
      text(L - 6, y(v) + 4, signed(v), "end");
    }
    const every = Math.max(1, Math.ceil(n / 12));
    for (let i = 1; i <= n; i += every) text(x(i), H - 10, String(i));
    players.forEach((p, k) => {
      const pts = [[0, 0]].concat(data.running[p.player]);
      const poly = document.createElementNS(SVG, "polyline");
      poly.setAttribute("points", pts.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
      poly.setAttribute("fill", "none");
      poly.setAttribute("stroke", COLOURS[k % COLOURS.length]);
      poly.setAttribute("stroke-width", "2.5");
      poly.setAttribute("data-player", p.player);
      const title = document.createElementNS(SVG, "title");
      title.textContent = who(p.name) + ": " + signed(p.net);
      poly.append(title);
      svg.append(poly);
    });
    box.append(
      svg,
      el(
        "ul",
        { class: "legend" },
        players.map((p, k) => {
          const swatch = el("span", { class: "swatch" });
          swatch.style.background = COLOURS[k % COLOURS.length]; /* CSSOM, not an inline style attribute */
          return el("li", {}, swatch, who(p.name) + " " + signed(p.net));
        }),
      ),
    );
    return box;
  }

  function sessionsList(data) {
    const ul = el("ul", { class: "plain", id: "sessions" });
    data.sessions
      .slice()
      .reverse()
      .forEach((s) => {
        const top = s.seats
          .slice()
          .sort((a, b) => a.place - b.place)
          .map((x) => who(x.name, x.bot) + " " + signed(x.net));
        ul.append(
          el(
            "li",
            { class: "row", "data-record": s.record },
            el("a", { href: s.sheet + "?lang=" + R.lang, text: when(s.finished) }),
            el("span", { class: "muted", text: s.kind === "ledger" ? _("pub ledger") : _("card table") }),
            el("span", { text: top.join(", ") }),
          ),
        );
      });
    if (!data.sessions.length)
      ul.append(el("li", { class: "note", text: _("No finished session in this season yet.") }));
    return ul;
  }

  /* a season scored as "best N of M evenings" (issue 34): rank, name, score, evenings counted */
  function bestOfTable(data) {
    const b = data.best_of;
    const t = el(
      "table",
      { class: "season", id: "best-of-table" },
      el("caption", { text: _("The best {n} evenings of each", { n: b.n }) }),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", text: _("Rank") }),
          el("th", { scope: "col", class: "name", text: _("Name") }),
          el("th", { scope: "col", text: _("Score") }),
          el("th", { scope: "col", text: _("Evenings counted") }),
        ),
      ),
      el(
        "tbody",
        {},
        b.rows.map((r) =>
          el(
            "tr",
            { "data-player": r.participant },
            el("td", { text: String(r.rank) }),
            el("td", { class: "name", text: r.name || r.participant }),
            el("td", { text: new Intl.NumberFormat(R.lang, { maximumFractionDigits: 2 }).format(r.score) }),
            el("td", {
              text: _("{counted} of {played}", { counted: (r.counted || []).length, played: r.evenings || 0 }),
            }),
          ),
        ),
      ),
    );
    return el("div", { class: "season-scroll" }, t);
  }

  /* the club's closed evenings, latest first, each linked to its results (GET .../evenings) */
  async function pastEvenings(clubId, into) {
    try {
      const data = await R.api("GET", `/api/clubs/${clubId}/evenings`);
      const past = data.past || [];
      into.replaceChildren(
        el("h4", { text: _("Past evenings") }),
        past.length
          ? el(
              "ul",
              { class: "plain", id: "past-evenings-list" },
              past.map((e) =>
                el(
                  "li",
                  { "data-evening": e.id },
                  el("a", { href: (e.url || `/e/${e.id}`) + "?lang=" + R.lang, text: e.name }),
                  el("span", { class: "muted", text: " · " + startsText(e.starts) }),
                ),
              ),
            )
          : el("p", { class: "note", text: _("No evening of the club has ended yet.") }),
      );
    } catch (e) {
      into.replaceChildren();
    }
  }

  async function showSeason(club, seasonId, into) {
    try {
      const data = await R.api("GET", `/api/clubs/${club}/seasons/${seasonId}`);
      into.replaceChildren(
        data.best_of && data.best_of.rows ? bestOfTable(data) : "",
        seasonTable(data),
        el("h3", { text: _("Running totals") }),
        chart(data),
        el("h3", { text: _("Sessions") }),
        sessionsList(data),
      );
    } catch (e) {
      into.replaceChildren(el("p", { class: "note", text: e.message }));
    }
  }

  function ownerBox(info) {
    const box = el("section", { class: "panel", id: "owner" }, el("h2", { text: _("Invite and seasons") }));
    const links = el("ul", { class: "plain", id: "invites" });
    async function drawInvites() {
      try {
        const list = await R.api("GET", `/api/clubs/${info.club.id}/invites`);
        links.replaceChildren(
          ...list.map((i) =>
            el(
              "li",
              { class: "row", "data-invite": i.invite },
              el("span", { text: _("Invite made {when}", { when: when(i.created) }) }),
              el("span", { class: "muted", text: ngettext("used {n} time", "used {n} times", i.uses) }),
              i.revoked
                ? el("b", { text: _("revoked") })
                : el("button", {
                    type: "button",
                    class: "small revoke",
                    text: _("Revoke"),
                    onclick: async () => {
                      try {
                        await R.api("DELETE", `/api/clubs/${info.club.id}/invites/${i.invite}`);
                        drawInvites();
                      } catch (e) {
                        R.toast(e.message, "", "bad");
                      }
                    },
                  }),
            ),
          ),
        );
      } catch (e) {
        links.replaceChildren(el("li", { class: "note", text: e.message }));
      }
    }
    const fresh = el("div", { id: "new-invite" });
    const make = el("button", {
      type: "button",
      class: "primary",
      id: "make-invite",
      text: _("Make an invite link"),
      onclick: async () => {
        try {
          const r = await R.api("POST", `/api/clubs/${info.club.id}/invites`);
          const url = location.origin + R.url(r.link);
          fresh.replaceChildren(
            el("p", { class: "note", text: _("Send this link to the people you invite; it is shown only now.") }),
            el("input", {
              type: "text",
              readonly: true,
              id: "invite-link",
              value: url,
              "aria-label": _("Invite link"),
              onfocus: (e) => e.target.select(),
            }),
          );
          drawInvites();
        } catch (e) {
          R.toast(e.message, "", "bad");
        }
      },
    });
    const season = el(
      "form",
      { class: "inline", id: "new-season" },
      el("input", {
        id: "season-name",
        type: "text",
        maxlength: "48",
        required: true,
        placeholder: _("Name of the season"),
        "aria-label": _("Name of the season"),
      }),
      el("label", { for: "season-starts", text: _("First day") }),
      el("input", { id: "season-starts", type: "date", required: true }),
      el("label", { for: "season-ends", text: _("Last day") }),
      el("input", { id: "season-ends", type: "date", required: true }),
      el("input", {
        id: "season-best-of",
        type: "number",
        min: "1",
        max: "100",
        inputmode: "numeric",
        placeholder: _("Count the best N evenings (optional)"),
        "aria-label": _("Count the best N evenings (optional)"),
      }),
      el("button", { type: "submit", text: _("Add the season") }),
    );
    season.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        await R.api("POST", `/api/clubs/${info.club.id}/seasons`, {
          name: season.querySelector("#season-name").value,
          starts: season.querySelector("#season-starts").value,
          ends: season.querySelector("#season-ends").value,
          best_of: season.querySelector("#season-best-of").value
            ? +season.querySelector("#season-best-of").value
            : null,
        });
        render();
      } catch (e) {
        R.toast(e.message, "", "bad");
      }
    });
    drawInvites();
    box.append(make, fresh, links, el("h3", { text: _("A new season") }), season);
    return box;
  }

  async function clubPage() {
    let info;
    try {
      info = await R.api("GET", `/api/clubs/${page.club}`);
    } catch (e) {
      fail(e);
      return;
    }
    document.title = info.club.name + " — Ramsli";
    const chooser = el(
      "select",
      { id: "season", "aria-label": _("Season") },
      info.seasons.map((s) =>
        el("option", {
          value: s.id,
          selected: s.id === info.current,
          text: s.name + (s.current ? " · " + _("now") : ""),
        }),
      ),
    );
    const seasonBox = el("div", { id: "season-box" });
    chooser.addEventListener("change", () => showSeason(info.club.id, chooser.value, seasonBox));
    const play = el(
      "div",
      { class: "row" },
      el("a", {
        class: "button primary",
        id: "club-table",
        href: `/?lang=${R.lang}&club=${info.club.id}#setup`,
        text: _("Set up a club table"),
      }),
      el("a", {
        class: "button",
        id: "club-ledger",
        href: `/ledger?lang=${R.lang}&club=${info.club.id}`,
        text: _("Start a club ledger"),
      }),
      /* the club's weekly challenge (issue 35): its members only */
      el("a", {
        class: "button",
        id: "club-challenge",
        href: `/c/${info.club.id}/challenge?lang=${R.lang}`,
        text: _("The club's weekly challenge"),
      }),
    );
    /* the club's evenings (issue 34): the next one, the calendar feed, a new one for the owner */
    const next = info.next_evening;
    const evenings = el(
      "div",
      { id: "club-evenings" },
      el("h3", { text: _("Evenings") }),
      next
        ? el(
            "p",
            { id: "next-evening" },
            _("Next evening:") + " ",
            el("a", { href: (next.url || `/e/${next.id}`) + "?lang=" + R.lang, text: next.name }),
            " · " + startsText(next.starts),
          )
        : el("p", { class: "note", id: "next-evening", text: _("No evening is planned.") }),
      el("div", { id: "past-evenings" }),
      el(
        "p",
        { class: "row" },
        el("a", {
          href: info.calendar || `/api/clubs/${info.club.id}/evenings.ics`,
          id: "club-ics",
          text: _("The club's evenings in your calendar (.ics)"),
        }),
        info.role === "owner"
          ? el("a", {
              class: "button",
              id: "new-evening-link",
              href: `/evenings/new?lang=${R.lang}&club=${info.club.id}`,
              text: _("New evening"),
            })
          : "",
      ),
    );
    pastEvenings(info.club.id, evenings.querySelector("#past-evenings"));
    const members = el(
      "ul",
      { class: "plain", id: "members" },
      info.members.map((m) =>
        el(
          "li",
          { "data-player": m.player },
          who(m.name),
          m.role === "owner" ? el("span", { class: "muted", text: " · " + _("owner") }) : "",
        ),
      ),
    );
    const books = el(
      "ul",
      { class: "plain", id: "club-ledgers" },
      info.ledgers.map((l) =>
        el(
          "li",
          { class: "row" },
          el("span", { text: l.names.join(", ") }),
          el("span", { class: "muted", text: l.over ? _("over") : ngettext("{n} hand", "{n} hands", l.hands) }),
          el("a", { href: l.follow + "?lang=" + R.lang, text: _("Follow") }),
          l.keep ? el("a", { href: l.keep + "?lang=" + R.lang, text: _("Keep the books") }) : "",
        ),
      ),
      info.tables.map((t) =>
        el(
          "li",
          { class: "row" },
          el("span", { text: t.seats.filter(Boolean).join(", ") || t.table }),
          el("span", {
            class: "muted",
            text: { waiting: _("waiting"), playing: _("playing"), over: _("over") }[t.status] || t.status,
          }),
          t.spectate ? el("a", { href: t.spectate + "?lang=" + R.lang, text: _("Watch") }) : "", // none: a duplicate round (D-21)
        ),
      ),
    );
    const leave = el("button", {
      type: "button",
      class: "small link",
      id: "leave",
      text: _("Leave the club"),
      onclick: async () => {
        if (!confirm(_("Leave {club}?", { club: info.club.name }))) return;
        try {
          await R.api("DELETE", `/api/clubs/${info.club.id}/members/me`);
          location.href = R.url("/account?lang=" + R.lang);
        } catch (e) {
          R.toast(e.message, "", "bad");
        }
      },
    });
    const skillBox = el("div");
    app.replaceChildren(
      header(info.club.name),
      el(
        "main",
        { class: "club" },
        el(
          "section",
          { class: "panel", id: "season-panel" },
          el("div", { class: "row" }, el("h2", { text: _("Season table") }), chooser),
          seasonBox,
        ),
        el("section", { class: "panel" }, el("h2", { text: _("Play for the club") }), play, books, evenings),
        el("section", { class: "panel", id: "club-ratings" }, clubRatings(info)),
        el("section", { class: "panel", id: "skill" }, el("h2", { text: _("Skill rating") }), skillBox),
        el("section", { class: "panel" }, el("h2", { text: _("Members") }), members, leave),
        info.role === "owner" ? ownerBox(info) : "",
      ),
    );
    R.api("GET", `/api/clubs/${info.club.id}/skill`)
      .then((d) => skillBox.append(skillRows(d, _("Skill rating of the club"))))
      .catch((e) => skillBox.append(el("p", { class: "note", text: e.message })));
    if (info.current || info.seasons.length) showSeason(info.club.id, chooser.value || "current", seasonBox);
    else seasonBox.append(el("p", { class: "note", text: _("No season runs now.") }));
  }

  async function sheetPage() {
    let s;
    try {
      s = await R.api("GET", `/api/clubs/${page.club}/sessions/${page.record}`);
    } catch (e) {
      fail(e);
      return;
    }
    const names = s.seats.map((x) => who(x.name, x.bot));
    const summary = el(
      "table",
      { class: "season", id: "sheet-summary" },
      el("caption", {
        text:
          when(s.finished) +
          " · " +
          (s.kind === "ledger" ? _("pub ledger") : _("card table")) +
          " · " +
          R.rulesSpecText(s.summary),
      }),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { class: "name", scope: "col", text: _("Player") }),
          el("th", { scope: "col", text: _("Place") }),
          el("th", { scope: "col", text: _("Net counters") }),
          el("th", { scope: "col", text: _("Points") }),
          el("th", { scope: "col", text: _("Hands") }),
          el("th", { scope: "col", text: _("In %") }),
          el("th", { scope: "col", text: _("Bete %") }),
          el("th", { scope: "col", text: _("Pots won") }),
        ),
      ),
      el(
        "tbody",
        {},
        s.seats
          .slice()
          .sort((a, b) => a.place - b.place)
          .map((x) =>
            el(
              "tr",
              {},
              el("td", { class: "name", text: who(x.name, x.bot) }),
              el("td", { text: String(x.place) }),
              el("td", { text: signed(x.net) }),
              el("td", { text: num(x.points, 1) }),
              el("td", { text: String(x.hands) }),
              el("td", { text: x.hands ? num((100 * x.ins) / x.hands, 1) : "–" }),
              el("td", { text: x.ins ? num((100 * x.betes) / x.ins, 1) : "–" }),
              el("td", { text: String(x.pots) }),
            ),
          ),
      ),
    );
    const hands = el(
      "table",
      { class: "season", id: "sheet-hands" },
      el("caption", { text: _("Score sheet") }),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", text: "#" }),
          el("th", { scope: "col", text: _("dealer") }),
          names.map((n) => el("th", { scope: "col", text: n })),
          el("th", { scope: "col", text: _("Pot") }),
          el("th", { scope: "col", text: _("Notes") }),
          s.links.hands ? el("th", { scope: "col", text: _("Hand history") }) : "",
        ),
      ),
      el(
        "tbody",
        {},
        s.hands.map((h, k) =>
          el(
            "tr",
            {},
            el("th", { scope: "row", text: String(h.number) }),
            el("td", { text: h.dealer === null ? "" : names[h.dealer] }),
            h.stacks.map((v, i) =>
              el("td", {}, String(v), el("small", { text: h.active.includes(i) ? ` (${h.tricks[i]})` : " –" })),
            ),
            el("td", { text: String(h.pot) }),
            el("td", {
              class: "note",
              text: [
                h.winners.length ? _("pot: {names}", { names: h.winners.map((w) => names[w]).join(", ") }) : "",
                h.bete.length ? _("bete: {names}", { names: h.bete.map((b) => names[b]).join(", ") }) : "",
              ]
                .filter(Boolean)
                .join(" · "),
            }),
            s.links.hands ? el("td", {}, el("a", { href: s.links.hands[k], download: "", text: _("download") })) : "",
          ),
        ),
      ),
    );
    const more = el(
      "p",
      { class: "row" },
      el("a", { class: "button", href: `/c/${page.club}?lang=${R.lang}`, text: _("Back to the club") }),
      s.links.watch ? el("a", { class: "button", href: s.links.watch + "?lang=" + R.lang, text: _("The table") }) : "",
      s.links.follow
        ? el("a", { class: "button", href: s.links.follow + "?lang=" + R.lang, text: _("The ledger") })
        : "",
    );
    app.replaceChildren(
      header(s.club.name),
      el(
        "main",
        { class: "club" },
        el("section", { class: "panel" }, el("div", { class: "season-scroll" }, summary)),
        el("section", { class: "panel" }, el("div", { class: "season-scroll" }, hands), more),
      ),
    );
  }

  async function joinPage() {
    let inv;
    try {
      inv = await R.api("GET", `/api/invites/${encodeURIComponent(page.token)}`);
    } catch (e) {
      fail(e);
      return;
    }
    const me = await R.me();
    const box = el(
      "section",
      { class: "panel", id: "join" },
      el("h2", { text: _("You are invited to {club}", { club: inv.club.name }) }),
    );
    if (!me.player) {
      box.append(
        el("p", { text: _("Log in, or make a player, to join.") }),
        el("a", {
          class: "button primary",
          href: "/account?lang=" + R.lang + "&next=" + encodeURIComponent(location.pathname),
          text: _("Log in"),
        }),
      );
    } else {
      box.append(
        el("button", {
          type: "button",
          class: "primary",
          id: "join-club",
          text: _("Join {club}", { club: inv.club.name }),
          onclick: async () => {
            try {
              const r = await R.api("POST", "/api/clubs/join", { token: page.token });
              location.href = R.url(`/c/${r.club.id}?lang=${R.lang}`);
            } catch (e) {
              R.toast(e.message, "", "bad");
            }
          },
        }),
      );
    }
    app.replaceChildren(header("Ramsli"), el("main", { class: "club" }, box));
  }

  async function ratingsPage() {
    let data, skill;
    try {
      data = await R.api("GET", "/api/ratings");
      skill = await R.api("GET", "/api/skill/ratings");
    } catch (e) {
      fail(e);
      return;
    }
    document.title = _("Ratings") + " — Ramsli";
    app.replaceChildren(
      header(_("Ratings")),
      el(
        "main",
        { class: "club" },
        el(
          "section",
          { class: "panel", id: "server-ratings" },
          el("p", {
            class: "note",
            text: _(
              "Every finished session between players and bots moves the ratings (OpenSkill). Shown: rating ± uncertainty; the list is ordered by rating minus three uncertainties. Players appear here only if they chose to.",
            ),
          }),
          ratingRows(data.ratings, _("Ratings on this server")),
        ),
        el(
          "section",
          { class: "panel", id: "skill" },
          el("h2", { text: _("Skill rating") }),
          skillRows(skill, _("Skill rating on this server")),
        ),
      ),
    );
  }

  function render() {
    if (page.mode === "club") clubPage();
    else if (page.mode === "sheet") sheetPage();
    else if (page.mode === "join") joinPage();
    else ratingsPage();
  }
  render();
})();
