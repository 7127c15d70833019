/* ramsli web, the table page: the WebSocket to the table (docs/protocol.md, The WebSocket). It says
   hello, hands each message on, reconnects with a growing pause, and after a final close code (the
   server's CloseCode, FACTS.close_codes) shows one banner instead. */
import { S, P, FACTS, render } from "./table-state.js";
import { say, sayConnection } from "./table-announce.js";

const R = window.R;
const { _, el } = R;
const CLOSE = FACTS.close_codes;
/* what the page does with each message: {view, error, chat, chat_log} -> function(message) */
const handlers = { error: onError };
export function listen(more) {
  Object.assign(handlers, more);
}

export function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = (S.ws = new WebSocket(`${proto}://${location.host}${R.url("/ws/" + P.table)}`));
  ws.onopen = () => {
    S.backoff = 500;
    ws.send(JSON.stringify({ type: "hello", token: P.token, lang: R.lang }));
    setConn(true);
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (Object.hasOwn(handlers, msg.type)) handlers[msg.type](msg);
  };
  ws.onclose = (ev) => {
    if (ev.code === CLOSE.LEFT) {
      location.href = R.url("/?lang=" + R.lang); // left the table: to the lobby
      return;
    }
    if (FACTS.final_close_codes.includes(ev.code)) {
      S.closedFor = ev.code; // no reconnecting: one clear banner, the table greyed out
      setConn(true);
      render();
      closedBanner();
      return;
    }
    setConn(false);
    setTimeout(connect, S.backoff);
    S.backoff = Math.min(S.backoff * 2, 8000);
  };
}
function setConn(ok) {
  sayConnection(ok);
  const c = document.getElementById("conn");
  if (!c) return;
  c.textContent = ok
    ? ""
    : navigator.onLine === false
      ? _("You are offline. The table goes on: after the grace period a bot plays for you until you are back.")
      : _("Connection lost — reconnecting…");
  c.hidden = ok;
}
window.addEventListener("offline", () => setConn(false));
window.addEventListener("online", () => {
  if (S.ws && S.ws.readyState === 1) setConn(true);
});

/* an action of this seat ("p1 pl 9S"), for the view the page shows */
export function send(action) {
  if (!S.ws || S.ws.readyState !== 1 || !S.view) return;
  S.ws.send(JSON.stringify({ type: "act", action: action, seq: S.view.seq }));
}
/* any other message (chat, react, ready, leave) */
export function sendChat(msg) {
  if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(msg));
}

function onError(e) {
  if (e.code === "stale_seq") return; // a newer view is on its way
  if (e.code === "replaced" || e.code === "left") return;
  // the rule id once, in the detail line: "must follow suit: play ♦" / "Rule R4.10"
  const text = e.rule ? e.message.replace(` (${e.rule})`, "") : e.message;
  // in the status row, beside the status line: never over it, the top bar, the pot, the seats or your cards
  const detail = e.rule ? _("Rule {rule}", { rule: e.rule }) : "";
  if (!S.view) return R.toast(text, detail, "bad"); // no table drawn yet
  S.refusal = { text: text, detail: detail, until: Date.now() + 6000 };
  say(text); // shown in the status row, said once in the one live region
  render();
}
function banner(text) {
  const b = document.getElementById("banner");
  if (b) {
    b.textContent = text;
    b.hidden = false;
  }
  return b;
}
/* the one banner of a connection closed for good (S.closedFor) */
export function closedBanner() {
  const b = banner(
    S.closedFor === CLOSE.REPLACED
      ? _("This seat was opened in another window or tab; play there.")
      : S.closedFor === CLOSE.BAD_TOKEN
        ? _("This link is not valid for this table.")
        : _("There is no such table on this server."),
  );
  if (b && S.closedFor === CLOSE.REPLACED) {
    b.append(
      " ",
      el("button", {
        type: "button",
        class: "small",
        id: "play-here",
        text: _("Play here again"),
        onclick: () => {
          S.closedFor = null;
          b.hidden = true;
          render();
          connect();
        },
      }),
    );
  }
}
