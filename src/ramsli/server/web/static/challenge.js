/* ramsli web: the weekly challenge (docs/challenge.md, issue 35). R.page.club: a club's challenge,
   else the server's. This week's deals with "Play" (each played once, alone against bots), the
   streak, and the week before: your own results, the ranking and each deal's field. Every fact comes
   from the challenge's JSON API; no card is ever shown here (R7, D-21). */
"use strict";
(function () {
  const R = window.R,
    _ = R._,
    el = R.el,
    page = R.page;
  R.applySettings();
  const app = document.getElementById("app");
  const base = page.club ? `/api/clubs/${encodeURIComponent(page.club)}/challenge` : "/api/challenge";
  document.title = _("Ramsli — the weekly challenge");

  function header() {
    return el(
      "header",
      { class: "top" },
      el("div", { class: "brand" }, el("div", {}, el("h1", { id: "title", text: _("The weekly challenge") }))),
      el(
        "nav",
        { class: "top-nav" },
        el("a", { href: "/?lang=" + R.lang, text: _("Lobby") }),
        page.club ? el("a", { href: `/c/${encodeURIComponent(page.club)}?lang=${R.lang}`, text: _("Club") }) : null,
        el("a", { href: "/account?lang=" + R.lang, text: _("Your player") }),
        R.langPicker(),
      ),
    );
  }
  function num(n, digits) {
    return new Intl.NumberFormat(R.lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
  }
  function signed(n) {
    return (n > 0 ? "+" : "") + num(n, 2);
  }
  function statusText(s) {
    return (
      {
        open: _("not played yet"),
        playing: _("your try is being played"),
        played: _("played"),
        void: _("not finished before the close"),
      }[s] || s
    );
  }
  function declared(seat) {
    let t = seat.declared === "in" ? _("in") : _("out");
    if (seat.announced === "general-rams") t += " · " + _("General Rams");
    else if (seat.announced && seat.announced.startsWith("target:"))
      t += " · " + _("target {n}", { n: seat.announced.slice(7) });
    return t;
  }

  async function play(week, deal, button) {
    button.disabled = true;
    try {
      const got = await R.api("POST", `${base}/${week}/deals/${deal}/play`, {});
      location.href = R.url(got.url + "?lang=" + R.lang);
    } catch (e) {
      button.disabled = false;
      R.toast(e.message, null, "error");
    }
  }

  function thisWeek(st, me) {
    const w = st.week;
    return el(
      "section",
      { class: "panel", id: "this-week" },
      el("h2", { text: _("Week {week}", { week: w.id }) }),
      el("p", {
        class: "note",
        text: _("Open until {ends}. Each deal is played once, alone against bots that choose alike for everyone.", {
          ends: R.startsText(w.ends),
        }),
      }),
      me.player
        ? el("p", {
            id: "streak",
            text: R.ngettext("Your streak: {n} week in a row", "Your streak: {n} weeks in a row", st.streak),
          })
        : el("p", { class: "note", text: _("Log in to play the challenge.") }),
      el(
        "ol",
        { id: "challenge-deals", class: "plain" },
        st.deals.map((d) =>
          el(
            "li",
            { "data-deal": d.deal },
            el("span", { text: _("Deal {deal}", { deal: d.deal }) + " · " + statusText(d.status) + " " }),
            d.status === "open" && me.player
              ? el("button", {
                  class: "primary",
                  text: _("Play this deal"),
                  onclick: (ev) => play(w.id, d.deal, ev.currentTarget),
                })
              : null,
            d.status === "playing" && d.url
              ? el("a", { class: "button", href: d.url + "?lang=" + R.lang, text: _("Go on playing") })
              : null,
          ),
        ),
      ),
      el("p", { class: "note", text: _("Everyone's results are shown once the week has closed.") }),
    );
  }

  async function showField(week, deal, box) {
    box.replaceChildren();
    try {
      const f = await R.api("GET", `${base}/${week}/deals/${deal}`);
      if (!f.tries.length) {
        box.append(el("p", { class: "note", text: _("Nobody played this deal.") }));
        return;
      }
      box.append(
        el(
          "table",
          { class: "season" },
          el("caption", { text: _("Deal {deal}: everyone who played it", { deal: deal }) }),
          el(
            "tr",
            {},
            [_("Player"), _("Declared"), _("Tricks"), _("Counters"), _("Matchpoints"), _("Against the field")].map(
              (h) => el("th", { text: h }),
            ),
          ),
          f.tries.map((t) => {
            const s = t.seats[f.seat];
            return el(
              "tr",
              {},
              el("td", { class: "name" }, t.you ? el("strong", { text: t.name }) : t.name || _("a player")),
              el("td", { text: declared(s) }),
              el("td", { text: String(s.tricks) }),
              el("td", { text: (s.net > 0 ? "+" : "") + s.net }),
              el("td", { text: num(t.pct, 0) + " %" }),
              el("td", { text: signed(t.vs_field) }),
            );
          }),
        ),
      );
    } catch (e) {
      box.append(el("p", { class: "note", text: e.message }));
    }
  }

  function rankRow(r) {
    return el(
      "tr",
      {},
      el("td", { text: String(r.rank) }),
      el("td", { class: "name" }, r.you ? el("strong", { text: r.name }) : r.name || _("a player")),
      el("td", { text: num(r.score, 2) + " %" }),
      el("td", { text: signed(r.vs_field) }),
      el("td", { text: String(r.played) }),
    );
  }

  async function lastWeek(st) {
    const box = el("section", { class: "panel", id: "last-week" });
    if (!st.last) return box;
    const w = st.last;
    box.append(el("h2", { text: _("Week {week}: results", { week: w.id }) }));
    try {
      const rk = await R.api("GET", `${base}/${w.id}/ranking`);
      const mine = el("ul", { id: "my-results", class: "plain" });
      for (const m of rk.mine)
        mine.append(
          el("li", {
            text: _("Deal {deal}", { deal: m.deal }) + ": " + num(m.pct, 0) + " % · " + signed(m.vs_field),
          }),
        );
      if (rk.mine.length) box.append(el("h3", { text: _("Your results") }), mine);
      box.append(
        el(
          "table",
          { class: "season", id: "ranking" },
          el("caption", { text: _("Ranking") }),
          el(
            "tr",
            {},
            [_("Rank"), _("Player"), _("Score"), _("Against the field"), _("Deals played")].map((h) =>
              el("th", { text: h }),
            ),
          ),
          rk.ranking.map(rankRow),
          /* your own line when it is further down than the lines shown */
          rk.yours && !rk.ranking.some((r) => r.you) ? rankRow(rk.yours) : null,
        ),
      );
      const field = el("div", { id: "deal-field" });
      const picks = el("p", { class: "row" }, el("span", { text: _("The field of a deal:") + " " }));
      for (let k = 1; k <= rk.deals; k++)
        picks.append(el("button", { text: String(k), onclick: () => showField(w.id, k, field) }));
      box.append(picks, field);
    } catch (e) {
      box.append(el("p", { class: "note", text: e.message }));
    }
    return box;
  }

  async function main() {
    const main = el("main", { class: "club" });
    app.replaceChildren(header(), main);
    try {
      const [me, st] = await Promise.all([R.me(), R.api("GET", base)]);
      main.append(thisWeek(st, me));
      if (st.last) main.append(await lastWeek(st));
    } catch (e) {
      main.append(el("section", { class: "panel" }, el("p", { id: "challenge-error", text: e.message })));
    }
  }
  main();
})();
