/* ramsli web, a new evening (/evenings/new, ?club=ID for a club's evening; issue 34 item 1): name,
   date and time (sent with this browser's UTC offset, ISO 8601), rules, format, rounds, hands per
   round, the final's size, online / real cards / mixed, members only, every week. The server checks
   every field and answers a refusal in the reader's language; nothing is made then. */
import { P, app, header, loginLink, alertBox, showError, clearError } from "./evening-common.js";

const R = window.R;
const { _, el } = R;

/* "2026-12-10T20:00" (a datetime-local, the browser's own time) -> "2026-12-10T20:00+01:00" */
export function withOffset(local) {
  const d = new Date(local);
  if (!local || isNaN(d.getTime())) return local;
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  const a = Math.abs(off);
  const pad = (n) => String(n).padStart(2, "0");
  /* the browser's time zone in brackets (RFC 9557): a weekly evening keeps its hour across summer time */
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    zone = "";
  }
  const named = /^[A-Za-z0-9_+\-/]{1,40}$/.test(zone) ? `[${zone}]` : "";
  return `${local.slice(0, 16)}${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}${named}`;
}
/* the default start: today at 20:00, or tomorrow's if that has passed (as datetime-local text) */
function defaultStart() {
  const d = new Date();
  d.setHours(20, 0, 0, 0);
  if (d.getTime() < Date.now()) d.setDate(d.getDate() + 1);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T20:00`;
}

function field(id, label, control, hint) {
  if (hint) control.setAttribute("aria-describedby", id + "-hint");
  return [
    el("label", { for: id, text: label }),
    hint
      ? el("div", { class: "ev-field" }, control, el("span", { class: "note", id: id + "-hint", text: hint }))
      : control,
  ];
}
function check(id, label, checked) {
  return el(
    "div",
    { class: "check" },
    el("input", { type: "checkbox", id: id, checked: !!checked }),
    el("label", { for: id, text: label }),
  );
}

export async function newPage() {
  document.title = _("A new evening") + " — Ramsli";
  const me = await R.me();
  if (!me.player) {
    app.replaceChildren(
      header(_("A new evening")),
      el(
        "main",
        { class: "club evening" },
        el(
          "section",
          { class: "panel", id: "refused" },
          el("p", { text: _("Log in, or make a player, to make an evening.") }),
          loginLink(),
        ),
      ),
    );
    return;
  }
  const owned = (me.clubs || []).filter((c) => c.role === "owner");
  const club = el(
    "select",
    { id: "ev-club" },
    el("option", { value: "", text: _("no club: an open evening") }),
    owned.map((c) => el("option", { value: c.id, selected: c.id === P.club, text: c.name })),
  );
  const preset = el(
    "select",
    { id: "ev-preset" },
    (P.presets || ["traditional"]).map((p) => el("option", { value: p, text: R.presetName(p) })),
  );
  const format = el(
    "select",
    { id: "ev-format" },
    el("option", { value: "final", selected: true, text: _("rounds and a final (the best play the final)") }),
    el("option", { value: "results", text: _("rounds redrawn by results (the leaders at table 1)") }),
    el("option", { value: "lot", text: _("every round drawn by lot") }),
    el("option", { value: "duplicate", text: _("duplicate (the same deals at every table, scored by matchpoints)") }),
  );
  const mode = el(
    "select",
    { id: "ev-mode" },
    el("option", { value: "online", selected: true, text: _("online: every table on phones and laptops") }),
    el("option", { value: "cards", text: _("real cards: every table keeps its score in the ledger") }),
    el("option", { value: "mixed", text: _("mixed: the director chooses the tables with real cards") }),
  );
  const num = (id, min, max, value) =>
    el("input", {
      type: "number",
      id: id,
      min: String(min),
      max: String(max),
      value: String(value),
      required: true,
      inputmode: "numeric",
    });
  const form = el(
    "form",
    { class: "panel", id: "new-evening", "aria-labelledby": "title" },
    alertBox(),
    el(
      "div",
      { class: "form-grid" },
      ...field(
        "ev-name",
        _("Name"),
        el("input", {
          type: "text",
          id: "ev-name",
          maxlength: "60",
          required: true,
          placeholder: _("Thursday evening"),
        }),
      ),
      ...field(
        "ev-starts",
        _("Date and time"),
        el("input", { type: "datetime-local", id: "ev-starts", required: true, value: defaultStart() }),
        _("in your time zone"),
      ),
      el("span"),
      el("p", { class: "note ev-warn", id: "ev-past", role: "status", "aria-live": "polite" }),
      ...(owned.length ? field("ev-club", _("Club"), club) : []),
      ...field("ev-preset", _("Rules"), preset),
      ...field("ev-format", _("Format"), format),
      ...field("ev-rounds", _("Rounds"), num("ev-rounds", 1, 12, 3), _("qualifying rounds, before the final")),
      ...field(
        "ev-hands",
        _("Hands per round"),
        num("ev-hands", 1, 60, 10),
        _("rounded up so that everyone deals equally often"),
      ),
      ...field("ev-final-size", _("Players in the final"), num("ev-final-size", 3, 6, 5)),
      ...field("ev-mode", _("Play"), mode),
      ...field(
        "ev-turn",
        _("Turn timer (seconds)"),
        el("input", {
          type: "number",
          id: "ev-turn",
          min: "5",
          max: "600",
          value: "60",
          inputmode: "numeric",
        }),
        _("empty: no turn timer"),
      ),
    ),
    check("ev-small-final", _("A small final for the next best"), true),
    check("ev-members", _("Members of the club only"), false),
    check("ev-weekly", _("Every week at this time"), false),
    el("button", { type: "submit", class: "primary big", id: "create-evening", text: _("Make the evening") }),
  );
  const finalOnly = [form.querySelector("#ev-final-size"), form.querySelector("#ev-small-final")];
  const clubOnly = [form.querySelector("#ev-members"), form.querySelector("#ev-weekly")];
  function sync() {
    const isFinal = format.value === "final";
    for (const c of finalOnly) c.disabled = !isFinal;
    /* duplicate is played online only: the server deals the same cards at every table (issue 35) */
    const dup = format.value === "duplicate";
    for (const o of mode.options) o.disabled = dup && o.value !== "online";
    if (dup) mode.value = "online";
    const hasClub = !!club.value;
    for (const c of clubOnly) {
      c.disabled = !hasClub;
      if (!hasClub) c.checked = false;
    }
  }
  /* a start in the past is allowed (an evening made on the spot), but said (item 9) */
  const starts = form.querySelector("#ev-starts");
  function past() {
    const d = new Date(starts.value);
    form.querySelector("#ev-past").textContent =
      starts.value && !isNaN(d.getTime()) && d.getTime() < Date.now()
        ? _("This start is in the past: the evening is made all the same.")
        : "";
  }
  starts.addEventListener("input", past);
  starts.addEventListener("change", past);
  past();
  format.addEventListener("change", sync);
  club.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearError();
    const value = (id) => form.querySelector("#" + id).value;
    const checked = (id) => form.querySelector("#" + id).checked;
    const body = {
      name: value("ev-name").trim(),
      starts: withOffset(value("ev-starts")),
      club: club.value || null,
      preset: preset.value,
      rules: [],
      mode: mode.value,
      members_only: checked("ev-members"),
      format: format.value,
      rounds: +value("ev-rounds"),
      hands_per_round: +value("ev-hands"),
      final_size: format.value === "final" ? +value("ev-final-size") : null,
      small_final: format.value === "final" && checked("ev-small-final"),
      recurring: checked("ev-weekly") ? "weekly" : null,
      turn_seconds: value("ev-turn").trim() === "" ? null : +value("ev-turn"),
    };
    const button = form.querySelector("#create-evening");
    button.disabled = true;
    try {
      const r = await R.api("POST", "/api/evenings", body);
      location.href = R.url(r.url || `/e/${r.id}`) + "?lang=" + R.lang;
    } catch (e) {
      showError(e);
      button.disabled = false;
    }
  });
  app.replaceChildren(header(_("A new evening")), el("main", { class: "club evening" }, form));
  form.querySelector("#ev-name").focus();
}
