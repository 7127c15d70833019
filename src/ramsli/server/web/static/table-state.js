/* ramsli web, the table page: its state, in one place. Every module of the page reads and changes the
   state through `S`; the page data and the server's facts (close codes, reactions, languages) come
   from the shell (ramsli.server.web.shell, ramsli.server.web.facts). Nothing here decides a rule. */
const R = window.R;
const { ngettext } = R;

/* the page's data, rendered in by the server (table, token, role, seat, hint, info, facts) */
export const P = R.page;
/* the facts the server owns: close_codes (by name), final_close_codes, reactions, phrases, languages */
export const FACTS = P.facts;
/* the element the table is drawn into */
export const app = document.getElementById("app");

export const S = {
  view: null, // the latest view
  viewAt: 0, // performance.now() when the latest view came: its countdowns count from here
  ws: null,
  backoff: 500,
  closedFor: null, // the final close code that ended the connection (FACTS.final_close_codes)
  shownTricks: null, // how many completed tricks the page has shown
  hold: null, // {trick, hand}: a finished trick kept on the table until its winner is clear
  holdTimer: null,
  overlay: null, // "last", "sheet", "hand", "settings", "summary", "standings" or null
  summarySeen: 0, // the last hand whose summary was closed
  pendingSummary: null, // {number, settlement}: the summary of a finished hand, open until closed
  readySent: 0, // the last hand whose summary this page told the server it closed
  shownHand: null, // a finished hand read from the score sheet
  hintText: null,
  hintDetail: null, // the hint's numbers and which estimate answered
  hintBusy: false, // a hint is being computed: the button waits
  refusal: null, // {text, detail, until}: why the last move was refused, beside the status line for a few seconds
  lastTurnKey: null,
  chatLines: [], // the table's chat, oldest first ({n, seat, name, text | code})
  chatOpen: false,
  chatUnread: 0,
  bubbles: {}, // seat -> {text, until}: a chat line shown at its seat for a few seconds
  prevRects: null, // where seats and cards were in the last render (cards that move)
  botNote: null, // what a bot did for you (turn timer, away), shown until your own next move (table-announce.js)
  shownOverlay: null, // the dialog of the last render: focus goes back where it was when it closes
  returnFocus: null, // the card, choice or button focused before the dialog opened
};

export const me = () => (S.view && S.view.you.seat) || null;
export const seatName = (sid) => {
  if (!S.view) return sid;
  const s = S.view.seats.find((x) => x.seat === sid);
  return (s && s.name) || sid;
};
export const counters = (n) => ngettext("{n} counter", "{n} counters", n);
export const isPhone = () => window.matchMedia("(max-width: 700px)").matches;

/* the page's render (table.js sets it): a module that changed the state calls render() */
let renderer = () => {};
export function setRender(fn) {
  renderer = fn;
}
export function render() {
  renderer();
}
