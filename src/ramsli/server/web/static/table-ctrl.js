/* ramsli web, the table page: what a new view changes (docs/protocol.md, view): the trick held until
   its winner is clear, the hand's summary, the standings, your turn, the hint, the deal check. */
import { S, me, render } from "./table-state.js";
import { holdTrick } from "./table-trick.js";
import { turnElsewhere } from "./table-title.js";
import { checkDeal } from "./table-deal.js";
import { announceView } from "./table-announce.js";

const R = window.R;

export function onView(v) {
  const prev = S.view;
  S.view = v;
  S.viewAt = performance.now();
  const tricks = v.hand ? v.hand.tricks.length : 0;
  const handNo = v.hand ? v.hand.number : 0;
  if (S.shownTricks === null || !prev || !prev.hand || prev.hand.number !== handNo) {
    // first view, or a new hand: show what is there now (a new hand keeps the last trick of the old one held)
    if (!(prev && prev.hand && prev.hand.number !== handNo && S.hold)) S.hold = null;
    S.shownTricks = tricks;
  }
  if (tricks > S.shownTricks && v.hand.last_trick) {
    holdTrick(v.hand.last_trick, handNo);
    S.shownTricks = tricks;
  }
  if (S.pendingSummary && v.hand && v.hand.number > S.pendingSummary.number) {
    // the next hand is dealt: its summary never covers the new hand's choices (it stays in the score sheet)
    S.summarySeen = S.pendingSummary.number;
    S.pendingSummary = null;
    if (S.overlay === "summary") S.overlay = null;
  }
  if (!prev && v.status === "over" && v.hand) S.summarySeen = v.hand.number; // opened after the end: the standings only
  if (
    v.hand &&
    v.hand.phase === "over" &&
    v.hand.settlement &&
    v.hand.number > S.summarySeen &&
    !(S.pendingSummary && S.pendingSummary.number === v.hand.number)
  ) {
    S.pendingSummary = { number: v.hand.number, settlement: v.hand.settlement };
  }
  if (v.status === "over" && (!prev || prev.status !== "over") && !S.pendingSummary && S.overlay !== "settings")
    S.overlay = "standings";
  if (prev && prev.seq !== v.seq) {
    R.toastHide(); // a refusal's message is about the move before this one
    S.refusal = null;
  }
  const turnKey = v.to_act && v.to_act === me() ? `${handNo}:${v.seq}` : null;
  if (turnKey && turnKey !== S.lastTurnKey) {
    R.beep();
    turnElsewhere(true);
  }
  if (!turnKey) turnElsewhere(false);
  S.lastTurnKey = turnKey;
  if (!(v.hand && v.hand.phase === "declare" && v.to_act === me())) {
    S.hintText = null;
    S.hintDetail = null;
  }
  checkDeal(v);
  announceView(v);
  render();
}
