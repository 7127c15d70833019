/* ramsli web: how to play, written for players from the rule book (docs/RULES.md), showing the
   table's own variant (its preset and rule options, R6 and R8). */
"use strict";
(function () {
  const R = window.R,
    _ = R._,
    ngettext = R.ngettext,
    el = R.el;
  R.applySettings();
  const o = R.page.rules;
  const counters = (n) => ngettext("{n} counter", "{n} counters", n);
  document.title = _("How to play Ramsli");
  const p = (t) => el("p", { text: t });
  const demo = (codes) =>
    el(
      "div",
      { class: "cards-demo", "aria-hidden": "true" },
      codes.map((c) => {
        const d = el("span", { class: "card" });
        d.append(R.cardSVG(c));
        return d;
      }),
    );
  const deck =
    o.deck === "full52"
      ? _("the full deck of 52 cards (A K Q J 10 9 … 2)")
      : _("a piquet deck of 32 cards (A K Q J 10 9 8 7)");
  const variant = [
    /* from a table its own rules; from the lobby (no table) the default rules or the preset asked for */
    R.page.table
      ? _("Rules of this table: {preset}.", { preset: R.presetName(R.page.preset) })
      : R.page.preset === "traditional"
        ? _("No table chosen: these are the default rules, {preset}.", { preset: R.presetName(R.page.preset) })
        : _("No table chosen: these are the rules of the variant {preset}.", { preset: R.presetName(R.page.preset) }),
    _("Cards: {deck}.", { deck: deck }) +
      (o.jokers ? " " + _("With two jokers: both are trumps, above the ace of trumps.") : ""),
    _("Everyone starts with {stack}; the ante is {ante} each hand.", {
      stack: counters(o.starting_stack),
      ante: counters(o.ante),
    }),
    o.bete === "pot"
      ? _("Bete: whoever stays in and takes no trick pays the size of the pot.")
      : _("Bete: whoever stays in and takes no trick pays {n}.", { n: counters(o.bete) }),
    o.dealer_forced
      ? _("If everyone before the dealer goes out, the dealer must stay in.")
      : o.compulsory
        ? ""
        : _("If everyone goes out, the hand is thrown in and the pot stays for the next hand."),
    o.compulsory ? _("Compulsory Ramsli: nobody may go out.") : "",
    o.general_rams
      ? _("General Rams is on: before the first lead a player who stays in may announce to take every trick.")
      : "",
    o.targets ? _("Targets are on: players who stay in may announce how many tricks they will take.") : "",
    o.overtrump === "always"
      ? _("You must overtrump whenever you can.")
      : _("You must overtrump only when you are trumping."),
    o.end && o.end.length
      ? _("The session ends {end}.", { end: R.endText(o.end, true) })
      : _("The session ends when a player is bust."),
  ].filter(Boolean);
  /* without a table: every preset (R6), each a link to its rules; the one shown is marked */
  const presets = () =>
    el(
      "p",
      { class: "presets" },
      _("Every variant:") + " ",
      (R.page.presets || []).flatMap((name, i) => [
        i ? ", " : "",
        el("a", {
          href: "/how-to-play?lang=" + R.lang + "&preset=" + encodeURIComponent(name),
          text: R.presetName(name),
          "data-preset": name,
          "aria-current": name === R.page.preset ? "page" : null,
        }),
      ]),
    );
  const body = el(
    "article",
    { class: "panel howto" },
    el("h1", { text: _("How to play Ramsli") }),
    el(
      "div",
      { class: "variant" },
      el("h2", { text: R.page.table ? _("This table") : _("These rules") }),
      el(
        "ul",
        {},
        variant.map((t) => el("li", { text: t })),
      ),
      R.page.table ? null : presets(),
    ),
    el("h2", { text: _("The idea") }),
    p(
      _(
        "Each hand you get five cards and one card is turned up: its suit is trump. Then everyone decides: stay in, or go out. Whoever stays in must take at least one trick, or pay the bete.",
      ),
    ),
    demo(["AS", "KH", "QD", "JC", "TH"]),
    el("h2", { text: _("A hand step by step") }),
    el(
      "ol",
      {},
      el("li", {
        text: _(
          "Everyone puts the ante into the pot. The dealer deals five cards to each player and turns up the next card: trump.",
        ),
      }),
      el("li", {
        text: _(
          "Starting left of the dealer, each player says in or out; the dealer speaks last. Out costs nothing more this hand.",
        ),
      }),
      el("li", {
        text: _(
          "The player left of the dealer who is in leads the first trick. The others who are in play one card each, clockwise.",
        ),
      }),
      el("li", {
        text: _(
          "You must follow suit if you can. If you cannot, you must trump if you can. The highest trump wins the trick, or else the highest card of the suit led.",
        ),
      }),
      el("li", { text: _("The winner of a trick leads the next. After five tricks the hand is settled.") }),
    ),
    el("h2", { text: _("Who gets what") }),
    p(
      _(
        "The player who stayed in and took the most tricks takes the pot. Players tied for most share it; what cannot be shared evenly stays in the pot for the next hand.",
      ),
    ),
    p(_("Whoever stayed in and took no trick pays the bete into the pot for the next hand.")),
    p(
      o.dealer_forced || o.compulsory
        ? _("If only one player stays in, that player takes the pot without playing (a walkover).")
        : _(
            "If only one player stays in, that player takes the pot without playing (a walkover). If everyone goes out, the pot stays.",
          ),
    ),
    el("h2", { text: _("At this table") }),
    p(
      _(
        "The turn-up lies on the stock in the middle, with the trump suit and the pot. Cards you may not play are dimmed; if you try one, the table tells you why.",
      ),
    ),
    p(_("Keys: 1–5 play a card, I in, O out, L shows the last trick, S the score sheet, Esc closes a window.")),
    el(
      "p",
      {},
      el("a", {
        href: R.page.table && /\/t\//.test(document.referrer) ? document.referrer : "/?lang=" + R.lang,
        text: R.page.table ? _("Back to the table") : _("Back to the lobby"),
      }),
    ),
  );
  document
    .getElementById("app")
    .replaceChildren(
      el(
        "header",
        { class: "top" },
        el("div", { class: "brand" }, el("h1", { text: "Ramsli" })),
        el("nav", { class: "top-nav" }, R.langPicker()),
      ),
      el("main", {}, body),
    );
})();
