/* ramsli web: the coach's review of a finished hand (every decision valued, the mistakes marked) or of
   one's session (what the marked decisions cost, the worst three). Everything comes from the server's
   review API (docs/coach.md): your own seat's review only for the hands you played there; any other
   seat shows only the decisions everyone saw, without values (R7). Nothing here computes a value. */
"use strict";
(function () {
  const R = window.R,
    _ = R._,
    ngettext = R.ngettext,
    el = R.el;
  const P = R.page;
  R.applySettings();
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = R.url("/static/coach.css");
  document.head.append(css);
  const app = document.getElementById("app");
  let timer = null;
  let seat = P.seat || P.mine || "p1";
  const names = P.names || [];
  const nameOf = (sid) => names[+String(sid).slice(1) - 1] || sid;
  const q = (extra) => "?token=" + encodeURIComponent(P.token) + "&lang=" + R.lang + (extra || "");
  const fmt = (x, digits) =>
    x === null || x === undefined
      ? "—"
      : new Intl.NumberFormat(R.lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
  const counters = (x, digits) => _("{x} counters", { x: fmt(x, digits === undefined ? 1 : digits) });
  const MARKS = { blunder: _("Blunder"), mistake: _("Mistake"), inaccuracy: _("Inaccuracy") };
  // the coach's line says its mark first ("Mistake — Going in with …"); the page shows the mark as a label beside it
  function lineOnly(text, mark) {
    const head = (MARKS[mark] || "") + " — ";
    return text && mark && text.startsWith(head) ? text.slice(head.length) : text || "";
  }
  /* a rule id a tap away, not in the sentence: a small "rule" toggle that shows "Rule R7" */
  function ruleRef(rule) {
    return el(
      "details",
      { class: "rule-ref" },
      el("summary", { text: _("rule"), "aria-label": _("Which rule?") }),
      el("span", { text: _("Rule {rule}", { rule: rule }) }),
    );
  }
  /* a decision made by a bot for the player (away, their time ran out, a bot seat) is not called theirs */
  const byBot = (d) => !!d.by && d.by !== "seat";
  const KINDS = {
    declare: _("declaration"),
    general_rams: _("General Rams"),
    target: _("target"),
    card: _("card play"),
  };

  function actionText(a) {
    const parts = String(a).split(" ");
    const kind = parts[1];
    if (kind === "in") return _("in");
    if (kind === "out") return _("out");
    if (kind === "gr") return _("General Rams");
    if (kind === "pass") return _("pass");
    if (kind === "pl") return R.cardName(parts[2]);
    if (kind && kind[0] === "t") return _("target {n}", { n: kind.slice(1) });
    return a;
  }
  function cardRow(codes, trump, label) {
    const row = el("div", { class: "cv-cards", role: "group", "aria-label": label });
    for (const c of trump ? R.sortHand(codes, trump) : codes) {
      const d = el("span", { class: "card", role: "img", "aria-label": R.cardName(c), "data-card": c });
      d.append(R.cardSVG(c));
      row.append(d);
    }
    return row;
  }
  function link(hand, extra) {
    return `/t/${P.table}/review` + q((hand ? "&hand=" + hand : "") + (extra || ""));
  }
  function back() {
    return P.mine
      ? `/t/${P.table}/s/${encodeURIComponent(P.token)}?lang=${R.lang}`
      : `/t/${P.table}/watch/${encodeURIComponent(P.token)}?lang=${R.lang}`;
  }

  function header() {
    const picker = el("select", { id: "review-seat", "aria-label": _("Seat") });
    names.forEach((n, i) => {
      const sid = "p" + (i + 1);
      picker.append(
        el("option", { value: sid, selected: sid === seat, text: n + (sid === P.mine ? " (" + _("you") + ")" : "") }),
      );
    });
    picker.addEventListener("change", () => {
      location.href = R.url(link(P.hand, "&seat=" + picker.value));
    });
    const hands = el(
      "nav",
      { class: "cv-hands", "aria-label": _("Hands") },
      el("a", {
        class: "button small" + (P.hand ? "" : " current"),
        href: link(null),
        id: "review-session",
        "aria-current": P.hand ? null : "page",
        text: _("Session"),
      }),
      (P.hands || []).map((n) =>
        el("a", {
          class: "button small" + (n === P.hand ? " current" : ""),
          href: link(n, "&seat=" + seat),
          "data-hand": String(n),
          "aria-current": n === P.hand ? "page" : null,
          "aria-label": _("Hand {n}", { n: n }),
          text: String(n),
        }),
      ),
    );
    return el(
      "header",
      { class: "cv-top" },
      el("a", { href: "/?lang=" + R.lang, class: "brand-small", title: _("Lobby"), text: "Ramsli" }),
      el("h1", { text: P.hand ? _("The coach on hand {n}", { n: P.hand }) : _("The coach on your session") }),
      el(
        "nav",
        { class: "tools" },
        el("a", { class: "button small", href: back(), id: "review-back", text: _("Back to the table") }),
        el("a", {
          class: "button small",
          href: "/train?lang=" + R.lang,
          id: "review-train",
          text: _("Practise: in or out?"),
        }),
        R.langPicker(),
      ),
      hands,
      P.hand ? el("div", { class: "cv-seat" }, el("label", { for: "review-seat", text: _("Seat") }), picker) : "",
    );
  }
  /* when the progress text last changed (the live region says it at most every few seconds) */
  let progressSaidAt = 0;
  function show(...body) {
    // while the coach works, the progress is updated in place: the live region stays, the keyboard keeps its place
    const now = document.querySelector(".cv-progress");
    const next = body.length === 1 && body[0].classList && body[0].classList.contains("cv-progress") ? body[0] : null;
    if (now && next) {
      now.querySelector("progress").replaceWith(next.querySelector("progress"));
      const t = Date.now();
      if (t - progressSaidAt > 5000) {
        progressSaidAt = t;
        now.querySelector("p").textContent = next.querySelector("p").textContent;
      }
      return;
    }
    progressSaidAt = Date.now();
    const at = document.activeElement && document.activeElement.id;
    app.replaceChildren(header(), el("main", { class: "cv-main" }, ...body));
    const again = at && document.getElementById(at);
    if (again) again.focus();
  }
  function progressBox(r, what) {
    const p = r.progress || {};
    const bar = el("progress", {
      id: "review-progress",
      max: String(p.total || 1),
      value: String(p.total ? p.done : 0),
    });
    let text;
    if (r.kernel && r.kernel !== "ready" && r.kernel !== "off" && r.kernel !== "failed")
      text = _("Getting the coach's engine ready (only after an install)…");
    else if (r.status === "waiting") text = _("Waiting for the coach…");
    else if (p.total)
      text =
        what === "session"
          ? _("The coach is at hand {done} of {total}…", {
              done: p.done + 1 > p.total ? p.total : p.done + 1,
              total: p.total,
            })
          : _("The coach has valued {done} of {total} decisions…", { done: p.done, total: p.total });
    else text = _("The coach is looking at your decisions…");
    if (what === "session" && p.total) bar.value = String(Math.round((p.fraction || 0) * p.total * 100) / 100);
    return el(
      "section",
      { class: "panel cv-progress", role: "status", "aria-live": "polite" },
      el("p", { text: text }),
      bar,
    );
  }
  function error(e) {
    show(el("section", { class: "panel" }, el("p", { class: "bad", role: "alert", text: e.message })));
  }

  /* ---------------- a hand ---------------- */
  function decisionItem(d, public_) {
    const head = el(
      "h3",
      {},
      el("span", { class: "cv-num", text: _("Decision {n}", { n: public_ ? d.action : d.decision }) }),
      " · ",
      el("span", { text: KINDS[d.kind] || d.kind }),
      d.trick ? " · " + _("trick {n}", { n: d.trick }) : "",
      d.mark ? el("span", { class: "mark mark-" + d.mark, "data-mark": d.mark, text: MARKS[d.mark] }) : "",
    );
    const kids = [head];
    if (!public_ && d.cards && d.cards.length)
      kids.push(
        el(
          "div",
          { class: "cv-row" },
          el("span", { class: "cv-label", text: _("Your cards") }),
          cardRow(d.cards, d.trump, _("Your cards")),
        ),
      );
    if (d.lead && d.lead.length)
      kids.push(
        el(
          "div",
          { class: "cv-row" },
          el("span", { class: "cv-label", text: _("On the table") }),
          el("span", {
            text: d.lead
              .map(([s, c]) => _("{name} played {card}", { name: nameOf(s), card: R.cardName(c) }))
              .join(" · "),
          }),
        ),
      );
    if (d.kind === "declare" && d.declarations && d.declarations.length)
      kids.push(
        el(
          "div",
          { class: "cv-row" },
          el("span", { class: "cv-label", text: _("Before you") }),
          el("span", {
            text: d.declarations.map(([s, x]) => nameOf(s) + " " + (x === "in" ? _("in") : _("out"))).join(" · "),
          }),
        ),
      );
    if (public_) {
      kids.push(el("p", { class: "cv-chosen", text: _("Chose: {action}", { action: actionText(d.chosen) }) }));
      return el("li", { class: "decision public", id: "a" + d.action }, kids);
    }
    const bot = byBot(d);
    kids.push(
      el(
        "p",
        { class: "cv-chosen", "data-by": d.by || "seat" },
        bot
          ? d.by === "timer"
            ? _("Your time ran out; the bot at your seat chose: {action}", { action: actionText(d.chosen) })
            : _("The bot at your seat chose: {action}", { action: actionText(d.chosen) })
          : _("You chose: {action}", { action: actionText(d.chosen) }),
        d.best !== d.chosen
          ? el("span", { text: " · " + _("the coach: {action}", { action: actionText(d.best) }) })
          : el("span", { class: "good", text: " · " + _("the coach agrees") }),
      ),
    );
    const best = Math.max(...d.choices.map((c) => c.mean));
    const worst = Math.min(0, ...d.choices.map((c) => c.mean));
    const span = Math.max(0.5, best - worst);
    const table = el(
      "table",
      { class: "cv-choices" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", text: _("Choice") }),
          el("th", { scope: "col", text: _("Counters") }),
          el("th", { scope: "col", class: "bar-col", "aria-hidden": "true" }),
        ),
      ),
    );
    const tb = el("tbody");
    for (const c of d.choices) {
      const w = Math.round((100 * (c.mean - worst)) / span);
      tb.append(
        el(
          "tr",
          { class: (c.action === d.chosen ? "chosen " : "") + (c.action === d.best ? "best" : "") },
          el(
            "th",
            { scope: "row" },
            actionText(c.action),
            c.action === d.chosen
              ? el("span", { class: "cv-tag cv-tag-chosen", text: bot ? _("the bot's choice") : _("your choice") })
              : "",
            c.action === d.best ? el("span", { class: "cv-tag cv-tag-best", text: _("best") }) : "",
          ),
          el("td", {
            class: "num",
            text: (c.mean >= 0 ? "+" : "") + fmt(c.mean, 2) + (c.ci95 ? " ± " + fmt(c.ci95, 2) : ""),
          }),
          el(
            "td",
            { class: "bar-col", "aria-hidden": "true" },
            el("span", { class: "bar", style: `width:${Math.max(2, w)}%` }),
          ),
        ),
      );
    }
    table.append(tb);
    kids.push(el("div", { class: "scroll" }, table));
    if (d.loss > 0)
      kids.push(el("p", { class: "cv-loss", text: _("Lost against the best choice: {x}", { x: counters(d.loss) }) }));
    if (d.text) kids.push(el("p", { class: "cv-line", text: lineOnly(d.text, d.mark) }));
    /* the numbers behind it, for the curious: how sure, from what, under which rule */
    const src =
      d.source === "equilibrium"
        ? _("Values: the solved equilibrium, {n} deals ({e} effective)", {
            n: fmt(d.samples, 0),
            e: fmt(d.effective, 0),
          })
        : _("Values: the expert, {n} weighted deals", { n: fmt(d.samples, 0) });
    kids.push(
      el(
        "details",
        { class: "cv-details" },
        el("summary", { text: _("Details") }),
        d.loss > 0 ? el("p", { text: _("95% interval of the loss: ± {ci}", { ci: counters(d.loss_ci95, 2) }) }) : "",
        el("p", { text: src }),
        el("p", {
          text:
            _("Rule {rule}", { rule: d.rule }) +
            (d.reason && d.reason.rule && d.reason.rule !== d.rule
              ? " · " + _("the reason: rule {rule}", { rule: d.reason.rule })
              : ""),
        }),
      ),
    );
    return el(
      "li",
      { class: "decision" + (d.mark ? " marked" : ""), id: "d" + d.decision, "data-mark": d.mark || "" },
      kids,
    );
  }

  function showHand(r) {
    const rv = r.review;
    if (r.access === "public") {
      const who = nameOf(rv.seat);
      const items = rv.decisions.map((d) => decisionItem(d, true));
      show(
        el(
          "section",
          { class: "panel" },
          el(
            "p",
            { class: "cv-notice", id: "review-public" },
            _("{name}'s cards are not yours to see: here are only the decisions everyone saw, without values.", {
              name: who,
            }),
            ruleRef("R7"),
          ),
          rv.seated ? "" : el("p", { text: _("{name} did not play this hand.", { name: who }) }),
          items.length ? el("ol", { class: "decisions" }, items) : "",
        ),
      );
      return;
    }
    if (!rv.cards_known) {
      show(
        el(
          "section",
          { class: "panel" },
          el("p", { text: _("Your cards of this hand are not recorded: the coach cannot review it.") }),
        ),
      );
      return;
    }
    const marks = rv.marks || {};
    const nMarked = (marks.blunder || 0) + (marks.mistake || 0) + (marks.inaccuracy || 0);
    const summary = el(
      "section",
      { class: "panel cv-summary", id: "review-summary" },
      el("p", {
        class: "big-line",
        text: nMarked
          ? ngettext("{n} marked decision: {x} lost to it.", "{n} marked decisions: {x} lost to them.", nMarked, {
              x: counters(rv.marked_loss),
            })
          : ngettext(
              "No marked decision in this hand ({n} reviewed).",
              "No marked decision in this hand ({n} reviewed).",
              rv.decisions.length,
            ),
      }),
      el("p", {
        class: "note",
        text: _(
          "A mark: an inaccuracy costs at least {a}, a mistake at least {b}, a blunder at least {c} — and only when the loss lies outside the noise of the estimate.",
          {
            a: counters(rv.scale.inaccuracy),
            b: counters(rv.scale.mistake),
            c: counters(rv.scale.blunder),
          },
        ),
      }),
      rv.forced
        ? el("p", {
            class: "note",
            text: ngettext(
              "{n} decision had only one legal choice and is not valued.",
              "{n} decisions had only one legal choice and are not valued.",
              rv.forced,
            ),
          })
        : "",
    );
    show(
      summary,
      el(
        "ol",
        { class: "decisions" },
        rv.decisions.map((d) => decisionItem(d, false)),
      ),
    );
    if (location.hash) {
      const t = document.getElementById(location.hash.slice(1));
      if (t) {
        t.classList.add("target");
        t.scrollIntoView();
      }
    }
  }

  async function loadHand() {
    try {
      const r = await R.api("GET", `/api/tables/${P.table}/hands/${P.hand}/review` + q("&seat=" + seat));
      if (r.status === "done") {
        document.body.dataset.review = "done";
        showHand(r);
        return;
      }
      document.body.dataset.review = r.status;
      show(progressBox(r, "hand"));
      timer = setTimeout(loadHand, 600);
    } catch (e) {
      if (e.status === 429 && e.retryAfter) {
        /* the coach is busy or this address asked too often: ask again when the server says */
        timer = setTimeout(loadHand, e.retryAfter * 1000);
        return;
      }
      document.body.dataset.review = "error";
      error(e);
    }
  }

  /* ---------------- the session ---------------- */
  function showSession(r) {
    const pl = r.review.players[0];
    if (!pl || !pl.hands) {
      show(el("section", { class: "panel" }, el("p", { text: _("No finished hand of yours to review yet.") })));
      return;
    }
    const m = pl.marked_loss;
    const facts = el(
      "dl",
      { class: "facts cv-facts" },
      el("dt", { text: _("Hands reviewed") }),
      el("dd", { text: String(pl.hands) }),
      el("dt", { text: _("Decisions reviewed") }),
      el("dd", { text: String(pl.decisions) }),
      el("dt", { text: _("Lost to marked declarations") }),
      el("dd", { id: "loss-declarations", text: counters(m.declarations) }),
      el("dt", { text: _("Lost to marked card play") }),
      el("dd", { id: "loss-cards", text: counters(m.cards) }),
      el("dt", { text: _("Average loss per decision") }),
      el("dd", { id: "average-loss", text: counters(pl.average_loss, 3) }),
      el("dt", { text: _("Marks") }),
      el("dd", {
        text: ["blunder", "mistake", "inaccuracy"].map((k) => MARKS[k] + " " + (pl.marks[k] || 0)).join(" · "),
      }),
    );
    const worst = pl.worst.length
      ? el(
          "ol",
          { class: "cv-worst", id: "review-worst" },
          pl.worst.map((w) =>
            el(
              "li",
              { "data-mark": w.mark },
              el("a", {
                href: link(w.hand, "&seat=" + pl.seat) + "#d" + w.decision,
                text: _("Hand {n}, decision {d}", { n: w.hand, d: w.decision }),
              }),
              ": ",
              el("span", { class: "mark mark-" + w.mark, text: MARKS[w.mark] }),
              byBot(w) ? el("span", { class: "cv-tag", text: _("the bot at your seat") }) : "",
              " ",
              el("span", { text: lineOnly(w.text, w.mark) }),
            ),
          ),
        )
      : el("p", { text: _("No marked decision in your session: the coach would have played it so too.") });
    show(
      el(
        "section",
        { class: "panel cv-summary", id: "review-summary" },
        el("h2", { text: pl.name }),
        facts,
        el("p", {
          class: "note",
          text: _(
            "Average loss per decision: the counters lost to marked decisions divided by the decisions reviewed. Lower is better; 0 is the coach's own play.",
          ),
        }),
      ),
      el("section", { class: "panel" }, el("h2", { text: _("Your three costliest decisions") }), worst),
    );
  }

  async function loadSession() {
    try {
      const r = await R.api("GET", `/api/tables/${P.table}/review` + q());
      if (r.status === "done") {
        document.body.dataset.review = "done";
        showSession(r);
        return;
      }
      document.body.dataset.review = r.status;
      show(progressBox(r, "session"));
      timer = setTimeout(loadSession, 800);
    } catch (e) {
      if (e.status === 429 && e.retryAfter) {
        /* the coach is busy or this address asked too often: ask again when the server says */
        timer = setTimeout(loadSession, e.retryAfter * 1000);
        return;
      }
      document.body.dataset.review = "error";
      error(e);
    }
  }

  document.title = _("Ramsli — the coach");
  window.addEventListener("beforeunload", () => clearTimeout(timer));
  if (P.hand) loadHand();
  else loadSession();
})();
