/* ramsli web, the table page: what a screen reader hears (issue 36.1). One polite live region,
   #announce, outside the re-rendered table: every event of the views said once, briefly, in the
   page's language ("Bernd plays the queen of hearts. Your turn: you must follow hearts."), the
   moves a bot made for you (the view's bot_moves: "Time's up: a bot played 10♦ for you"), chat
   lines, refusals, a lost and a regained connection; and the query keys' answers (H your cards,
   T the trick, K the pot, W who is in, C the stacks, R the time left).
   What was said is remembered per tab (sessionStorage: the hand, how much of its log, the turn)
   and the bot moves per seat (localStorage), so a re-render, a reconnect or a reload never says
   an event twice. Everything comes from the server's view; nothing here decides a rule. */
import { S, P, me, seatName, counters } from "./table-state.js";

const R = window.R;
const { _, el } = R;

/* the one live region (made on first use, never re-rendered) */
let region = null;
function liveRegion() {
  if (!region) {
    region = el("div", { id: "announce", class: "sr-only", "aria-live": "polite", "aria-relevant": "additions" });
    document.body.append(region);
  }
  return region;
}
// the region is on the page from the start: a screen reader follows a live region it has seen empty
liveRegion();
/* lines the region keeps (older ones go; a screen reader has read them) */
const KEEP = 12;
/* say one line in the live region */
export function say(text) {
  if (!text) return;
  const r = liveRegion();
  r.append(el("p", { text: text }));
  while (r.children.length > KEEP) r.firstElementChild.remove();
}

const who = P.seat || "watch";
const saidKey = `ramsli.said.${P.table}.${who}`;
const botKey = `ramsli.botmoves.${P.table}.${who}`;
function loadSaid() {
  try {
    return JSON.parse(sessionStorage.getItem(saidKey) || "null");
  } catch {
    return null;
  }
}
const lastBot = () => +(localStorage.getItem(botKey) || 0);

/* a card for reading ("queen of hearts"), or short for the eye ("Q♥", "10♦") */
function cardWords(code, short) {
  if (!short) return R.cardName(code);
  const c = R.parseCard(code);
  if (c.joker) return R.cardName(code);
  return R.rankLetter(c) + R.suitSymbol(c.suit);
}
/* what an action did, in words: "in", "out", "General Rams", "pass", "target 3", or its card */
function actionWords(a, short) {
  const [, kind, card] = a.split(" ");
  if (kind === "pl") return cardWords(card, short);
  if (kind === "in") return _("in");
  if (kind === "out") return _("out");
  if (kind === "gr") return _("General Rams");
  if (kind === "pass") return _("pass");
  if (kind[0] === "t") return _("target {n}", { n: kind.slice(1) });
  return a;
}
/* one public action of the log as a sentence */
function actionLine(a) {
  const [sid, kind, card] = a.split(" ");
  const mine = sid === me();
  const name = seatName(sid);
  if (kind === "pl")
    return mine
      ? _("You play the {card}.", { card: R.cardName(card) })
      : _("{name} plays the {card}.", { name: name, card: R.cardName(card) });
  if (kind === "in") return mine ? _("You are in.") : _("{name} is in.", { name: name });
  if (kind === "out") return mine ? _("You are out.") : _("{name} is out.", { name: name });
  if (kind === "gr") return _("{name} announces General Rams.", { name: name });
  if (kind === "pass") return _("{name} passes.", { name: name });
  if (kind[0] === "t") return _("{name} announces target {n}.", { name: name, n: kind.slice(1) });
  return a;
}

const turnKey = (v) => (v.to_act && v.to_act === me() && v.hand ? `${v.hand.number}:${v.seq}` : null);

/* "Your turn: …", saying what the legal actions allow (from `legal`; nothing decided here) */
export function turnPrompt(v) {
  const h = v.hand;
  if (!h) return "";
  if (h.phase === "declare") return _("Your turn: in or out?");
  if (h.phase === "general-rams") return _("Your turn: General Rams or pass?");
  if (h.phase === "targets") return _("Your turn: announce a target");
  if (h.phase !== "play") return "";
  const legal = (v.legal || []).filter((a) => a.split(" ")[1] === "pl").map((a) => R.parseCard(a.split(" ")[2]));
  const plays = h.current.plays;
  if (!plays.length) return _("Your lead: play a card");
  const led = R.parseCard(plays[0][1]);
  if (legal.length && legal.length < v.your_cards.length && !led.joker) {
    if (legal.every((c) => !c.joker && c.suit === led.suit))
      return _("Your turn: you must follow {suit}.", { suit: R.suitName(led.suit) });
    if (h.trump && legal.every((c) => c.joker || c.suit === h.trump))
      return _("Your turn: you must play a trump ({suit}).", { suit: R.suitName(h.trump) });
  }
  return _("Your turn: play a card");
}

/* the moves a bot made for you that this browser has not said yet: one line each kind, said and
   kept for the eye (S.botNote) until your own next move */
