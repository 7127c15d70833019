/* ramsli web, the table page: the deal check (docs/fairness.md).
   Every view carries the hand's commitments (one SHA-256 per deck position, dealt order) and the
   openings of the cards this page may know. Each opening is hashed here with Web Crypto and
   compared with its commitment; each card shown (own cards, the turn-up, jokers turned aside,
   every played card) must be opened at a position the deal gives its place. A ramsli-deal/2
   digest names its table, hand, dealer and seats: they must be this page's table and the hand
   shown. The digest seen at the deal is kept in localStorage (by table and hand number): a later
   view or summary of that hand with another digest is a warning, after a reload too. */
import { P, S, me, render } from "./table-state.js";

const R = window.R;
const { _, ngettext, el } = R;

const dealChecks = {}; // hand number -> {digest, commitments, state: "ok" | "bad" | "off", n, reason}
const hashes = new Map(); // "salt:position:card" -> hex SHA-256
let dealRun = 0;
const SEEN_KEY = "ramsli.deals"; // localStorage: {"table:hand": digest seen at the deal}
const SEEN_KEEP = 400; // the most hands remembered (the oldest are forgotten first)
/* the digest this browser saw first for hand n of this table, or null */
function seenDigest(n) {
  try {
    return JSON.parse(localStorage.getItem(SEEN_KEY) || "{}")[`${P.table}:${n}`] || null;
  } catch (_e) {
    return null;
  }
}
/* remember the digest of hand n of this table, unless one is remembered already */
function keepDigest(n, digest) {
  try {
    const seen = JSON.parse(localStorage.getItem(SEEN_KEY) || "{}");
    const key = `${P.table}:${n}`;
    if (seen[key]) return;
    seen[key] = digest;
    const keys = Object.keys(seen);
    for (const k of keys.slice(0, Math.max(0, keys.length - SEEN_KEEP))) delete seen[k];
    localStorage.setItem(SEEN_KEY, JSON.stringify(seen));
  } catch (_e) {
    /* no storage (private mode, full): the check within this page still runs */
  }
}
const CHECKED_KEY = "ramsli.deals.checked"; // localStorage: {"table:hand": digest whose deal checked here}
/* remember that the deal of hand n (digest) checked in this browser, for the score sheet after a
   reload; digest null: it did not check (forgotten) */
function keepChecked(n, digest) {
  try {
    const done = JSON.parse(localStorage.getItem(CHECKED_KEY) || "{}");
    const key = `${P.table}:${n}`;
    if (done[key] === digest || (!digest && !(key in done))) return;
    if (digest) done[key] = digest;
    else delete done[key];
    const keys = Object.keys(done);
    for (const k of keys.slice(0, Math.max(0, keys.length - SEEN_KEEP))) delete done[k];
    localStorage.setItem(CHECKED_KEY, JSON.stringify(done));
  } catch (_e) {
    /* no storage: the mark shows for the hands this page checked */
  }
}
/* true if this browser checked the deal of hand n before (an earlier page of this table) with the
   digest it saw at the deal */
function checkedBefore(n) {
  try {
    const d = JSON.parse(localStorage.getItem(CHECKED_KEY) || "{}")[`${P.table}:${n}`];
    return !!d && d === seenDigest(n);
  } catch (_e) {
    return false;
  }
}
/* the text hashed before the commitments (docs/fairness.md): ramsli-deal/2 binds the table, the
   hand's number, its dealer and its seats; ramsli-deal/1 nothing */
const digestHead = (f) =>
  f.scheme === "ramsli-deal/1"
    ? ""
    : `ramsli-deal/2\ntable=${f.table}\nhand=${f.hand}\ndealer=${f.dealer}\nseated=${f.seated.join(",")}\n`;
