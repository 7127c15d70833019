/* ramsli web, the table page: the chat panel, reactions and short phrases (their codes are the
   server's, FACTS.reactions and FACTS.phrases), the bubbles at the seats, muting. The panel lives
   outside the re-rendered table, so typing survives every new view. */
import { S, P, FACTS, me, render, isPhone } from "./table-state.js";
import { sendChat } from "./table-connection.js";
import { sayChat } from "./table-announce.js";

const R = window.R;
const { _, el } = R;

/* how the page draws a reaction (the codes come from the server) */
const EMOJI = { thumbs_up: "👍", laugh: "😄", wow: "😮", grimace: "😬", clap: "👏", facepalm: "🤦" };
const reactionName = (code) =>
  ({
    thumbs_up: _("thumbs up"),
    laugh: _("laughing"),
    wow: _("surprised"),
    grimace: _("grimacing"),
    clap: _("applause"),
    facepalm: _("facepalm"),
  })[code] || code;
const phraseText = (code) =>
  ({
    well_played: _("Well played"),
    good_luck: _("Good luck"),
    thanks: _("Thanks"),
    nice_hand: _("Nice hand"),
    oops: _("Oops"),
    one_more: _("One more session?"),
  })[code] || code;
const isReaction = (code) => FACTS.reactions.includes(code);
const lineText = (m) => (m.code ? (isReaction(m.code) ? EMOJI[m.code] || m.code : phraseText(m.code)) : m.text);
const mutedKey = "ramsli.muted." + P.table;
const muted = () => new Set(JSON.parse(localStorage.getItem(mutedKey) || "[]"));
function setMuted(seat, on) {
  const m = muted();
  if (on) m.add(seat);
  else m.delete(seat);
  localStorage.setItem(mutedKey, JSON.stringify([...m]));
  drawChat();
  render();
}
const canChat = () =>
  P.role === "seat" &&
  S.view &&
  S.view.you.seat &&
  (S.view.you.pending || (S.view.seats.find((x) => x.seat === me()) || {}).taken);