function botLines(v, since) {
  const fresh = (v.bot_moves || []).filter((m) => m.n > since);
  if (!fresh.length) return { lines: [], skip: new Set() };
  localStorage.setItem(botKey, String(fresh[fresh.length - 1].n));
  const lines = [],
    notes = [];
  const timer = fresh.filter((m) => m.by === "timer");
  const away = fresh.filter((m) => m.by !== "timer");
  if (away.length) {
    const list = (short) => away.map((m) => actionWords(m.action, short)).join(", ");
    lines.push(_("While you were away a bot played: {moves}", { moves: list(false) }));
    notes.push(_("While you were away a bot played: {moves}", { moves: list(true) }));
  }
  for (const m of timer) {
    lines.push(_("Time's up: a bot played {move} for you", { move: actionWords(m.action, false) }));
    notes.push(_("Time's up: a bot played {move} for you", { move: actionWords(m.action, true) }));
  }
  S.botNote = notes.join(" ");
  const skip = new Set(fresh.filter((m) => v.hand && m.hand === v.hand.number).map((m) => m.action));
  return { lines: lines, skip: skip };
}

/* where each other seat's person is: "" at the table, "away" (a bot comes in N s), "bot" (a bot
   plays while they are away), "left" (they left the table) */
function seatStates(v) {
  const out = {};
  for (const s of v.seats)
    if (s.taken && s.seat !== me())
      out[s.seat] = s.left && s.bot_playing ? "left" : s.bot_playing ? "bot" : s.away ? "away" : "";
  return out;
}
/* a seat's person went away, a bot took over, they left or came back: one line each change */
function seatLines(v, before) {
  const lines = [];
  const now = seatStates(v);
  for (const [sid, st] of Object.entries(now)) {
    const was = before[sid] || "";
    if (st === was) continue;
    const s = v.seats.find((x) => x.seat === sid);
    const name = seatName(sid);
    if (st === "away" && s.bot_in !== null && s.bot_in !== undefined)
      lines.push(_("A bot plays for {name} in {n} s", { name: name, n: Math.ceil(s.bot_in) }) + ".");
    else if (st === "bot" || st === "away") lines.push(_("{name} is away; a bot plays for them.", { name: name }));
    else if (st === "left") lines.push(_("{name} left the table; a bot plays until they are back.", { name: name }));
    else lines.push(_("{name} is back.", { name: name }));
  }
  return lines;
}

function record(v) {
  const h = v.hand;
  const said = {
    hand: h ? h.number : 0,
    log: h ? h.log.length : 0,
    over: !!(h && h.phase === "over"),
    status: v.status,
    turn: turnKey(v),
    seats: seatStates(v),
  };
  sessionStorage.setItem(saidKey, JSON.stringify(said));
}

/* what a new view says: called with every view, before the page draws it */
export function announceView(v) {
  const said = loadSaid();
  const h = v.hand;
  const out = [];
  const bot = botLines(v, lastBot());
  if (!said) {
    // a page opened now: nothing of the past is news, only what a bot did for you and your turn
    out.push(...bot.lines);
    if (turnKey(v)) out.push(turnPrompt(v));
    record(v);
    for (const line of out) say(line);
    return;
  }
  let from = said.log;
  if (h && h.number !== said.hand) {
    from = 0;
    const dealer = seatName(h.dealer);
    out.push(
      h.trump
        ? _("Hand {n}: {name} deals; the turn-up is {card}, trumps {suit}.", {
            n: h.number,
            name: dealer,
            card: R.cardName(h.turn_up),
            suit: R.suitName(h.trump),
          })
        : _("Hand {n}: {name} deals; the turn-up is {card}.", {
            n: h.number,
            name: dealer,
            card: R.cardName(h.turn_up),
          }),
    );
  }
  if (h) {
    // the plays before `from` tell where each trick ends
    let plays = h.log.slice(0, from).filter((a) => a.split(" ")[1] === "pl").length;
    const ends = [];
    let sum = 0;
    for (const t of h.tricks) ends.push((sum += t.plays.length));
    for (const a of h.log.slice(from)) {
      const isPlay = a.split(" ")[1] === "pl";
      const mine = a.split(" ")[0] === me();
      if (!(mine && bot.skip.has(a))) out.push(actionLine(a)); // a bot's move for you: said by its own line
      if (mine && !bot.skip.has(a)) S.botNote = null; // your own move: the note has been read
      if (isPlay) {
        plays += 1;
        const k = ends.indexOf(plays);
        if (k >= 0) out.push(_("{name} takes the trick.", { name: seatName(h.tricks[k].winner) }));
      }
    }
    if (h.phase === "over" && !(said.over && said.hand === h.number))
      out.push(_("Hand {n} is over", { n: h.number }) + ".");
  }
  out.push(...bot.lines);
  if (v.status === "playing") out.push(...seatLines(v, said.seats || {})); // (before the start people arrive)
  if (v.status === "over" && said.status !== "over") out.push(_("The session is over."));
  const tk = turnKey(v);
  if (tk && tk !== said.turn) out.push(turnPrompt(v));
  record(v);
  for (const line of out) say(line);
}