/* what is wrong with the binding of fairness f shown with hand number n and dealer, or null */
function bindingProblem(f, n, dealer) {
  if (f.scheme === "ramsli-deal/1") return null;
  if (f.scheme !== "ramsli-deal/2") return _("the deal uses the unknown scheme {scheme}", { scheme: String(f.scheme) });
  if (f.table !== P.table)
    return _("the digest is bound to table {bound}, not to this table: the commitments of another table", {
      bound: String(f.table),
    });
  if (f.hand !== n)
    return _("the digest is bound to hand {bound}, but this is hand {hand}: the commitments of another hand", {
      bound: String(f.hand),
      hand: n,
    });
  if (dealer && f.dealer !== dealer)
    return _("the digest is bound to dealer {bound}, but {dealer} dealt this hand: the commitments of another hand", {
      bound: String(f.dealer),
      dealer: dealer,
    });
  return null;
}
/* the digest of hand n changed since this browser saw it at the deal: the warning, or null */
function changedSince(n, digest) {
  const seen = seenDigest(n);
  if (!seen || seen === digest) return null;
  return _("the digest {digest}… differs from the one this browser saw at the deal ({seen}…)", {
    digest: digest.slice(0, 16),
    seen: seen.slice(0, 16),
  });
}
/* true if the deal of hand n checked: on this page, or (a hand seen before a reload, not checked
   here and not found wrong here) in this browser with the digest it saw at the deal */
export const dealOk = (n) => (dealChecks[n] && dealChecks[n].state ? dealChecks[n].state === "ok" : checkedBefore(n));
async function sha256hex(text) {
  if (hashes.has(text)) return hashes.get(text);
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const hex = Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
  if (hashes.size > 4000) hashes.clear();
  hashes.set(text, hex);
  return hex;
}
/* seat -> positions of its five cards, the jokers turned aside, the turn-up (R4.3, R4.4, D-9) */
function dealPlaces(v) {
  const h = v.hand,
    opts = v.rules.options || {};
  const ids = h.fairness.seated; // the seats dealt in this hand (R3.5), not those seated now
  const all = v.seats.map((s) => s.seat);
  const d = all.indexOf(h.dealer);
  const order = [];
  for (let k = 1; k <= all.length; k++) {
    const sid = all[(d + k) % all.length];
    if (ids.includes(sid)) order.push(sid);
  }
  const first = opts.batches === "2+3" ? 2 : 3;
  const seats = {};
  let pos = 0;
  for (const batch of [first, 5 - first])
    for (const sid of order) {
      seats[sid] = (seats[sid] || []).concat([...Array(batch).keys()].map((i) => pos + i));
      pos += batch;
    }
  const aside = h.turned_aside.map((_c, i) => pos + i);
  const size = (opts.deck === "full52" ? 52 : 32) + (opts.jokers ? 2 : 0);
  return { seats: seats, aside: aside, turnUp: pos + aside.length, size: size };
}
async function dealProblem(v, f, pinned) {
  const h = v.hand,
    pl = dealPlaces(v);
  if (pinned.digest !== f.digest || pinned.commitments.join() !== f.commitments.join())
    return _("the commitments changed during the hand");
  const since = changedSince(h.number, f.digest);
  if (since) return since;
  const bound = bindingProblem(f, h.number, h.dealer);
  if (bound) return bound;
  if (f.commitments.length !== pl.size)
    return _("{n} commitments for a deck of {size} cards", { n: f.commitments.length, size: pl.size });
  if ((await sha256hex(digestHead(f) + f.commitments.join(""))) !== f.digest)
    return _("the digest does not match the commitments");
  const byPos = new Map(),
    byCard = new Map();
  for (const o of f.openings) {
    if (byPos.has(o.position) || byCard.has(o.card)) return _("{card} is opened twice", { card: R.cardName(o.card) });
    byPos.set(o.position, o);
    byCard.set(o.card, o);
    if ((await sha256hex(`${o.salt}:${o.position}:${o.card}`)) !== f.commitments[o.position])
      return _("position {position}: {card} does not match its commitment", {
        position: o.position,
        card: R.cardName(o.card),
      });
  }
  const at = (pos, card) => {
    const o = byPos.get(pos);
    return o && o.card === card;
  };
  const missing = (card) => _("{card} is not opened where the deal put it", { card: R.cardName(card) });
  if (!at(pl.turnUp, h.turn_up)) return missing(h.turn_up);
  for (let i = 0; i < h.turned_aside.length; i++)
    if (!at(pl.aside[i], h.turned_aside[i])) return missing(h.turned_aside[i]);
  const plays = h.tricks.flatMap((t) => t.plays).concat(h.current.plays);
  for (const [sid, card] of plays) {
    const o = byCard.get(card);
    if (!o || !(pl.seats[sid] || []).includes(o.position)) return missing(card);
  }
  if (me() && v.your_cards.length)
    for (const card of v.your_cards) {
      const o = byCard.get(card);
      if (!o || !(pl.seats[me()] || []).includes(o.position)) return missing(card);
    }
  return null;
}
/* checks the deal of view v's hand; redraws the page when the result changed */
export async function checkDeal(v) {
  const h = v.hand,
    f = h && h.fairness;
  if (!f) return;
  const n = h.number;
  const c =
    dealChecks[n] ||
    (dealChecks[n] = { digest: f.digest, commitments: f.commitments.slice(), state: null, n: 0, reason: "" });
  if (c.state === "bad") return; // a mismatch stays shown for that hand
  if (!changedSince(n, f.digest)) keepDigest(n, f.digest); // the first digest seen is kept
  if (!(window.crypto && crypto.subtle)) {
    c.state = "off";
    return;
  }
  const run = ++dealRun;
  let reason;
  try {
    reason = await dealProblem(v, f, c);
  } catch (e) {
    reason = String((e && e.message) || e);
  }
  if (run !== dealRun && !reason) return; // a newer view is being checked
  const before = c.state + c.n;
  c.state = reason ? "bad" : "ok";
  c.reason = reason || "";
  c.n = f.openings.length;
  keepChecked(n, reason ? null : f.digest);
  if (before !== c.state + c.n) render();
}
/* A finished hand's summary (hands/{n}.json, opened from the score sheet): the warning when its
   digest is not the one this browser saw at the deal of hand n (this page or an earlier one), or
   when it names another table, hand or dealer; null when it agrees (or was never seen). A
   warning also marks hand n as not checked on the page. */
