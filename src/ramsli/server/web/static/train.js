/* ramsli web: "In or out?" — a hand, a seat and the declarations before it; you answer, the coach shows
   the solved equilibrium's answer and the counters of each choice; a running score. Positions come from
   finished hands of your own tables (the seat tokens this browser holds: your own cards only) or from
   generated deals, in every game the lab has solved (docs/coach.md). Nothing here computes a value. */
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
  const KEY = "ramsli.train";
  const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
  const state = {
    game: saved.game || "any",
    source: saved.source || "any",
    score: saved.score || { answered: 0, right: 0, lost: 0 },
    seen: saved.seen || [],
    position: null,
    result: null,
    busy: false,
    error: null,
  };
  const save = () =>
    localStorage.setItem(
      KEY,
      JSON.stringify({ game: state.game, source: state.source, score: state.score, seen: state.seen.slice(-400) }),
    );
  const fmt = (x, d) => new Intl.NumberFormat(R.lang, { minimumFractionDigits: d, maximumFractionDigits: d }).format(x);
  const counters = (x) => _("{x} counters", { x: fmt(x, 1) });

  function gameName(g) {
    return _("{preset}, {n} players", { preset: R.presetName(g.preset), n: g.players });
  }
  /* where you sit, in words a player uses: never a seat id (p1) */
  function whereYouSit(pos, n) {
    if (pos === 0) return _("You sit to the dealer's left and declare first.");
    if (pos === n - 1) return _("You are the dealer and declare last.");
    return _("You declare as number {k} of {n}, counted from the dealer's left.", { k: pos + 1, n: n });
  }
  /* another seat: its player's name at your own table, else its place in the order of declaring */
  function seatWords(p, sid) {
    const names = (p.from && p.from.names) || {};
    if (names[sid]) return names[sid];
    return _("number {k}", { k: (p.order || []).indexOf(sid) + 1 });
  }
  function origin(p) {
    if (p.from.kind !== "table") return _("A generated deal");
    if (!p.from.date) return _("From one of your games, hand {n}", { n: p.from.hand });
    const date = new Intl.DateTimeFormat(R.lang, { day: "numeric", month: "long" }).format(
      new Date(p.from.date * 1000),
    );
    return _("From your game of {date}, hand {n}", { date: date, n: p.from.hand });
  }

  function controls() {
    const game = el(
      "select",
      { id: "train-game", "aria-label": _("Game") },
      el("option", { value: "any", selected: state.game === "any", text: _("any solved game") }),
      (P.games || []).map((g) => el("option", { value: g.name, selected: state.game === g.name, text: gameName(g) })),
    );
    game.addEventListener("change", () => {
      state.game = game.value;
      save();
      next();
    });
    const source = el(
      "select",
      { id: "train-source", "aria-label": _("Positions") },
      el("option", { value: "any", selected: state.source === "any", text: _("my tables, else generated deals") }),
      el("option", { value: "mine", selected: state.source === "mine", text: _("only hands of my tables") }),
      el("option", { value: "generated", selected: state.source === "generated", text: _("only generated deals") }),
    );
    source.addEventListener("change", () => {
      state.source = source.value;
      save();
      next();
    });
    const sc = state.score;
    return el(
      "section",
      { class: "panel tr-controls" },
      el(
        "div",
        { class: "form-grid" },
        el("label", { for: "train-game", text: _("Game") }),
        game,
        el("label", { for: "train-source", text: _("Positions") }),
        source,
      ),
      el(
        "p",
        {
          id: "train-score",
          class: "tr-score",
          "data-answered": String(sc.answered),
          "data-right": String(sc.right),
          text: sc.answered
            ? _("Score: {right} of {n} right; {x} lost to wrong answers", {
                right: sc.right,
                n: sc.answered,
                x: counters(sc.lost),
              })
            : _("Score: no answer yet"),
        },
        " ",
        el("button", {
          type: "button",
          class: "small",
          id: "train-reset",
          text: _("Start again"),
          onclick: () => {
            state.score = { answered: 0, right: 0, lost: 0 };
            state.seen = [];
            save();
            render();
          },
        }),
      ),
    );
  }

  function positionPanel(p) {
    const before = p.before.length
      ? p.before
          .map(([s, d]) => _("{label}: {value}", { label: seatWords(p, s), value: d === "in" ? _("in") : _("out") }))
          .join(" · ")
      : _("nobody yet");
    const cards = el(
      "div",
      { class: "cv-cards tr-hand", role: "group", "aria-label": _("Your cards") },
      R.sortHand(p.cards, p.trump).map((c) => {
        const trump = c[1] === p.trump || c[0] === "X";
        const d = el("span", {
          class: "card" + (trump ? " is-trump" : ""),
          role: "img",
          "data-card": c,
          "aria-label": R.cardName(c) + (trump ? ", " + _("trump") : ""),
        });
        d.append(R.cardSVG(c));
        return d;
      }),
    );
    const turn = el("span", {
      class: "card",
      role: "img",
      "data-card": p.turn_up,
      "aria-label": _("Turn-up: {card}", { card: R.cardName(p.turn_up) }),
    });
    turn.append(R.cardSVG(p.turn_up));
    return el(
      "section",
      { class: "panel tr-position", id: "train-position", "data-id": p.id },
      el("p", { class: "note", id: "train-origin", text: origin(p) + " · " + gameName(p.game) }),
      el("p", { class: "big-line", id: "train-seat", text: whereYouSit(p.position, p.players) }),
      el(
        "dl",
        { class: "facts" },
        el("dt", { text: _("Before you") }),
        el("dd", { id: "train-before", text: before }),
        el("dt", { text: _("Dealer") }),
        el("dd", { id: "train-dealer", text: p.dealer === p.seat ? _("you") : seatWords(p, p.dealer) }),
        el("dt", { text: _("Pot") }),
        el("dd", { text: ngettext("{n} counter", "{n} counters", p.pot) }),
        el("dt", { text: _("Bete") }),
        el("dd", { text: p.rules.bete === "pot" ? _("the pot") : String(p.rules.bete) }),
      ),
      el(
        "div",
        { class: "tr-cards" },
        el(
          "div",
          {},
          el("p", { class: "cv-label", text: _("Turn-up") }),
          turn,
          el("p", { text: _("{label}: {value}", { label: _("Trump"), value: R.suitName(p.trump) }) }),
        ),
        el("div", {}, el("p", { class: "cv-label", text: _("Your cards") }), cards),
      ),
    );
  }

  function answerBar() {
    const done = !!state.result;
    const chosen = state.result ? state.result.answer : null;
    return el(
      "div",
      { class: "actions tr-actions", role: "toolbar", "aria-label": _("Your answer") },
      el(
        "button",
        {
          type: "button",
          class: "act act-in primary" + (chosen === "in" ? " chosen" : ""),
          id: "train-in",
          "aria-pressed": chosen ? String(chosen === "in") : null,
          disabled: done || state.busy,
          "aria-keyshortcuts": "i",
          onclick: () => answer("in"),
        },
        _("in"),
        el("kbd", { "aria-hidden": "true", text: "I" }),
      ),
      el(
        "button",
        {
          type: "button",
          class: "act act-out" + (chosen === "out" ? " chosen" : ""),
          id: "train-out",
          "aria-pressed": chosen ? String(chosen === "out") : null,
          disabled: done || state.busy,
          "aria-keyshortcuts": "o",
          onclick: () => answer("out"),
        },
        _("out"),
        el("kbd", { "aria-hidden": "true", text: "O" }),
      ),
    );
  }

  function resultPanel(r) {
    const verdict = r.close
      ? _("Close: either answer is fine.")
      : r.correct
        ? _("Right.")
        : _("Not quite: the better answer is {best}.", { best: r.best === "in" ? _("in") : _("out") });
    const eq = r.equilibrium;
    const eqText =
      eq.answer === "in"
        ? _("The equilibrium stays in with hands like this.")
        : eq.answer === "out"
          ? _("The equilibrium goes out with hands like this.")
          : _("The equilibrium mixes with hands like this: in {p}% of the time.", { p: Math.round(eq.p_in * 100) });
    const what = r.actual === "in" ? _("in") : _("out");
    /* a declaration a bot made for you (you were away, your time ran out) is not called yours */
    const actual = !r.actual
      ? ""
      : r.actual_by && r.actual_by !== "seat"
        ? _("At the table the bot at your seat went {what}.", { what: what })
        : _("At the table you went {what}.", { what: what });
    return el(
      "section",
      {
        class: "panel tr-result " + (r.correct ? "right" : "wrong"),
        id: "train-result",
        role: "status",
        "aria-live": "polite",
        "data-correct": String(r.correct),
        "data-source": r.source,
      },
      el("p", { class: "big-line", id: "train-verdict", text: verdict }),
      el("p", { class: "cv-line", id: "train-words", text: r.text }),
      r.reason ? el("p", { class: "cv-line", id: "train-reason", text: r.reason.text }) : "",
      el("p", { text: eqText }),
      actual ? el("p", { id: "train-actual", text: actual }) : "",
      /* the numbers behind it, for the curious */
      el(
        "details",
        { class: "cv-details", id: "train-details" },
        el("summary", { text: _("Details") }),
        el("p", { id: "train-detail", text: r.detail }),
        r.source === "table"
          ? el("p", {
              text: _(
                "The exact value of this hand is not ready yet (the coach's engine is being prepared): this is the equilibrium's value for hands like it.",
              ),
            })
          : "",
        r.reason && r.reason.rule ? el("p", { text: _("Rule {rule}", { rule: r.reason.rule }) }) : "",
      ),
      el(
        "div",
        { class: "row" },
        el(
          "button",
          { type: "button", class: "primary", id: "train-next", "aria-keyshortcuts": "n", onclick: next },
          _("Next position"),
          el("kbd", { "aria-hidden": "true", text: "N" }),
        ),
      ),
    );
  }

  function render() {
    const head = el(
      "header",
      { class: "cv-top" },
      el("a", { href: "/?lang=" + R.lang, class: "brand-small", title: _("Lobby"), text: "Ramsli" }),
      el("h1", { text: _("In or out?") }),
      el(
        "nav",
        { class: "tools" },
        el("a", {
          class: "button small",
          href: "/how-to-play?lang=" + R.lang,
          target: "_blank",
          text: _("How to play"),
        }),
        R.langPicker(),
      ),
    );
    const main = el(
      "main",
      { class: "cv-main" },
      el("p", {
        class: "tr-intro",
        text: _(
          "Your seat's cards and the declarations before you: would you stay in? The coach answers with the solved equilibrium.",
        ),
      }),
      controls(),
    );
    if (state.error)
      main.append(
        el(
          "section",
          { class: "panel" },
          el("p", { class: "bad", role: "alert", id: "train-error", text: state.error }),
        ),
      );
    if (state.position) {
      main.append(positionPanel(state.position), answerBar());
      if (state.busy && !state.result)
        main.append(el("p", { class: "tr-wait", role: "status", text: _("The coach is thinking…") }));
      if (state.result) main.append(resultPanel(state.result));
    } else if (state.busy) main.append(el("p", { class: "tr-wait", role: "status", text: _("Dealing…") }));
    app.replaceChildren(head, main);
    document.body.dataset.position = state.position ? state.position.id : "";
    document.body.dataset.answered = String(state.score.answered);
    const f = state.result ? document.getElementById("train-next") : document.getElementById("train-in");
    if (f && !state.busy) f.focus();
  }

  async function next() {
    if (state.busy) return;
    state.busy = true;
    state.result = null;
    state.position = null;
    state.error = null;
    render();
    const tables = R.myTables()
      .filter((e) => e.table && e.token)
      .map((e) => ({ table: e.table, token: e.token }))
      .slice(0, 30);
    try {
      state.position = await R.api("POST", "/api/train/position", {
        game: state.game,
        source: state.source,
        tables: tables,
        skip: state.seen.slice(-400),
      });
      if (state.position.from.kind === "table") {
        state.seen.push(state.position.from.table + "/" + state.position.from.hand);
        save();
      }
    } catch (e) {
      if (e.status === 429 && e.retryAfter && !state.retried) {
        /* the coach's queue is full: ask once more when the server says, then show its message */
        state.retried = true;
        setTimeout(() => {
          state.busy = false; /* (held meanwhile: no second request) */
          next();
        }, e.retryAfter * 1000);
        return;
      }
      state.error = e.message;
    }
    state.retried = false;
    state.busy = false;
    render();
  }

  async function answer(choice) {
    if (state.busy || state.result || !state.position) return;
    state.busy = true;
    render();
    try {
      const r = await R.api("POST", "/api/train/answer", { id: state.position.id, answer: choice });
      state.result = r;
      state.score.answered += 1;
      if (r.correct) state.score.right += 1;
      else state.score.lost = Math.round((state.score.lost + r.loss) * 1000) / 1000;
      save();
    } catch (e) {
      state.error = e.message;
    }
    state.busy = false;
    render();
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key.toLowerCase();
    if (k === "i" && state.position && !state.result) {
      answer("in");
      ev.preventDefault();
    } else if (k === "o" && state.position && !state.result) {
      answer("out");
      ev.preventDefault();
    } else if (k === "n" && state.result) {
      next();
      ev.preventDefault();
    }
  });

  document.title = _("Ramsli — in or out?");
  next();
})();