/* a chat line: live (just said) lines show at their seat for a few seconds */
export function onChat(m, live) {
  S.chatLines.push(m);
  if (S.chatLines.length > 200) S.chatLines.shift();
  if (live && !muted().has(m.seat)) {
    if (m.seat !== me()) {
      S.bubbles[m.seat] = { text: lineText(m), until: Date.now() + 5000 };
      if (!S.chatOpen) S.chatUnread++;
      sayChat(m.name, m.code ? (isReaction(m.code) ? reactionName(m.code) : phraseText(m.code)) : m.text);
    }
    render();
  }
  drawChat();
}
/* the chat so far, as a connection gets it after its hello */
export function onChatLog(msg) {
  S.chatLines = msg.lines.slice();
  drawChat();
}
function chatPanel() {
  let box = document.getElementById("chat");
  if (box) return box;
  const input = el("input", {
    id: "chat-text",
    type: "text",
    maxlength: "200",
    autocomplete: "off",
    "aria-label": _("Your message"),
    placeholder: _("Message…"),
  });
  const form = el(
    "form",
    { class: "chat-form", id: "chat-form" },
    input,
    el("button", { type: "submit", class: "small", text: _("Send") }),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const t = input.value.trim();
    if (t) {
      sendChat({ type: "chat", text: t });
      input.value = "";
    }
  });
  const reacts = el(
    "div",
    { class: "reactions", role: "group", "aria-label": _("Reactions") },
    FACTS.reactions.map((code) =>
      el("button", {
        type: "button",
        class: "small react",
        "data-code": code,
        "aria-label": reactionName(code),
        title: reactionName(code),
        onclick: () => sendChat({ type: "react", code: code }),
        text: EMOJI[code] || code,
      }),
    ),
  );
  const phrases = el(
    "div",
    { class: "phrases", role: "group", "aria-label": _("Short phrases") },
    FACTS.phrases.map((code) =>
      el("button", {
        type: "button",
        class: "small phrase",
        "data-code": code,
        onclick: () => sendChat({ type: "react", code: code }),
        text: phraseText(code),
      }),
    ),
  );
  box = el(
    "aside",
    { id: "chat", class: "chat-panel", hidden: true, "aria-label": _("Chat") },
    el(
      "div",
      { class: "chat-head" },
      el("h2", { text: _("Chat") }),
      el("button", {
        type: "button",
        class: "small",
        id: "chat-close",
        text: _("Close"),
        onclick: () => toggleChat(false),
      }),
    ),
    el("ol", { class: "chat-log", id: "chat-log" }), // new lines are said in the one live region (table-announce.js)
    // the quick buttons: one row that scrolls sideways, so that the messages keep the room (on a phone
    // they wrap: every reaction and phrase in sight)
    el(
      "div",
      { class: "chat-send", id: "chat-send" },
      el("div", { class: "chat-quick", id: "chat-quick" }, reacts, phrases),
      form,
    ),
    el("p", { class: "note", id: "chat-readonly", text: _("Spectators read the chat; only the players write.") }),
    el("details", { class: "mutes" }, el("summary", { text: _("Mute someone") }), el("ul", { id: "mute-list" })),
  );
  document.body.append(box);
  return box;
}
/* redraws the chat panel's region (made on first use) and the chat button's badge */
export function drawChat() {
  const view = S.view;
  if (!view) return;
  const box = chatPanel();
  const m = muted();
  const log = box.querySelector("#chat-log");
  log.replaceChildren(
    ...S.chatLines
      .filter((x) => !m.has(x.seat))
      .map((x) =>
        el(
          "li",
          { class: "chat-line" + (x.code ? " code" : ""), "data-seat": x.seat },
          el("b", { class: "who", text: x.name + ": " }),
          el("span", {
            class: "what",
            text: lineText(x),
            title: x.code && isReaction(x.code) ? reactionName(x.code) : null,
          }),
        ),
      ),
  );
  log.scrollTop = log.scrollHeight;
  const writes = !!canChat();
  box.querySelector("#chat-send").hidden = !writes;
  box.querySelector("#chat-readonly").hidden = writes;
  const people = view.seats.filter((s) => s.kind === "human" && s.name && s.seat !== me());
  box.querySelector("#mute-list").replaceChildren(
    ...people.map((s) =>
      el(
        "li",
        {},
        el("button", {
          type: "button",
          class: "small mute",
          "data-seat": s.seat,
          "aria-pressed": m.has(s.seat) ? "true" : "false",
          onclick: () => setMuted(s.seat, !m.has(s.seat)),
          text: m.has(s.seat) ? _("Unmute {name}", { name: s.name }) : _("Mute {name}", { name: s.name }),
        }),
      ),
    ),
  );
  const b = document.getElementById("btn-chat");
  if (b) b.querySelector(".badge").textContent = S.chatUnread ? String(S.chatUnread) : "";
}
export function toggleChat(open) {
  S.chatOpen = open === undefined ? !S.chatOpen : open;
  const box = chatPanel();
  const within = box.contains(document.activeElement); // closing from inside: focus goes back to the chat button
  box.hidden = !S.chatOpen;
  if (S.chatOpen) {
    S.chatUnread = 0;
    drawChat();
    // on a phone (narrow or a finger) the text box waits for a tap: focusing it would raise the keyboard
    const touch = isPhone() || window.matchMedia("(pointer: coarse)").matches;
    const i = document.getElementById(touch ? "chat-close" : "chat-text");
    if (i && !i.closest("[hidden]")) i.focus();
  }
  const b = document.getElementById("btn-chat");
  if (b) {
    b.setAttribute("aria-expanded", S.chatOpen ? "true" : "false");
    b.querySelector(".badge").textContent = "";
    if (!S.chatOpen && within) b.focus();
  }
}