export function summaryDigestProblem(hv) {
  const f = hv && hv.fairness;
  if (!f) return null;
  const n = hv.number;
  const pinned = dealChecks[n] ? dealChecks[n].digest : null;
  let reason = changedSince(n, f.digest);
  if (!reason && pinned && pinned !== f.digest)
    reason = _("the digest {digest}… differs from the one this browser saw at the deal ({seen}…)", {
      digest: f.digest.slice(0, 16),
      seen: pinned.slice(0, 16),
    });
  if (!reason) reason = bindingProblem(f, n, hv.dealer);
  if (!reason) {
    keepDigest(n, f.digest);
    return null;
  }
  const c =
    dealChecks[n] ||
    (dealChecks[n] = { digest: f.digest, commitments: f.commitments.slice(), state: null, n: 0, reason: "" });
  if (c.state !== "bad") {
    c.state = "bad";
    c.reason = reason;
  }
  keepChecked(n, null);
  return reason;
}
/* the deal check's region: a mark for this hand, a loud warning for every hand that did not check */
export function dealMark() {
  const h = S.view.hand,
    c = h && dealChecks[h.number];
  const bad = Object.keys(dealChecks).filter((n) => dealChecks[n].state === "bad");
  document.body.dataset.deal = c && c.state ? c.state : "";
  if (bad.length) {
    // every hand that did not check stays on the page, loud
    return el(
      "div",
      { id: "deal-warning", class: "deal-warnings", role: "alert" },
      bad.map((n) =>
        el("div", {
          class: "banner deal-warning",
          "data-hand": n,
          text: _(
            "Warning: the deal of hand {hand} does not match what was committed before the first declaration: {reason}. Download the hand history and check it with ramsli verify.",
            { hand: n, reason: dealChecks[n].reason },
          ),
        }),
      ),
    );
  }
  if (!c || !c.state) return "";
  if (c.state === "off") {
    return el("p", {
      class: "deal-mark muted",
      id: "deal-mark",
      text: _(
        "Deal not checked: this browser checks deals only on https or localhost pages; check the downloaded hand with ramsli verify.",
      ),
    });
  }
  const what = ngettext(
    "Deal checked: the {n} card you know of hand {hand} is the one committed before the first declaration.",
    "Deal checked: the {n} cards you know of hand {hand} are the ones committed before the first declaration.",
    c.n,
    { hand: h.number },
  );
  return el(
    "p",
    {
      class: "deal-mark",
      id: "deal-mark",
      role: "status",
      title: what + " SHA-256 " + c.digest.slice(0, 16) + "…",
      "aria-label": what,
    },
    el("span", { "aria-hidden": "true", text: "✓ " }),
    el("span", { text: _("Deal checked") }),
  );
}
