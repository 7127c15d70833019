/* ramsli web: the card table of one seat (or a spectator).
   Everything shown comes from the server's latest `view` (docs/protocol.md); legality comes from `legal`,
   refusals (and their reasons) from the server's `error` messages. Nothing here decides a rule. */
"use strict";
(function () {
  const R = window.R, _ = R._, ngettext = R.ngettext, el = R.el;
  R.applySettings();
  const app = document.getElementById("app");
  const P = R.page;
  let view = null;        // the latest view
  let ws = null, backoff = 500, closedFor = null;
  let shownTricks = null; // how many completed tricks the page has shown
  let hold = null;        // {trick, until}: a finished trick kept on the table until its winner is clear
  let holdTimer = null;
  let overlay = null;     // "last", "sheet", "settings", "summary", "standings" or null
  let summarySeen = 0;    // the last hand whose summary was closed
  let pendingSummary = null; // {number, settlement}: the summary of a finished hand, open until closed
  let hintText = null;
  let hintDetail = null;  // the hint's numbers and which estimate answered
  let hintBusy = false;   // a hint is being computed: the button waits
  let lastTurnKey = null;
  let viewAt = 0;         // performance.now() when the latest view came: its countdowns count from here
  let chatLines = [];     // the table's chat, oldest first ({n, seat, name, text | code})
  let chatOpen = false, chatUnread = 0;
  const bubbles = {};     // seat -> {text, until}: a chat line shown at its seat for a few seconds
  let readySent = 0;      // the last hand whose summary this page told the server it closed
  let prevRects = null;   // where seats and cards were in the last render (cards that move)

  const seatName = (sid) => {
    if (!view) return sid;
    const s = view.seats.find((x) => x.seat === sid);
    return (s && s.name) || sid;
  };
  const me = () => (view && view.you.seat) || null;
  const counters = (n) => ngettext("{n} counter", "{n} counters", n);

  /* ---------------- connection ---------------- */
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}${R.url("/ws/" + P.table)}`);
    ws.onopen = () => { backoff = 500; ws.send(JSON.stringify({ type: "hello", token: P.token, lang: R.lang })); setConn(true); };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "view") onView(msg);
      else if (msg.type === "error") onError(msg);
      else if (msg.type === "chat") onChat(msg, true);
      else if (msg.type === "chat_log") { chatLines = msg.lines.slice(); drawChat(); }
    };
    ws.onclose = (ev) => {
      if (ev.code === 4002) { location.href = "/?lang=" + R.lang; return; } // left the table: to the lobby
      if ([4001, 4003, 4004].includes(ev.code)) {
        closedFor = ev.code; // no reconnecting: one clear banner, the table greyed out
        setConn(true);
        render();
        closedBanner();
        return;
      }
      setConn(false);
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 8000);
    };
  }
  function setConn(ok) {
    const c = document.getElementById("conn");
    if (!c) return;
    c.textContent = ok ? "" : navigator.onLine === false
      ? _("You are offline. The table goes on: after the grace period a bot plays for you until you are back.")
      : _("Connection lost — reconnecting…");
    c.hidden = ok;
  }
  window.addEventListener("offline", () => setConn(false));
  window.addEventListener("online", () => { if (ws && ws.readyState === 1) setConn(true); });
  function send(action) {
    if (!ws || ws.readyState !== 1 || !view) return;
    ws.send(JSON.stringify({ type: "act", action: action, seq: view.seq }));
  }
  function onError(e) {
    if (e.code === "stale_seq") return; // a newer view is on its way
    if (e.code === "replaced" || e.code === "left") return;
    // the rule id once, in the detail line: "must follow suit: play ♦" / "Rule R4.10"
    const text = e.rule ? e.message.replace(` (${e.rule})`, "") : e.message;
    // just above your cards, never over the top bar, the pot or the seats
    const hand = document.querySelector(".hand-row");
    const top = hand ? hand.getBoundingClientRect().top : -1;
    R.toast(text, e.rule ? _("Rule {rule}", { rule: e.rule }) : "", "bad", top > 80 && top < innerHeight ? innerHeight - top + 6 : undefined);
  }
  function banner(text) {
    const b = document.getElementById("banner");
    if (b) { b.textContent = text; b.hidden = false; }
    return b;
  }
  function closedBanner() {
    const b = banner(closedFor === 4001 ? _("This seat was opened in another window or tab; play there.")
      : closedFor === 4003 ? _("This link is not valid for this table.") : _("There is no such table on this server."));
    if (b && closedFor === 4001) {
      b.append(" ", el("button", { type: "button", class: "small", id: "play-here", text: _("Play here again"),
        onclick: () => { closedFor = null; b.hidden = true; render(); connect(); } }));
    }
  }

  function onView(v) {
    const prev = view;
    view = v;
    viewAt = performance.now();
    const tricks = v.hand ? v.hand.tricks.length : 0;
    const handNo = v.hand ? v.hand.number : 0;
    if (shownTricks === null || !prev || !prev.hand || prev.hand.number !== handNo) {
      // first view, or a new hand: show what is there now
      if (prev && prev.hand && prev.hand.number !== handNo && hold) { /* keep the last trick of the old hand */ }
      else { hold = null; }
      shownTricks = tricks;
    }
    if (tricks > shownTricks && v.hand.last_trick) {
      hold = { trick: v.hand.last_trick, hand: handNo };
      shownTricks = tricks;
      clearTimeout(holdTimer);
      holdTimer = setTimeout(releaseHold, Math.max(300, (R.settings.trickPause || 1.6) * 1000));
    }
    if (pendingSummary && v.hand && v.hand.number > pendingSummary.number) {
      // the next hand is dealt: its summary never covers the new hand's choices (it stays in the score sheet)
      summarySeen = pendingSummary.number; pendingSummary = null;
      if (overlay === "summary") overlay = null;
    }
    if (!prev && v.status === "over" && v.hand) summarySeen = v.hand.number; // opened after the end: the standings only
    if (v.hand && v.hand.phase === "over" && v.hand.settlement && v.hand.number > summarySeen &&
        !(pendingSummary && pendingSummary.number === v.hand.number)) {
      pendingSummary = { number: v.hand.number, settlement: v.hand.settlement };
    }
    if (v.status === "over" && (!prev || prev.status !== "over") && !pendingSummary && overlay !== "settings") overlay = "standings";
    if (prev && prev.seq !== v.seq) R.toastHide(); // a refusal's message is about the move before this one
    const turnKey = v.to_act && v.to_act === me() ? `${handNo}:${v.seq}` : null;
    if (turnKey && turnKey !== lastTurnKey) { R.beep(); turnElsewhere(true); }
    if (!turnKey) turnElsewhere(false);
    lastTurnKey = turnKey;
    if (!(v.hand && v.hand.phase === "declare" && v.to_act === me())) { hintText = null; hintDetail = null; }
    checkDeal(v);
    render();
  }
  function releaseHold() {
    clearTimeout(holdTimer);
    if (!hold) return;
    const won = hold.trick.winner, moving = document.querySelectorAll(".card.played");
    const to = document.querySelector(`.seat[data-seat="${won}"]`);
    hold = null;
    if (!R.moves() || !to || !moving.length) { render(); return; }
    // the trick travels to its winner, then the table goes on
    const t = to.getBoundingClientRect();
    for (const c of moving) {
      const r = c.getBoundingClientRect();
      c.classList.add("collect");
      c.style.translate = `${t.left + t.width / 2 - (r.left + r.width / 2)}px ${t.top + t.height / 2 - (r.top + r.height / 2)}px`;
    }
    setTimeout(render, 320);
  }

  /* ---------------- your turn in another tab ---------------- */
  const plainTitle = () => _("Ramsli — a card table");
  let turnMarked = false;
  function setIcon(href) {
    const link = document.querySelector("link[rel=icon]");
    if (link) link.href = href;
  }
  function turnElsewhere(mine) {
    if (mine && document.hidden) {
      turnMarked = true;
      document.title = "▶ " + _("Your turn — Ramsli");
      setIcon("/static/icon-turn.svg");
      if (R.settings.notify && window.Notification && Notification.permission === "granted") {
        try { new Notification(_("Your turn — Ramsli"), { body: statusText(), tag: "ramsli-turn", icon: "/static/icon-192.png" }); }
        catch (e) { /* a page without notifications: the title says it */ }
      }
    } else if (!mine || !document.hidden) {
      if (turnMarked) { document.title = plainTitle(); setIcon("/static/icon.svg"); turnMarked = false; }
    }
  }
  document.addEventListener("visibilitychange", () => { if (!document.hidden) turnElsewhere(false); });

  /* ---------------- countdowns ---------------- */
  /* a countdown element: its text is fmt(seconds left), counted from the view it came in */
  function countdown(seconds, fmt, cls) {
    const until = viewAt + seconds * 1000;
    const e = el("span", { class: "countdown " + (cls || ""), "data-until": String(until) });
    e._fmt = fmt;
    tickOne(e, performance.now());
    return e;
  }
  function tickOne(e, now) {
    const left = Math.max(0, Math.ceil((+e.dataset.until - now) / 1000));
    const text = e._fmt(left);
    if (e.textContent !== text) e.textContent = text;
    e.classList.toggle("last-seconds", left <= 5);
  }
  setInterval(() => {
    const now = performance.now();
    for (const e of document.querySelectorAll(".countdown")) if (e._fmt) tickOne(e, now);
    for (const k of Object.keys(bubbles)) if (bubbles[k].until < Date.now()) { delete bubbles[k]; const b = document.querySelector(`.seat[data-seat="${k}"] .bubble`); if (b) b.remove(); }
  }, 250);
  const secs = (n) => ngettext("{n} second", "{n} seconds", n);

  /* what everyone sees about waiting: an away seat's countdown, the turn timer, the next deal */
  function notices() {
    const box = el("div", { class: "notices", id: "notices" });
    const creator = R.creatorToken(P.table);
    for (const s of view.seats) {
      if (s.bot_in !== null && s.bot_in !== undefined) {
        const who = s.name || s.seat;
        const row = el("p", { class: "notice away-notice", "data-seat": s.seat },
          countdown(s.bot_in, (n) => _("A bot plays for {name} in {n} s", { name: who, n: n })));
        if (creator) row.append(" ", el("button", { type: "button", class: "small", "data-bot-now": s.seat,
          text: _("Let the bot play now"), onclick: async () => {
            try { await R.api("POST", `/api/tables/${P.table}/bot-now`, { creator_token: creator, seat: s.seat }); }
            catch (e) { R.toast(e.message, "", "bad"); }
          } }));
        box.append(row);
      } else if (s.left && s.bot_playing) {
        box.append(el("p", { class: "notice", text: _("{name} left the table; a bot plays until they are back.", { name: s.name || s.seat }) }));
      }
    }
    if (view.timer) {
      const mine = view.timer.seat === me();
      box.append(el("p", { class: "notice timer-notice" + (mine ? " mine" : ""), id: mine ? "my-timer" : "turn-timer", role: mine ? "timer" : null },
        countdown(view.timer.left, (n) => mine ? _("{n} s left, then a bot moves for you", { n: n })
          : _("{name} has {n} s left", { name: seatName(view.timer.seat), n: n }), "turn-left")));
    }
    if (view.next_deal && overlay !== "summary") {
      const wait = view.next_deal.waiting.filter((x) => x !== me()).map(seatName);
      box.append(el("p", { class: "notice" }, countdown(view.next_deal.in, (n) => wait.length
        ? _("Next hand in {n} s, or when {names} closed the summary", { n: n, names: R.listText(wait) })
        : _("Next hand in {n} s", { n: n }))));
    }
    return box;
  }

  /* ---------------- chat ---------------- */
  const REACTIONS = { thumbs_up: "👍", laugh: "😄", wow: "😮", grimace: "😬", clap: "👏", facepalm: "🤦" };
  const reactionName = (code) => ({ thumbs_up: _("thumbs up"), laugh: _("laughing"), wow: _("surprised"),
    grimace: _("grimacing"), clap: _("applause"), facepalm: _("facepalm") })[code] || code;
  const phraseText = (code) => ({ well_played: _("Well played"), good_luck: _("Good luck"), thanks: _("Thanks"),
    nice_hand: _("Nice hand"), oops: _("Oops"), one_more: _("One more session?") })[code] || code;
  const lineText = (m) => m.code ? (REACTIONS[m.code] ? REACTIONS[m.code] : phraseText(m.code)) : m.text;
  const mutedKey = "ramsli.muted." + P.table;
  const muted = () => new Set(JSON.parse(localStorage.getItem(mutedKey) || "[]"));
  function setMuted(seat, on) {
    const m = muted(); if (on) m.add(seat); else m.delete(seat);
    localStorage.setItem(mutedKey, JSON.stringify([...m])); drawChat(); render();
  }
  const canChat = () => P.role === "seat" && view && view.you.seat && (view.you.pending || (view.seats.find((x) => x.seat === me()) || {}).taken);
  function onChat(m, live) {
    chatLines.push(m);
    if (chatLines.length > 200) chatLines.shift();
    if (live && !muted().has(m.seat)) {
      if (m.seat !== me()) { bubbles[m.seat] = { text: lineText(m), until: Date.now() + 5000 }; if (!chatOpen) chatUnread++; }
      render();
    }
    drawChat();
  }
  function sendChat(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }
  /* the chat panel lives outside the re-rendered table, so typing survives every new view */
  function chatPanel() {
    let box = document.getElementById("chat");
    if (box) return box;
    const input = el("input", { id: "chat-text", type: "text", maxlength: "200", autocomplete: "off", "aria-label": _("Your message"), placeholder: _("Message…") });
    const form = el("form", { class: "chat-form", id: "chat-form" }, input, el("button", { type: "submit", class: "small", text: _("Send") }));
    form.addEventListener("submit", (ev) => { ev.preventDefault(); const t = input.value.trim(); if (t) { sendChat({ type: "chat", text: t }); input.value = ""; } });
    const reacts = el("div", { class: "reactions", role: "group", "aria-label": _("Reactions") },
      Object.entries(REACTIONS).map(([code, emoji]) => el("button", { type: "button", class: "small react", "data-code": code,
        "aria-label": reactionName(code), title: reactionName(code), onclick: () => sendChat({ type: "react", code: code }), text: emoji })));
    const phrases = el("div", { class: "phrases", role: "group", "aria-label": _("Short phrases") },
      ["well_played", "good_luck", "thanks", "nice_hand", "oops", "one_more"].map((code) => el("button", { type: "button", class: "small phrase",
        "data-code": code, onclick: () => sendChat({ type: "react", code: code }), text: phraseText(code) })));
    box = el("aside", { id: "chat", class: "chat-panel", hidden: true, "aria-label": _("Chat") },
      el("div", { class: "chat-head" }, el("h2", { text: _("Chat") }),
        el("button", { type: "button", class: "small", id: "chat-close", text: _("Close"), onclick: () => toggleChat(false) })),
      el("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" }),
      // the quick buttons: one row that scrolls sideways, so that the messages keep the room
      el("div", { class: "chat-send", id: "chat-send" }, el("div", { class: "chat-quick", id: "chat-quick" }, reacts, phrases), form),
      el("p", { class: "note", id: "chat-readonly", text: _("Spectators read the chat; only the players write.") }),
      el("details", { class: "mutes" }, el("summary", { text: _("Mute someone") }), el("ul", { id: "mute-list" })));
    document.body.append(box);
    return box;
  }
  function drawChat() {
    if (!view) return;
    const box = chatPanel();
    const m = muted();
    const log = box.querySelector("#chat-log");
    log.replaceChildren(...chatLines.filter((x) => !m.has(x.seat)).map((x) => el("li", { class: "chat-line" + (x.code ? " code" : ""), "data-seat": x.seat },
      el("b", { class: "who", text: x.name + ": " }), el("span", { class: "what", text: lineText(x), title: x.code && REACTIONS[x.code] ? reactionName(x.code) : null }))));
    log.scrollTop = log.scrollHeight;
    const writes = !!canChat();
    box.querySelector("#chat-send").hidden = !writes;
    box.querySelector("#chat-readonly").hidden = writes;
    const people = view.seats.filter((s) => s.kind === "human" && s.name && s.seat !== me());
    box.querySelector("#mute-list").replaceChildren(...people.map((s) => el("li", {}, el("button", { type: "button", class: "small mute",
      "data-seat": s.seat, "aria-pressed": m.has(s.seat) ? "true" : "false", onclick: () => setMuted(s.seat, !m.has(s.seat)),
      text: m.has(s.seat) ? _("Unmute {name}", { name: s.name }) : _("Mute {name}", { name: s.name }) }))));
    const b = document.getElementById("btn-chat");
    if (b) b.querySelector(".badge").textContent = chatUnread ? String(chatUnread) : "";
  }
  function toggleChat(open) {
    chatOpen = open === undefined ? !chatOpen : open;
    const box = chatPanel();
    box.hidden = !chatOpen;
    if (chatOpen) { chatUnread = 0; drawChat(); const i = document.getElementById("chat-text"); if (i && !i.closest("[hidden]")) i.focus(); }
    const b = document.getElementById("btn-chat");
    if (b) { b.setAttribute("aria-expanded", chatOpen ? "true" : "false"); b.querySelector(".badge").textContent = ""; }
  }

  /* ---------------- the deal check (docs/fairness.md) ----------------
     Every view carries the hand's commitments (one SHA-256 per deck position, dealt order) and the
     openings of the cards this page may know. Each opening is hashed here with Web Crypto and
     compared with its commitment; each card shown (own cards, the turn-up, jokers turned aside,
     every played card) must be opened at a position the deal gives its place. */
  const dealChecks = {}; // hand number -> {digest, commitments, state: "ok" | "bad" | "off", n, reason}
  const hashes = new Map(); // "salt:position:card" -> hex SHA-256
  let dealRun = 0;
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
    const h = v.hand, opts = v.rules.options || {};
    const ids = h.fairness.seated; // the seats dealt in this hand (R3.5), not those seated now
    const all = v.seats.map((s) => s.seat);
    const d = all.indexOf(h.dealer);
    const order = [];
    for (let k = 1; k <= all.length; k++) { const sid = all[(d + k) % all.length]; if (ids.includes(sid)) order.push(sid); }
    const first = opts.batches === "2+3" ? 2 : 3;
    const seats = {};
    let pos = 0;
    for (const batch of [first, 5 - first]) for (const sid of order) { seats[sid] = (seats[sid] || []).concat([...Array(batch).keys()].map((i) => pos + i)); pos += batch; }
    const aside = h.turned_aside.map((_c, i) => pos + i);
    const size = (opts.deck === "full52" ? 52 : 32) + (opts.jokers ? 2 : 0);
    return { seats: seats, aside: aside, turnUp: pos + aside.length, size: size };
  }
  async function dealProblem(v, f, pinned) {
    const h = v.hand, pl = dealPlaces(v);
    if (pinned.digest !== f.digest || pinned.commitments.join() !== f.commitments.join()) return _("the commitments changed during the hand");
    if (f.commitments.length !== pl.size) return _("{n} commitments for a deck of {size} cards", { n: f.commitments.length, size: pl.size });
    if ((await sha256hex(f.commitments.join(""))) !== f.digest) return _("the digest does not match the commitments");
    const byPos = new Map(), byCard = new Map();
    for (const o of f.openings) {
      if (byPos.has(o.position) || byCard.has(o.card)) return _("{card} is opened twice", { card: R.cardName(o.card) });
      byPos.set(o.position, o); byCard.set(o.card, o);
      if ((await sha256hex(`${o.salt}:${o.position}:${o.card}`)) !== f.commitments[o.position])
        return _("position {position}: {card} does not match its commitment", { position: o.position, card: R.cardName(o.card) });
    }
    const at = (pos, card) => { const o = byPos.get(pos); return o && o.card === card; };
    const missing = (card) => _("{card} is not opened where the deal put it", { card: R.cardName(card) });
    if (!at(pl.turnUp, h.turn_up)) return missing(h.turn_up);
    for (let i = 0; i < h.turned_aside.length; i++) if (!at(pl.aside[i], h.turned_aside[i])) return missing(h.turned_aside[i]);
    const plays = h.tricks.flatMap((t) => t.plays).concat(h.current.plays);
    for (const [sid, card] of plays) { const o = byCard.get(card); if (!o || !(pl.seats[sid] || []).includes(o.position)) return missing(card); }
    if (me() && v.your_cards.length) for (const card of v.your_cards) { const o = byCard.get(card); if (!o || !(pl.seats[me()] || []).includes(o.position)) return missing(card); }
    return null;
  }
  async function checkDeal(v) {
    const h = v.hand, f = h && h.fairness;
    if (!f) return;
    const n = h.number;
    const c = dealChecks[n] || (dealChecks[n] = { digest: f.digest, commitments: f.commitments.slice(), state: null, n: 0, reason: "" });
    if (c.state === "bad") return; // a mismatch stays shown for that hand
    if (!(window.crypto && crypto.subtle)) { c.state = "off"; return; }
    const run = ++dealRun;
    let reason;
    try { reason = await dealProblem(v, f, c); } catch (e) { reason = String(e && e.message || e); }
    if (run !== dealRun && !reason) return; // a newer view is being checked
    const before = c.state + c.n;
    c.state = reason ? "bad" : "ok"; c.reason = reason || ""; c.n = f.openings.length;
    if (before !== c.state + c.n) render();
  }
  function dealMark() {
    const h = view.hand, c = h && dealChecks[h.number];
    const bad = Object.keys(dealChecks).filter((n) => dealChecks[n].state === "bad");
    document.body.dataset.deal = c && c.state ? c.state : "";
    if (bad.length) { // every hand that did not check stays on the page, loud
      return el("div", { id: "deal-warning", class: "deal-warnings", role: "alert" }, bad.map((n) =>
        el("div", { class: "banner deal-warning", "data-hand": n,
          text: _("Warning: the deal of hand {hand} does not match what was committed before the first declaration: {reason}. Download the hand history and check it with ramsli verify.", { hand: n, reason: dealChecks[n].reason }) })));
    }
    if (!c || !c.state) return "";
    if (c.state === "off") {
      return el("p", { class: "deal-mark muted", id: "deal-mark", text: _("Deal not checked: this browser checks deals only on https or localhost pages; check the downloaded hand with ramsli verify.") });
    }
    const what = ngettext("Deal checked: the {n} card you know of hand {hand} is the one committed before the first declaration.",
      "Deal checked: the {n} cards you know of hand {hand} are the ones committed before the first declaration.", c.n, { hand: h.number });
    return el("p", { class: "deal-mark", id: "deal-mark", role: "status", title: what + " SHA-256 " + c.digest.slice(0, 16) + "…", "aria-label": what },
      el("span", { "aria-hidden": "true", text: "✓ " }), el("span", { text: _("Deal checked") }));
  }

  /* ---------------- sitting down ---------------- */
  function sitForm() {
    const inp = el("input", { id: "sit-name", type: "text", maxlength: "24", value: R.settings.name || "", autocomplete: "nickname", required: true });
    const info = P.info || { seats: [], rules: { options: {} } };
    const opts = info.rules.options || {};
    const people = info.seats.filter((s) => s.name && s.taken).map((s) => s.name);
    const host = people.length ? people[0] : null;
    const seatItems = info.seats.map((s) => el("li", { class: s.seat === P.seat ? "me" : "" },
      el("b", { text: _("Seat {n}", { n: s.seat.slice(1) }) + ": " }),
      s.seat === P.seat ? _("your seat") + (s.kind === "bot" ? " — " + _("you take it over from its bot") : "")
        : s.name ? s.name : s.kind === "bot" ? _("bot ({level})", { level: R.botLevel(s.bot) }) : _("open seat (a friend)")));
    const stackText = ngettext("{n} counter", "{n} counters", opts.starting_stack || 0);
    const beteText = opts.bete === "pot" ? _("the pot") : String(opts.bete);
    const facts = el("dl", { class: "facts" },
      el("dt", { text: _("Rules") }), el("dd", { text: R.presetName(info.rules.preset) }),
      el("dt", { text: _("Session end") }), el("dd", { text: R.endText(opts.end) }),
      el("dt", { text: _("Stacks") }), el("dd", { text: _("{stack} each, ante {ante}, bete {bete}", {
        stack: stackText, ante: opts.ante, bete: beteText }) }),
      el("dt", { text: _("Status") }), el("dd", { text: { waiting: _("waiting for the start"), playing: _("playing"), over: _("over") }[info.status] || info.status || "" }));
    const f = el("form", { class: "panel sit", id: "sit" },
      el("h1", { text: host ? _("{name} invites you to a game of Ramsli", { name: host }) : _("Sit down at seat {seat}", { seat: P.seat }) }),
      el("section", { class: "table-facts", "aria-label": _("This table") }, facts,
        el("h2", { text: _("At this table") }), el("ul", { class: "seat-list" }, seatItems)),
      el("div", { class: "sit-row" }, el("label", { for: "sit-name", text: _("Your name") }), inp,
        el("button", { class: "primary", type: "submit", text: _("Sit down") })),
      el("p", { class: "note" }, el("a", { href: "/how-to-play?lang=" + R.lang + "&table=" + P.table, target: "_blank", text: _("How to play") })),
      el("div", { class: "top-nav" }, R.langPicker()));
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      R.toastHide();
      try {
        const name = inp.value.trim();
        if (!name) { R.toast(_("Please give your name."), "", "bad"); inp.focus(); return; }
        const r = await R.api("POST", `/api/tables/${P.table}/sit`, { token: P.token, name: name });
        R.settings.name = name; R.saveSettings();
        /* from now on only the personal token sitting down returned plays this seat (docs/protocol.md) */
        P.token = r.token;
        history.replaceState(null, "", R.url(`/t/${P.table}/s/${r.token}`) + location.search);
        R.rememberTable({ table: P.table, token: P.token, seat: r.seat, name: name, invite: location.pathname, created: Date.now() });
        P.taken = true; P.name = name;
        start();
      } catch (e) { R.toast(e.message, "", "bad"); }
    });
    app.replaceChildren(el("main", { class: "lobby" }, f));
    inp.focus();
  }

  /* ---------------- rendering ---------------- */
  function seatPos(sid) {
    const n = view.seats.length;
    const i = view.seats.findIndex((s) => s.seat === sid);
    const m = me() ? view.seats.findIndex((s) => s.seat === me()) : 0;
    const rel = (i - m + n) % n;
    const th = (rel * 2 * Math.PI) / n;
    const phone = window.matchMedia("(max-width: 700px)").matches;
    const pr = phone ? 12 : 21, pq = phone ? 17 : 20; // on a phone the trick stays clear of the seats, six of them too
    return { x: 50 - 44 * Math.sin(th), y: 50 + 41 * Math.cos(th), px: 50 - pr * Math.sin(th), py: (phone ? 50 : 48) + pq * Math.cos(th), rel: rel };
  }

  function cardFace(code, extra) {
    const d = el("div", Object.assign({ class: "card", role: "img", "aria-label": R.cardName(code) }, extra || {}));
    d.append(R.cardSVG(code));
    return d;
  }

  function seatBox(s) {
    const h = view.hand;
    const pos = seatPos(s.seat);
    const turn = view.to_act === s.seat;
    const isMe = s.seat === me();
    const state = s.in === true ? _("in") : s.in === false ? _("out") : "";
    const bits = [];
    const label = [s.name || s.seat];
    if (isMe) label.push(_("you"));
    label.push(counters(s.stack));
    if (state) label.push(state);
    if (h) label.push(ngettext("{n} trick", "{n} tricks", s.tricks));
    if (s.dealer) label.push(_("dealer"));
    if (turn) label.push(_("to act"));
    if (s.away) label.push(_("away"));
    if (!s.seated) label.push(_("not seated"));
    const box = el("div", {
      class: `seat rel-${pos.rel}` + (turn ? " turn" : "") + (isMe ? " me" : "") + (s.in === false ? " folded" : "") + (!s.seated ? " gone" : ""),
      style: `left:${pos.x}%;top:${pos.y}%`, role: "group", "aria-label": label.join(", "), "data-seat": s.seat, "data-stack": String(s.stack),
    });
    const waitingBot = !s.name && s.kind === "bot";
    const head = el("div", { class: "seat-head" },
      turn ? el("span", { class: "turn-mark", "aria-hidden": "true", text: "▶" }) : "",
      el("span", { class: "seat-name", title: waitingBot ? _("bot ({level})", { level: R.botLevel(s.bot) }) : null,
        text: s.name || (waitingBot ? R.botShort(s.bot) : _("open seat")) }),
      s.dealer ? el("span", { class: "dealer-button", title: _("dealer"), "aria-hidden": "true", text: pgDealer() }) : "");
    bits.push(head);
    const line = el("div", { class: "seat-line" },
      el("span", { class: "stack", title: _("stack"), text: "● " + s.stack }),
      state ? el("span", { class: "decl " + (s.in ? "is-in" : "is-out"), text: state }) : "",
      h && (h.phase === "play" || h.phase === "over") && s.in !== false ? el("span", { class: "tricks", title: _("tricks"), text: "✦ " + s.tricks }) : "");
    bits.push(line);
    const tags = [];
    if (turn) tags.push(el("span", { class: "tag turn-tag", text: isMe ? _("your turn") : _("to act") }));
    if (turn && view.timer && view.timer.seat === s.seat) tags.push(countdown(view.timer.left, (n) => "⏱ " + _("{n} s", { n: n }), "tag timer-tag"));
    if (s.away || s.left) tags.push(el("span", { class: "tag", text: s.bot_playing ? _("away, a bot plays") : _("away") }));
    if (s.bot_in !== null && s.bot_in !== undefined) tags.push(countdown(s.bot_in, (n) => _("bot in {n} s", { n: n }), "tag away-tag"));
    if (s.kind === "bot" && !waitingBot) tags.push(el("span", { class: "tag bot-tag", title: _("bot ({level})", { level: R.botLevel(s.bot) }), text: R.botShort(s.bot) }));
    if (s.external) tags.push(el("span", { class: "tag muted bot-tag", text: _("bot (external)") }));
    if (tags.length) bits.push(el("div", { class: "seat-tags" }, tags));
    if (P.role === "spectator" && s.kind === "bot" && s.seated && view.status !== "over" && !s.taken) {
      bits.push(el("button", { type: "button", class: "small take-seat", "data-take": s.seat, text: _("Take this seat"),
        onclick: (ev) => { ev.stopPropagation(); askTake(s); } }));
    }
    const bubble = bubbles[s.seat];
    if (bubble && bubble.until > Date.now()) bits.push(el("div", { class: "bubble", role: "status", text: bubble.text }));
    if (h && !isMe && s.cards_left > 0 && s.in !== false) {
      const backs = el("div", { class: "backs", "aria-hidden": "true" });
      for (let k = 0; k < s.cards_left; k++) backs.append(R.cardSVG(null));
      bits.push(backs);
    }
    box.append(...bits);
    return box;
  }
  function isPhone() { return window.matchMedia("(max-width: 700px)").matches; }
  window.matchMedia("(max-width: 700px)").addEventListener("change", () => render());
  function pgDealer() { return R.pgettext("dealer button", "D"); }

  function trickOnTable(felt) {
    const h = view.hand;
    if (!h) return;
    let trick = hold ? hold.trick : h.current;
    if (!hold && h.phase === "over" && h.last_trick && (!h.current || !h.current.plays.length)) trick = null;
    if (!trick) return;
    for (const [sid, code] of trick.plays) {
      const pos = seatPos(sid);
      const win = hold && trick.winner === sid;
      const c = cardFace(code, { class: "card played" + (win ? " winner" : ""), style: `left:${pos.px}%;top:${pos.py}%`,
        "data-played": `${h.number}:${code}`, "data-by": sid, "data-card-code": code,
        "aria-label": _("{name} played {card}", { name: seatName(sid), card: R.cardName(code) }) + (win ? ", " + _("takes the trick") : "") });
      felt.append(c);
    }
  }
  /* while a finished trick stays on the table, the status line says who takes it (never over the felt) */
  function trickCaption() {
    const trick = hold.trick;
    return el("button", { class: "trick-caption", type: "button", onclick: releaseHold },
      el("span", { text: _("{name} takes the trick", { name: seatName(trick.winner) }) }),
      el("span", { class: "tap-hint", text: " — " + _("tap to go on") }));
  }

  function centre() {
    const h = view.hand;
    const box = el("div", { class: "centre" });
    if (!h) {
      box.append(el("p", { class: "centre-note", text: "" }));
      return box;
    }
    const stock = el("div", { class: "stock", "aria-label": _("Turn-up: {card}", { card: R.cardName(h.turn_up) }), role: "img" },
      el("div", { class: "card back" }, R.cardSVG(null)), el("div", { class: "card turnup" }, R.cardSVG(h.turn_up)));
    box.append(stock);
    const trump = el("div", { class: "trump suit-" + h.trump },
      el("span", { class: "label", text: _("Trump") }), " ",
      R.settings.german ? R.suitPipSVG(h.trump) : el("span", { class: "suit-sym", text: R.suitSymbol(h.trump) }), " ",
      el("span", { class: "suit-name", text: R.suitName(h.trump) }));
    box.append(trump);
    box.append(el("div", { class: "pot", "aria-label": _("Pot: {n}", { n: h.pot }) },
      el("span", { class: "chips", "aria-hidden": "true" }), el("span", { text: _("Pot: {n}", { n: h.pot }) })));
    if (h.turned_aside && h.turned_aside.length) box.append(el("div", { class: "small muted", text: _("turned aside: {cards}", { cards: h.turned_aside.map(R.cardName).join(", ") }) }));
    return box;
  }

  function statusText() {
    if (view.status === "waiting") return _("Waiting for the start");
    if (view.you.pending) return _("You take over this seat from the next hand; until then its bot plays and you watch.");
    if (view.status === "over") return _("The session is over.");
    const h = view.hand;
    if (!h) return "";
    if (h.phase === "over") return _("Hand {n} is over", { n: h.number });
    const who = view.to_act;
    if (!who) return "";
    const mine = who === me();
    const what = {
      declare: mine ? _("Your turn: in or out?") : _("{name} declares", { name: seatName(who) }),
      "general-rams": mine ? _("Your turn: General Rams or pass?") : _("{name} may announce General Rams", { name: seatName(who) }),
      targets: mine ? _("Your turn: announce a target") : _("{name} announces a target", { name: seatName(who) }),
      play: mine ? (h.current.plays.length ? _("Your turn: play a card") : _("Your lead: play a card")) : _("{name} plays", { name: seatName(who) }),
    }[h.phase];
    return what || "";
  }

  function actionButtons() {
    const bar = el("div", { class: "actions", role: "toolbar", "aria-label": _("Your choices") });
    const legal = view.legal || [];
    for (const a of legal) {
      const parts = a.split(" ");
      const kind = parts[1];
      if (kind === "pl") continue;
      let text, key;
      if (kind === "in") { text = _("in"); key = "i"; }
      else if (kind === "out") { text = _("out"); key = "o"; }
      else if (kind === "gr") { text = _("General Rams"); key = "g"; }
      else if (kind === "pass") { text = _("pass"); key = "p"; }
      else if (kind[0] === "t") { text = _("target {n}", { n: kind.slice(1) }); key = kind.slice(1); }
      else text = a;
      bar.append(el("button", { type: "button", class: "act act-" + kind + (kind === "in" ? " primary" : ""), "data-action": a,
        "aria-keyshortcuts": key, onclick: () => send(a), text: text },
      key ? el("kbd", { "aria-hidden": "true", text: key.toUpperCase() }) : ""));
    }
    if (P.hint && view.hand && view.hand.phase === "declare" && view.to_act === me()) {
      bar.append(el("button", { type: "button", class: "act hint-btn", id: "hint-btn", onclick: askHint, disabled: hintBusy,
        "aria-busy": hintBusy ? "true" : null, text: hintBusy ? _("Thinking…") : _("Should I stay in?") }));
    }
    if (hintText) {
      bar.append(el("div", { class: "hint", role: "status", id: "hint" }, el("div", { class: "hint-words", text: hintText }),
        hintDetail ? el("div", { class: "hint-detail note", text: hintDetail }) : ""));
    }
    return bar;
  }

  /* the hint in player words first ("Stay in: about 2.0 counters better than going out"), the numbers
     and which estimate answered in the detail line; the words come from the server in the page's language */
  async function askHint() {
    if (hintBusy) return; // one question at a time: the button waits while the coach thinks
    hintBusy = true;
    hintText = _("Thinking…"); hintDetail = null; render();
    try {
      const r = await R.api("GET", `/api/tables/${P.table}/hint?token=${encodeURIComponent(P.token)}&lang=${R.lang}`);
      hintText = r.text; hintDetail = r.detail;
    } catch (e) { hintText = e.message; hintDetail = null; } // the server's refusal, in the page's language
    hintBusy = false;
    render();
  }

  function handRow() {
    const h = view.hand;
    const row = el("div", { class: "hand-row", role: "group", "aria-label": _("Your cards") });
    if (!h || !view.your_cards.length) return row;
    const legal = new Set((view.legal || []).filter((a) => a.split(" ")[1] === "pl").map((a) => a.split(" ")[2]));
    const playing = h.phase === "play" && view.to_act === me();
    const cards = R.sortHand(view.your_cards, h.trump);
    cards.forEach((code, k) => {
      const ok = !playing || legal.has(code);
      const c = R.parseCard(code);
      const trump = c.joker || c.suit === h.trump;
      const name = R.cardName(code) + (trump ? ", " + _("trump") : "") + (playing && !ok ? ", " + _("not playable") : "");
      // the name is the button's own (hidden) text, so what it shows and what it is called never differ
      const b = el("button", { type: "button", class: "card hand-card" + (ok ? "" : " dim") + (playing && ok ? " can-play" : "") + (trump ? " is-trump" : ""),
        "aria-disabled": playing && !ok ? "true" : null, "data-card": code, "aria-keyshortcuts": String(k + 1),
        onclick: () => send(`${me()} pl ${code}`) }, el("span", { class: "sr-only card-name", text: name }), R.cardSVG(code));
      if (trump) b.append(el("span", { class: "trump-flag", "aria-hidden": "true", text: _("trump") }));
      if (playing && !ok) b.append(el("span", { class: "no-flag", "aria-hidden": "true", text: "⊘" }));
      row.append(b);
    });
    return row;
  }

  function topBar() {
    const h = view.hand;
    return el("header", { class: "table-top" },
      el("h1", { class: "brand-small" }, el("a", { href: "/?lang=" + R.lang, title: _("Lobby"), text: "Ramsli" })),
      el("span", { class: "muted info" },
        el("span", { class: "preset", text: R.presetName(view.rules.preset || "") + (view.test_seeded ? " · " + _("test table") : "") }),
        h ? el("span", { class: "hand-no", text: _("Hand {n}", { n: h.number }) }) : ""),
      el("nav", { class: "tools", "aria-label": _("Table tools") },
        el("button", { type: "button", id: "btn-chat", "aria-expanded": chatOpen ? "true" : "false", "aria-controls": "chat", onclick: () => toggleChat() },
          el("span", { text: _("Chat") }), el("span", { class: "badge", "aria-hidden": "true", text: chatUnread ? String(chatUnread) : "" })),

        el("button", { type: "button", id: "btn-last", "aria-keyshortcuts": "l", disabled: !(h && (h.last_trick)), onclick: () => openOverlay("last"), text: _("Last trick") }),
        el("button", { type: "button", id: "btn-sheet", "aria-keyshortcuts": "s", onclick: () => openOverlay("sheet"), text: _("Score sheet") }),
        el("a", { class: "button", href: "/how-to-play?lang=" + R.lang + "&table=" + P.table, target: "_blank", title: _("How to play") },
          el("span", { class: "wide-only", text: _("How to play") }), el("span", { class: "phone-only", text: "?" }),
          el("span", { class: "sr-only phone-only", text: _("How to play") })),
        el("button", { type: "button", id: "btn-settings", onclick: () => openOverlay("settings"), "aria-label": _("Settings"), title: _("Settings") },
          el("span", { "aria-hidden": "true", text: "⚙" }))));
  }
  function canLeave() {
    const mine = view.seats.find((x) => x.seat === me());
    return P.role === "seat" && view.status === "playing" && mine && mine.taken;
  }
  function leaveTable() {
    if (!window.confirm(_("Leave the table? A bot plays your seat until you come back through your link (Your tables, in the lobby)."))) return;
    sendChat({ type: "leave" });
  }
  function askTake(s) {
    const name = (window.prompt(_("Your name for seat {seat}", { seat: s.seat.slice(1) }), R.settings.name || "") || "").trim();
    if (!name) return;
    R.api("POST", `/api/tables/${P.table}/take`, { token: P.token, seat: s.seat, name: name }).then((r) => {
      R.settings.name = name; R.saveSettings();
      R.rememberTable({ table: P.table, token: r.token, seat: r.seat, name: name, invite: `/t/${P.table}/s/${r.token}`, created: Date.now() });
      location.href = `/t/${P.table}/s/${r.token}?lang=${R.lang}`;
    }).catch((e) => R.toast(e.message, "", "bad"));
  }

  function nextDealLine() {
    if (!view.next_deal) return "";
    const wait = view.next_deal.waiting.filter((x) => x !== me()).map(seatName);
    return el("p", { class: "note next-deal" }, countdown(view.next_deal.in, (n) => wait.length
      ? _("Next hand in {n} s, or when {names} closed the summary", { n: n, names: R.listText(wait) })
      : _("Next hand in {n} s", { n: n })));
  }

  /* cards that move: a card just played travels from its player's seat (or your hand) to the trick */
  function moveCards(before) {
    const now = { seats: {}, cards: {}, played: new Set() };
    for (const e of document.querySelectorAll(".seat[data-seat]")) now.seats[e.dataset.seat] = e.getBoundingClientRect();
    for (const e of document.querySelectorAll(".hand-card[data-card]")) now.cards[e.dataset.card] = e.getBoundingClientRect();
    for (const e of document.querySelectorAll(".card.played[data-played]")) {
      now.played.add(e.dataset.played);
      if (!before || before.played.has(e.dataset.played) || !R.moves()) continue;
      const from = before.cards[e.dataset.cardCode] || before.seats[e.dataset.by];
      if (!from) continue;
      const to = e.getBoundingClientRect();
      e.style.transition = "none";
      e.style.translate = `${from.left + from.width / 2 - (to.left + to.width / 2)}px ${from.top + from.height / 2 - (to.top + to.height / 2)}px`;
      e.getBoundingClientRect(); // the start, then the way to the trick
      e.style.transition = "";
      e.classList.add("moving");
      e.style.translate = "0px 0px";
    }
    return now;
  }

  function openOverlay(which) { overlay = which; render(); const d = document.querySelector(".dialog button, .dialog input, .dialog select"); if (d) d.focus(); }
  function closeOverlay() {
    const wasSummary = overlay === "summary";
    if (wasSummary && pendingSummary) {
      summarySeen = pendingSummary.number; pendingSummary = null;
      if (readySent < summarySeen) { readySent = summarySeen; sendChat({ type: "ready", hand: summarySeen }); } // the next deal need not wait for me
    }
    overlay = wasSummary && view && view.status === "over" ? "standings" : null; // the last hand's summary, then the standings
    render();
  }

  function dialog(title, ...body) {
    return el("div", { class: "overlay", onclick: (e) => { if (e.target.classList.contains("overlay")) closeOverlay(); } },
      el("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": title },
        el("h2", { text: title }), ...body,
        el("div", { class: "row" }, el("button", { type: "button", class: "primary", id: "dialog-close", onclick: closeOverlay, text: _("Close") }))));
  }

  function trickList(trick) {
    return el("div", { class: "trick-list" }, trick.plays.map(([sid, code]) =>
      el("figure", { class: trick.winner === sid ? "winner" : "" }, cardFace(code),
        el("figcaption", { text: seatName(sid) + (trick.winner === sid ? " ✦" : "") }))));
  }

  function summaryBody(settlement) {
    const st = settlement || pendingSummary.settlement;
    const rows = [];
    const names = (list) => R.listText(list.map(seatName));
    if (st.kind === "thrown-in") rows.push(el("p", { text: _("Everyone went out: the pot stays for the next hand.") }));
    else if (st.winners.length) rows.push(el("p", { class: "big-line", text: ngettext("{names} takes the pot of {pot}.", "{names} share the pot of {pot}.", st.winners.length, { names: names(st.winners), pot: counters(st.pot) }) }));
    if (st.kind === "walkover") rows.push(el("p", { text: _("Walkover: nobody else stayed in.") }));
    if (st.bete.length) rows.push(el("p", { text: ngettext("Bete (no trick): {names} pays.", "Bete (no trick): {names} pay.", st.bete.length, { names: names(st.bete) }) }));
    else if (st.kind === "played") rows.push(el("p", { text: _("Nobody paid bete.") }));
    const idx = (sid) => view.seats.findIndex((x) => x.seat === sid);
    for (const sid of st.bete) {
      const i = idx(sid), short = (st.shortfall || [])[i] || 0;
      if (short > 0) rows.push(el("p", { class: "shortfall", text: _("{name} could pay only {paid}; {short} forgiven (R3.3).", {
        name: seatName(sid), paid: counters(st.paid[i]), short: counters(short) }) }));
    }
    if (st.carry_over) rows.push(el("p", { text: _("Carried over to the next pot: {n}", { n: counters(st.carry_over) }) }));
    if (st.general_rams) rows.push(el("p", { text: st.general_rams_made ? _("{name} made General Rams.", { name: seatName(st.general_rams) }) : _("{name} failed General Rams.", { name: seatName(st.general_rams) }) }));
    for (const t of st.targets || []) rows.push(el("p", { text: t.met ? _("{name} made the target of {n}.", { name: seatName(t.seat), n: t.target }) : _("{name} missed the target of {n}.", { name: seatName(t.seat), n: t.target }) }));
    const table = el("table", { class: "sheet" }, el("thead", {}, el("tr", {}, el("th", { text: _("Player") }), el("th", { text: _("tricks") }), el("th", { text: _("won") }), el("th", { text: _("paid") }), el("th", { text: _("stack") }))));
    const tb = el("tbody");
    view.seats.forEach((s, i) => {
      tb.append(el("tr", {}, el("th", { scope: "row", text: s.name || s.seat }), el("td", { text: String(st.tricks[i]) }),
        el("td", { text: st.won[i] ? "+" + st.won[i] : "" }),
        el("td", { text: (st.paid[i] ? "−" + st.paid[i] : "") + ((st.shortfall || [])[i] ? " (" + _("{n} forgiven", { n: st.shortfall[i] }) + ")" : "") }),
        el("td", { class: "num", text: String(st.stacks_after[i]) })));
    });
    table.append(tb);
    rows.push(el("div", { class: "scroll" }, table), el("p", { class: "note scroll-hint", hidden: true, text: _("Swipe the table sideways to see every column.") }));
    return rows;
  }

  function sheetBody(withStandings) {
    if (!view.results.length) return [el("p", { text: _("No hand finished yet.") })];
    const head = el("tr", {}, el("th", { text: _("Hand") }), view.seats.map((s) => el("th", { class: "num", title: s.name || s.seat, text: s.name || s.seat })), el("th", { class: "num", text: _("pot") }));
    const tb = el("tbody");
    for (const e of view.results) {
      const cells = view.seats.map((s, i) => {
        const win = e.winners.includes(s.seat), bete = e.bete.includes(s.seat);
        return el("td", { class: "num" + (win ? " win" : "") + (bete ? " bete" : ""), text: String(e.stacks_after[i]) + (win ? " ✦" : "") + (bete ? " ✗" : "") });
      });
      // the hand's number opens it; its download and review sit in a row of their own under it, so
      // that the players' columns keep the width (a phone shows five players and the pot)
      tb.append(el("tr", { class: "hand-row-main" }, el("th", { scope: "row", class: "hand-no", rowspan: "2" },
        el("button", { type: "button", class: "small link-like", "data-hand": String(e.hand), onclick: () => openHand(e.hand),
          "aria-label": _("Show hand {n}", { n: e.hand }), text: String(e.hand) }),
        dealChecks[e.hand] && dealChecks[e.hand].state === "ok" ? el("span", { class: "deal-ok", role: "img", title: _("Deal checked"), "aria-label": _("Deal checked"), text: "✓" }) : ""),
        cells, el("td", { class: "num", text: String(e.pot_after) })),
        el("tr", { class: "hand-tools" }, el("td", { colspan: String(view.seats.length + 1) },
          el("a", { href: e.history + "?token=" + encodeURIComponent(P.token), class: "dl", download: "", title: _("Download hand {n} (TOML)", { n: e.hand }),
            "aria-label": _("Download hand {n} (TOML)", { n: e.hand }) }, el("span", { "aria-hidden": "true", text: "⤓" }), " ", _("Download")),
          reviewLink(e.hand))));
    }
    return [el("div", { class: "scroll", tabindex: "0", "aria-label": _("Score sheet") }, el("table", { class: "sheet" }, el("thead", {}, head), tb)),
      el("p", { class: "note scroll-hint", hidden: true, text: _("Swipe the table sideways to see every column.") }),
      el("p", { class: "note", text: _("✦ took a share of the pot · ✗ paid bete · numbers are stacks after the hand") }),
      P.role === "seat" && !withStandings ? el("p", {}, el("a", { href: `/t/${P.table}/review?token=${encodeURIComponent(P.token)}&lang=${R.lang}`, target: "_blank",
        id: "review-session-link", text: _("The coach on your session") })) : ""];
  }
  /* the coach's review of a finished hand (a new tab: the table stays open); your own seat by default */
  function reviewLink(n, words) {
    const label = _("The coach on hand {n}", { n: n });
    return el("a", { href: `/t/${P.table}/review?token=${encodeURIComponent(P.token)}&hand=${n}&lang=${R.lang}`, target: "_blank",
      class: "review-link", "data-review": String(n), title: words ? null : label, "aria-label": words ? null : label, text: words ? label : _("review") });
  }

  let shownHand = null; // a finished hand read from the score sheet
  async function openHand(n) {
    try {
      shownHand = await R.api("GET", `/api/tables/${P.table}/hands/${n}.json?token=${encodeURIComponent(P.token)}`);
      openOverlay("hand");
    } catch (e) { R.toast(e.message, "", "bad"); }
  }
  function handBody() {
    const hv = shownHand;
    const rows = [el("p", { text: _("Dealer: {name} · turn-up {card}", { name: seatName(hv.dealer), card: R.cardName(hv.turn_up) }) })];
    if (hv.your_cards.length) rows.push(el("h3", { text: _("Your cards") }), el("div", { class: "trick-list" }, R.sortHand(hv.your_cards, hv.trump).map((c) => cardFace(c))));
    const decl = hv.declarations.map(([sid, d]) => seatName(sid) + " " + (d === "in" ? _("in") : _("out")));
    if (decl.length) rows.push(el("p", { text: decl.join(" · ") }));
    hv.tricks.forEach((t, k) => rows.push(el("h3", { text: _("Trick {n}", { n: k + 1 }) }), trickList(t)));
    rows.push(el("h3", { text: _("Result") }), ...summaryBody(hv.settlement));
    rows.push(el("p", {}, el("a", { href: hv.history + "?token=" + encodeURIComponent(P.token), download: "", text: _("Download hand {n} (TOML)", { n: hv.number }) }),
      " · ", reviewLink(hv.number, true)));
    return rows;
  }

  function standingsBody() {
    const reason = { bust: _("a player is bust"), players: _("only one player is left"), "win-at": _("a player reached the target"), hands: _("all hands are played"), time: _("the time is up") }[view.end_reason] || "";
    const ol = el("ol", { class: "standings" }, (view.standings || []).map((s) =>
      el("li", { class: s.seat === me() ? "me" : "" }, el("span", { class: "place", text: String(s.place) + "." }), el("span", { class: "who", text: s.name || s.seat }), el("span", { class: "num", text: counters(s.stack) }))));
    const pot = view.pot_left || 0;
    const starter = view.next_table ? _("A new session is ready: the same people, the same rules.") : "";
    return [reason ? el("p", { text: _("The session is over: {reason}.", { reason: reason }) }) : "", ol,
      el("p", { class: "pot-left", text: pot ? _("Left in the pot, won by nobody: {n} (R3.7).", { n: counters(pot) }) : _("The pot is empty.") }),
      starter ? el("p", { class: "note", text: starter }) : "",
      // the session's review at its end (a seat's own only, R7)
      view.status === "over" && P.role === "seat" ? el("p", {}, el("a", { href: `/t/${P.table}/review?token=${encodeURIComponent(P.token)}&lang=${R.lang}`,
        target: "_blank", class: "standings-review", text: _("The coach on your session") })) : "",
      againRow()];
  }
  /* "Play again" and "Back to the lobby": under the standings, and in the last hand's summary at the
     session's end, so that neither has to be closed or scrolled to reach them */
  function againRow() {
    const mineTaken = P.role === "seat" && (view.seats.find((x) => x.seat === me()) || {}).taken;
    const again = mineTaken || R.creatorToken(P.table);
    return el("div", { class: "row again-row" },
      again ? el("button", { type: "button", class: "primary play-again", onclick: playAgain, text: _("Play again") }) : "",
      el("a", { class: "button", href: "/?lang=" + R.lang, text: _("Back to the lobby") }));
  }
  async function playAgain(ev) {
    const b = ev.currentTarget; b.disabled = true;
    try {
      const creator = R.creatorToken(P.table);
      const r = await R.api("POST", `/api/tables/${P.table}/rematch`, { token: P.token, creator_token: creator || null });
      let link = null;
      if (r.invite) {
        const sat = await R.api("POST", `/api/tables/${r.table}/sit`, { token: r.invite.split("/").pop(), name: r.name });
        link = `/t/${r.table}/s/${sat.token}`;
        R.rememberTable({ table: r.table, token: sat.token, seat: sat.seat, name: r.name, invite: link, created: Date.now(),
          preset: view.rules.preset, creator: r.creator_token || undefined, spectate: r.spectate,
          invites: r.seats ? r.seats.filter((x) => x.seat !== sat.seat).map((x) => ({ seat: x.seat, invite: x.invite, kind: x.kind, bot: x.bot })) : undefined });
      } else if (r.creator_token) {
        R.rememberTable({ table: r.table, token: r.creator_token, seat: null, name: null, invite: r.spectate, created: Date.now(), creator: r.creator_token,
          invites: r.seats.map((x) => ({ seat: x.seat, invite: x.invite, kind: x.kind, bot: x.bot })), spectate: r.spectate });
        link = r.spectate;
      }
      if (link) location.href = link + "?lang=" + R.lang;
    } catch (e) { R.toast(e.message, "", "bad"); b.disabled = false; }
  }

  function settingsBody() {
    const check = (id, key, text) => {
      const c = el("input", { type: "checkbox", id: id, checked: !!R.settings[key], onchange: (e) => { R.settings[key] = e.target.checked; R.saveSettings(); R.applySettings(); render(); } });
      return el("div", { class: "check" }, c, el("label", { for: id, text: text }));
    };
    const pause = el("select", { id: "set-pause", onchange: (e) => { R.settings.trickPause = +e.target.value; R.saveSettings(); } });
    for (const [v, t] of [[0.8, _("short")], [1.6, _("normal")], [3, _("long")], [30, _("until I tap")]]) pause.append(el("option", { value: String(v), selected: +R.settings.trickPause === v, text: t }));
    // the creator may change the bots' speed during play (stored with the table)
    const creator = R.creatorToken(P.table);
    const botPace = el("select", { id: "set-bot-pace", onchange: async (e) => {
      try { await R.api("POST", `/api/tables/${P.table}/pace`, { creator_token: creator, bot_pace_seconds: +e.target.value }); }
      catch (err) { R.toast(err.message, "", "bad"); }
    } });
    const paceNow = view.options.bot_pace_seconds;
    for (const [v, t] of [[0.3, _("fast")], [0.8, _("normal")], [1.6, _("slow")]]) botPace.append(el("option", { value: String(v), selected: paceNow === v, text: t }));
    if (![0.3, 0.8, 1.6].includes(paceNow)) botPace.append(el("option", { value: String(paceNow), selected: true, text: ngettext("{n} second", "{n} seconds", paceNow) }));
    return [check("set-four", "fourColour", _("Four-colour suits (♠ black, ♥ red, ♦ blue, ♣ green)")),
      check("set-german", "german", _("German-suited cards (acorns, leaves, hearts, bells)")),
      check("set-sound", "sound", _("Sound on your turn")),
      notifyCheck(),
      check("set-motion", "reduceMotion", _("Reduce motion")),
      el("div", { class: "form-grid" }, el("label", { for: "set-pause", text: _("A finished trick stays") }), pause,
        creator ? el("label", { for: "set-bot-pace", text: _("Bot speed") }) : "", creator ? botPace : "",
        el("label", { for: "lang", text: _("Language") }), R.langPicker()),
      el("p", { class: "note", text: _("Keys: 1–5 play a card, I in, O out, L last trick, S score sheet, Esc closes.") }),
      canLeave() ? el("div", { class: "row" }, el("button", { type: "button", id: "btn-leave", onclick: leaveTable, text: _("Leave the table") })) : ""];
  }

  /* a system notification when it is your turn in another tab, if the person allows it */
  function notifyCheck() {
    const c = el("input", { type: "checkbox", id: "set-notify", checked: !!R.settings.notify && window.Notification && Notification.permission === "granted",
      disabled: !window.Notification, onchange: async (e) => {
        let on = e.target.checked;
        if (on && Notification.permission !== "granted") on = (await Notification.requestPermission()) === "granted";
        R.settings.notify = on; R.saveSettings(); e.target.checked = on;
      } });
    return el("div", { class: "check" }, c, el("label", { for: "set-notify", text: _("Notify me when it is my turn and this tab is hidden") }));
  }

  function waitingPanel() {
    const creator = R.creatorToken(P.table);
    const entry = R.myTables().find((e) => e.table === P.table && e.creator) || {};
    const box = el("div", { class: "waiting panel" });
    if (creator) {
      const links = (entry.invites || []).map((s) => {
        const url = location.origin + R.url(s.invite);
        const n = s.seat.slice(1);
        const label = s.kind === "bot"
          ? _("Seat {n}, bot ({level}): a friend may take it over", { n: n, level: R.botLevel(s.bot) })
          : _("Invite for seat {n}", { n: n });
        return el("li", { class: "link-row" }, el("span", { class: "link-label", text: label }),
          el("input", { type: "text", readonly: true, value: url, "aria-label": label }),
          el("button", { type: "button", class: "small", text: _("Copy"), onclick: () => navigator.clipboard && navigator.clipboard.writeText(url) }));
      });
      if (links.length) box.append(el("ul", { class: "links" }, links));
      box.append(el("button", { type: "button", class: "primary", id: "start", text: _("Start the session"), onclick: async (ev) => {
        ev.target.disabled = true;
        try { await R.api("POST", `/api/tables/${P.table}/start`, { creator_token: creator }); }
        catch (e) { R.toast(e.message, "", "bad"); ev.target.disabled = false; }
      } }));
      box.append(el("p", { class: "note", text: _("Seats nobody takes are played by a bot when you start.") }));
    } else if (!view.expect.length) box.append(el("p", { class: "note", text: _("The person who made the table starts the session.") }));
    if (view.expect.length) {
      const missing = view.seats.filter((s) => view.expect.includes(s.seat) && !s.taken).map((s) => s.seat);
      const names = missing.map((sid) => _("Seat {n}", { n: sid.slice(1) }));
      box.append(el("p", { class: "rematch-wait" }, missing.length ? (view.starts_in !== null
        ? countdown(view.starts_in, (n) => _("Waiting for {names}; the session starts when everyone is here, at the latest in {n} s (a bot takes a seat nobody comes to).", { names: R.listText(names), n: n }))
        : _("Waiting for {names}; the session starts when everyone is here.", { names: R.listText(names) }))
        : _("Everyone is here.")));
    }
    return box;
  }

  function render() {
    if (!view) return;
    const focusedCard = document.activeElement && document.activeElement.dataset ? (document.activeElement.dataset.card || document.activeElement.dataset.action || document.activeElement.id) : null;
    const h = view.hand;
    const felt = el("div", { class: "felt", onclick: () => { if (hold) releaseHold(); } });
    const phone = isPhone();
    if (!phone) felt.append(centre());
    for (const s of view.seats) felt.append(seatBox(s));
    trickOnTable(felt);
    const status = el("div", { class: "status-line" + (view.to_act && view.to_act === me() ? " mine" : ""), role: "status", "aria-live": "polite", id: "status" },
      hold ? trickCaption() : statusText());
    const parts = [topBar(),
      el("div", { id: "banner", class: "banner", hidden: true }),
      el("div", { id: "conn", class: "banner", hidden: true })];
    // dialogs
    if (pendingSummary && !hold && (!overlay || (overlay === "standings" && view.status === "over"))) overlay = "summary";
    if (overlay === "summary" && !pendingSummary) overlay = null;
    // the standings at the session's end: one card at the top of the page, where "Play again" is in
    // sight; not while the standings dialog shows them
    const over = view.status === "over" && view.standings;
    const finalCard = over && overlay !== "standings"
      ? el("section", { class: "panel final", id: "final" }, el("h2", { text: _("Standings") }), ...standingsBody()) : "";
    parts.push(
      el("main", { class: "table-main" }, finalCard, phone ? el("div", { class: "centre-strip" }, centre()) : "", el("div", { class: "felt-wrap" }, felt),
        el("div", { class: "status-row" }, status, notices()), dealMark(),
        view.status === "waiting" ? waitingPanel() : "",
        actionButtons(), handRow()));
    if (overlay === "last" && h && h.last_trick) parts.push(dialog(_("Last trick"), trickList(h.last_trick), el("p", { text: _("{name} takes the trick", { name: seatName(h.last_trick.winner) }) })));
    else if (overlay === "sheet") parts.push(dialog(_("Score sheet"), ...sheetBody()));
    else if (overlay === "hand" && shownHand) parts.push(dialog(_("Hand {n}", { n: shownHand.number }), ...handBody()));
    else if (overlay === "settings") parts.push(dialog(_("Settings"), ...settingsBody()));
    else if (overlay === "summary") parts.push(dialog(_("Hand {n} is over", { n: pendingSummary.number }), ...summaryBody(), nextDealLine(), over ? againRow() : ""));
    else if (overlay === "standings" && view.standings) parts.push(dialog(_("Standings"), ...standingsBody(), ...sheetBody(true)));
    const dlg = parts.findIndex((x) => x && x.classList && x.classList.contains("overlay"));
    if (closedFor && dlg >= 0) parts.splice(dlg, 1); // a replaced tab shows no dialog over the greyed table
    const before = prevRects;
    app.replaceChildren(...parts);
    if (!document.getElementById("chat")) drawChat();
    prevRects = moveCards(before);
    // a table wider than the dialog scrolls sideways; say so only when it does
    for (const box of document.querySelectorAll(".dialog .scroll")) {
      const hint = box.nextElementSibling;
      if (hint && hint.classList.contains("scroll-hint")) hint.hidden = box.scrollWidth <= box.clientWidth + 1;
    }
    document.body.dataset.seq = String(view.seq);
    document.body.dataset.hand = h ? String(h.number) : "";
    document.body.dataset.overlay = overlay || "";
    document.body.dataset.summary = overlay === "summary" ? String(pendingSummary.number) : "";
    if (closedFor) {
      const main = document.querySelector(".table-main");
      if (main) { main.inert = true; main.classList.add("inert"); }
      closedBanner();
    }
    if (overlay) { const c = document.getElementById("dialog-close"); if (c && !document.querySelector(".dialog :focus")) c.focus(); }
    else if (focusedCard) {
      const again = document.querySelector(`[data-card="${focusedCard}"], [data-action="${focusedCard}"], #${CSS.escape(focusedCard)}`);
      if (again) again.focus();
      else { const first = document.querySelector(".hand-card.can-play, .actions button"); if (first) first.focus(); }
    } else if (view.to_act === me()) {
      const first = document.querySelector(".actions button, .hand-card.can-play");
      if (first && document.activeElement === document.body) first.focus();
    }
  }

  /* ---------------- keyboard ---------------- */
  document.addEventListener("keydown", (ev) => {
    const k = ev.key.toLowerCase();
    // Esc closes the window open, even from one of its own fields (the settings' checkboxes)
    if (k === "escape") { if (overlay) closeOverlay(); else if (hold) releaseHold(); return; }
    if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (overlay) return;
    if (/^[1-9]$/.test(k)) {
      const cards = document.querySelectorAll(".hand-card");
      const b = cards[+k - 1];
      const act = document.querySelector(`.actions [aria-keyshortcuts="${k}"]`);
      if (act) { act.click(); ev.preventDefault(); }
      else if (b) { b.focus(); b.click(); ev.preventDefault(); }
      return;
    }
    const btn = document.querySelector(`.actions [aria-keyshortcuts="${k}"]`);
    if (btn) { btn.click(); ev.preventDefault(); return; }
    if (k === "l") { if (view && view.hand && view.hand.last_trick) openOverlay("last"); return; }
    if (k === "s") { openOverlay("sheet"); return; }
    if (k === "arrowleft" || k === "arrowright") {
      const cards = Array.from(document.querySelectorAll(".hand-card"));
      const i = cards.indexOf(document.activeElement);
      const j = i < 0 ? 0 : (i + (k === "arrowright" ? 1 : cards.length - 1)) % cards.length;
      if (cards[j]) { cards[j].focus(); ev.preventDefault(); }
    }
  });

  function start() {
    app.replaceChildren(el("main", { class: "lobby" }, el("p", { class: "panel", text: _("Connecting…") })));
    connect();
  }

  document.title = _("Ramsli — a card table");
  if (P.role === "seat" && !P.taken) sitForm();
  else {
    if (P.role === "seat") R.rememberTable({ table: P.table, token: P.token, seat: P.seat, name: P.name, invite: location.pathname });
    start();
  }
})();
