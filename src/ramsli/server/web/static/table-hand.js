/* ramsli web, the table page: your cards (the ones `legal` allows to play lit) and your choices
   (in, out, General Rams, pass, targets; the coach's hint when the creator allows it). */
import { S, P, me, render } from "./table-state.js";
import { send } from "./table-connection.js";
import { releaseHold } from "./table-trick.js";

const R = window.R;
const { _, el } = R;

/* your cards' region */
export function handRow() {
  const view = S.view,
    h = view.hand;
  const row = el("div", { class: "hand-row", role: "group", "aria-label": _("Your cards") });
  if (!h || !view.your_cards.length) return row;
  const legal = new Set((view.legal || []).filter((a) => a.split(" ")[1] === "pl").map((a) => a.split(" ")[2]));
  // while the finished trick is still shown (S.hold) the lead of the next one is not in sight yet:
  // nothing is lit, and a tap on a card brings the table up to date instead of playing it
  const playing = h.phase === "play" && view.to_act === me() && !S.hold;
  const cards = R.sortHand(view.your_cards, h.trump);
  cards.forEach((code, k) => {
    const ok = !playing || legal.has(code);
    const c = R.parseCard(code);
    const trump = c.joker || c.suit === h.trump;
    const name = R.cardName(code) + (trump ? ", " + _("trump") : "") + (playing && !ok ? ", " + _("not playable") : "");
    // the name is the button's own (hidden) text, so what it shows and what it is called never differ
    const b = el(
      "button",
      {
        type: "button",
        class: "card hand-card" + (ok ? "" : " dim") + (playing && ok ? " can-play" : "") + (trump ? " is-trump" : ""),
        "aria-disabled": playing && !ok ? "true" : null,
        "data-card": code,
        "aria-keyshortcuts": String(k + 1),
        onclick: () => {
          if (S.hold) releaseHold();
          else send(`${me()} pl ${code}`);
        },
      },
      el("span", { class: "sr-only card-name", text: name }),
      R.cardSVG(code),
    );
    if (trump) b.append(el("span", { class: "trump-flag", "aria-hidden": "true", text: _("trump") }));
    if (playing && !ok) b.append(el("span", { class: "no-flag", "aria-hidden": "true", text: "⊘" }));
    row.append(b);
  });
  return row;
}

/* a choice's words with its key: the key's letter marked in the word when the word holds it ("rein",
   "out"), else the key apart after the word (nl "mee", key I: "mee  [I]"), never run into the word */
function keyedLabel(text, key) {
  if (!key) return [text];
  const at = text.toLowerCase().indexOf(key.toLowerCase());
  // one inline span: the button lays out its children apart (a flex gap), so the word must be one child
  if (at >= 0)
    return [el("span", {}, text.slice(0, at), el("u", { class: "key-letter", text: text[at] }), text.slice(at + 1))];
  return [text, el("kbd", { class: "key-apart", "aria-hidden": "true", text: key.toUpperCase() })];
}

/* your choices' region: one button per legal action that is not a card, the hint */
export function actionButtons() {
  const view = S.view;
  const bar = el("div", { class: "actions", role: "toolbar", "aria-label": _("Your choices") });
  const legal = view.legal || [];
  for (const a of legal) {
    const parts = a.split(" ");
    const kind = parts[1];
    if (kind === "pl") continue;
    let text, key;
    if (kind === "in") {
      text = _("in");
      key = "i";
    } else if (kind === "out") {
      text = _("out");
      key = "o";
    } else if (kind === "gr") {
      text = _("General Rams");
      key = "g";
    } else if (kind === "pass") {
      text = _("pass");
      key = "p";
    } else if (kind[0] === "t") {
      text = _("target {n}", { n: kind.slice(1) });
      key = kind.slice(1);
    } else text = a;
    bar.append(
      el(
        "button",
        {
          type: "button",
          class: "act act-" + kind + (kind === "in" ? " primary" : ""),
          "data-action": a,
          "aria-keyshortcuts": key,
          onclick: () => send(a),
        },
        ...keyedLabel(text, key),
      ),
    );
  }
  if (P.hint && view.hand && view.hand.phase === "declare" && view.to_act === me()) {
    bar.append(
      el("button", {
        type: "button",
        class: "act hint-btn",
        id: "hint-btn",
        onclick: askHint,
        disabled: S.hintBusy,
        "aria-busy": S.hintBusy ? "true" : null,
        text: S.hintBusy ? _("Thinking…") : _("Should I stay in?"),
      }),
    );
  }
  if (S.hintText) {
    bar.append(
      el(
        "div",
        { class: "hint", role: "status", id: "hint" },
        el("div", { class: "hint-words", text: S.hintText }),
        /* the numbers behind the words, for the curious: behind "Details" (issue 36.3) */
        S.hintDetail
          ? el(
              "details",
              { class: "hint-detail note" },
              el("summary", { text: _("Details") }),
              el("span", { text: S.hintDetail }),
            )
          : "",
      ),
    );
  }
  return bar;
}

/* the hint in player words first ("Stay in: about 2.0 counters better than going out"), the numbers
   and which estimate answered in the detail line; the words come from the server in the page's language */
async function askHint() {
  if (S.hintBusy) return; // one question at a time: the button waits while the coach thinks
  S.hintBusy = true;
  S.hintText = _("Thinking…");
  S.hintDetail = null;
  render();
  try {
    const r = await R.api("GET", `/api/tables/${P.table}/hint?token=${encodeURIComponent(P.token)}&lang=${R.lang}`);
    S.hintText = r.text;
    S.hintDetail = r.detail;
  } catch (e) {
    S.hintText = e.message; // the server's refusal, in the page's language
    S.hintDetail = null;
  }
  S.hintBusy = false;
  render();
}