/* your turn timer: said once when a few seconds are left ("10 s left, then a bot moves for you") */
let warnedFor = null;
setInterval(() => {
  const v = S.view;
  if (!v || !v.timer || v.timer.seat !== me() || v.paused) return;
  const key = turnKey(v);
  if (!key || key === warnedFor) return;
  const warnAt = Math.min(10, Math.floor(v.timer.seconds / 2));
  if (v.timer.left <= warnAt) {
    warnedFor = key; // the turn began (or the page opened) with less left: nothing to warn of
    return;
  }
  const left = Math.ceil(v.timer.left - (performance.now() - S.viewAt) / 1000);
  if (left <= warnAt && left > 0) {
    warnedFor = key;
    say(_("{n} s left, then a bot moves for you", { n: left }) + ".");
  }
}, 250);

/* a chat line or reaction just said by someone else, read as words */
export function sayChat(name, words) {
  say(_("{name} says: {text}", { name: name, text: words }));
}

/* the connection: lost once, back once ("Reconnected"), whatever the number of tries */
let lost = false;
export function sayConnection(ok) {
  if (!ok && !lost) {
    lost = true;
    say(_("Connection lost — reconnecting…"));
  } else if (ok && lost) {
    lost = false;
    say(_("Reconnected"));
  }
}

/* ---- the query keys: each reads one thing into the live region, on demand ---- */

function readHand() {
  const v = S.view;
  if (!v || !v.your_cards.length) return _("You have no cards.");
  const h = v.hand;
  const cards = R.sortHand(v.your_cards, h && h.trump).map((c) => R.cardName(c));
  return _("Your cards: {cards}.", { cards: cards.join(", ") });
}
function readTrick() {
  const v = S.view,
    h = v && v.hand;
  if (!h) return _("No hand is being played.");
  const trumps = h.trump ? " " + _("Trumps: {suit}.", { suit: R.suitName(h.trump) }) : "";
  const plays = h.current.plays;
  if (!plays.length) {
    const lead = h.current.leader || (h.phase === "play" ? v.to_act : null);
    return (
      (lead ? _("No card on the table; {name} leads.", { name: seatName(lead) }) : _("No card on the table.")) + trumps
    );
  }
  const list = plays.map(([sid, code]) => _("{name}: {card}", { name: seatName(sid), card: R.cardName(code) }));
  return _("On the table: {cards}.", { cards: list.join(", ") }) + trumps;
}
function readPot() {
  const h = S.view && S.view.hand;
  if (!h) return _("No hand is being played.");
  return _("Pot: {n}", { n: h.pot }) + " (" + counters(h.pot) + ").";
}
function readIn() {
  const v = S.view;
  if (!v || !v.hand) return _("No hand is being played.");
  const seats = v.seats.filter((s) => s.seated !== false);
  const names = (f) => seats.filter(f).map((s) => seatName(s.seat));
  const parts = [];
  const ins = names((s) => s.in === true),
    outs = names((s) => s.in === false),
    open = names((s) => s.in === null || s.in === undefined);
  if (ins.length) parts.push(_("In: {names}.", { names: R.listText(ins) }));
  if (outs.length) parts.push(_("Out: {names}.", { names: R.listText(outs) }));
  if (open.length) parts.push(_("Still to declare: {names}.", { names: R.listText(open) }));
  return parts.join(" ");
}
function readStacks() {
  const v = S.view;
  if (!v) return "";
  const list = v.seats
    .filter((s) => s.seated !== false)
    .map((s) => _("{name}: {counters}", { name: seatName(s.seat), counters: counters(s.stack) }));
  return _("Stacks: {list}.", { list: list.join(", ") });
}
function readTime() {
  const v = S.view;
  if (!v) return "";
  const gone = (performance.now() - S.viewAt) / 1000;
  const left = (x) => Math.max(0, Math.ceil(x - gone));
  const parts = [];
  if (v.timer)
    parts.push(
      v.timer.seat === me()
        ? _("{n} s left, then a bot moves for you", { n: left(v.timer.left) })
        : _("{name} has {n} s left", { name: seatName(v.timer.seat), n: left(v.timer.left) }),
    );
  for (const s of v.seats)
    if (s.bot_in !== null && s.bot_in !== undefined)
      parts.push(_("A bot plays for {name} in {n} s", { name: seatName(s.seat), n: left(s.bot_in) }));
  if (v.next_deal) parts.push(_("Next hand in {n} s", { n: left(v.next_deal.in) }));
  if (v.starts_in !== null && v.starts_in !== undefined)
    parts.push(_("The session starts in {n} s.", { n: left(v.starts_in) }));
  return parts.length ? parts.join(". ") + "." : _("No clock is running.");
}

/* the query keys (lower case) and what each reads */
export const QUERY_KEYS = { h: readHand, t: readTrick, k: readPot, w: readIn, c: readStacks, r: readTime };
/* answer a query key: true if `key` is one */
export function query(key) {
  const fn = QUERY_KEYS[key];
  if (!fn || !S.view) return false;
  say(fn());
  return true;
}
/* the keyboard help's line about them */
export const queryHelp = () =>
  _("Read aloud: H your cards, T the trick, K the pot, W who is in, C the stacks, R the time left.");
