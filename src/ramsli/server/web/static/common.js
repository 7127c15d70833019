/* ramsli web: translations, settings, remembered tables (shared by every page).
   The catalog comes from the project's Babel catalogs (ramsli.server.web.shell renders it into the page). */
"use strict";

const R = (window.R = window.R || {});
R.catalog = JSON.parse(document.getElementById("ramsli-catalog").textContent || "{}");
R.page = JSON.parse(document.getElementById("ramsli-page").textContent || "{}");
R.lang = R.page.lang || "en";
/* the server's path prefix ("" or e.g. "/ramsli"): every link the page makes starts with it */
R.base = R.page.base || "";
R.url = function (path) {
  const p = String(path);
  if (!p.startsWith("/") || p.startsWith("//") || (R.base && (p === R.base || p.startsWith(R.base + "/")))) return p;
  return R.base + p;
};

function fmt(s, vars) {
  if (!vars) return s;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}
/* gettext in the page's language; {name} placeholders are filled from vars */
function _(msg, vars) {
  const tr = R.catalog[msg];
  return fmt(typeof tr === "string" && tr ? tr : msg, vars);
}
/* the singular form for n in the page's language: CLDR's "one" (1; in French 0 and 1 too, as the
   catalog's plural=(n > 1)) */
let plurals = null;
function isOne(n) {
  try {
    plurals = plurals || new Intl.PluralRules(R.lang);
    return plurals.select(n) === "one";
  } catch (e) {
    return n === 1;
  }
}
function ngettext(one, many, n, vars) {
  const tr = R.catalog[one];
  const single = isOne(n);
  let s = single ? one : many;
  if (Array.isArray(tr)) s = tr[single ? 0 : tr.length - 1] || s; // it has 3 forms; the last is "many"
  return fmt(s, Object.assign({ n: n }, vars || {}));
}
function pgettext(ctx, msg, vars) {
  const tr = R.catalog[ctx + "\u0004" + msg];
  return fmt(typeof tr === "string" && tr ? tr : msg, vars);
}
R._ = _;
R.ngettext = ngettext;
R.pgettext = pgettext;

/* settings kept in localStorage */
const DEFAULTS = {
  fourColour: false,
  german: false,
  sound: false,
  notify: false,
  reduceMotion: false,
  trickPause: 1.6,
  name: "",
};
R.settings = Object.assign({}, DEFAULTS, JSON.parse(localStorage.getItem("ramsli.settings") || "{}"));
R.saveSettings = function () {
  localStorage.setItem("ramsli.settings", JSON.stringify(R.settings));
};
R.applySettings = function () {
  const b = document.body;
  b.classList.toggle("four-colour", !!R.settings.fourColour);
  b.classList.toggle("german", !!R.settings.german);
  b.classList.toggle(
    "reduce-motion",
    !!R.settings.reduceMotion || window.matchMedia("(prefers-reduced-motion: reduce)").matches,
  );
};

/* true if things may move on the page (cards travelling to the trick): not with reduced motion */
R.moves = function () {
  return (
    !document.body.classList.contains("reduce-motion") && !window.matchMedia("(prefers-reduced-motion: reduce)").matches
  );
};

/* an app on the phone: the service worker keeps the static files for offline starts
   (it never touches /api or /ws); a page without it works the same */
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register(R.url("/sw.js"), { scope: R.url("/") }).catch(() => {
    /* e.g. a private window: fine */
  });
}

/* tables this browser sits at: {table, token, seat, name, invite, creator, created} */
R.myTables = function () {
  return JSON.parse(localStorage.getItem("ramsli.tables") || "[]");
};
R.rememberTable = function (entry) {
  const list = R.myTables().filter((e) => !(e.table === entry.table && e.token === entry.token));
  const old = R.myTables().find((e) => e.table === entry.table && e.token === entry.token) || {};
  list.unshift(Object.assign(old, entry));
  localStorage.setItem("ramsli.tables", JSON.stringify(list.slice(0, 30)));
};
R.forgetTable = function (table, token) {
  localStorage.setItem(
    "ramsli.tables",
    JSON.stringify(R.myTables().filter((e) => !(e.table === table && e.token === token))),
  );
};
R.creatorToken = function (table) {
  const e = R.myTables().find((x) => x.table === table && x.creator);
  return e ? e.creator : null;
};

/* the CSRF token of this browser's login (docs/clubs.md): sent with every request that changes something */
R.csrf = function () {
  const m = document.cookie.match(/(?:^|;\s*)ramsli_csrf=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
};
R.headers = function () {
  const h = { "Content-Type": "application/json", "Accept-Language": R.lang };
  const t = R.csrf();
  if (t) h["X-CSRF-Token"] = t;
  return h;
};
/* the logged-in player, or null for a guest (asked once a page) */
R.me = function () {
  if (!R._me)
    R._me = R.api("GET", "/api/me").then(
      (d) => d,
      () => ({ player: null }),
    );
  return R._me;
};

R.api = async function (method, path, body) {
  const opts = { method: method, headers: R.headers() };
  if (body !== undefined) opts.body = JSON.stringify(body);
  const r = await fetch(R.url(path), opts);
  let data = null;
  try {
    data = await r.json();
  } catch (e) {
    data = null;
  }
  if (!r.ok) {
    const err = new Error((data && data.message) || r.statusText);
    err.code = data && data.error;
    err.status = r.status;
    /* a full queue or a per-address limit (429) says how many seconds to wait: Retry-After */
    err.retryAfter = Number(r.headers.get("Retry-After")) || 0;
    throw err;
  }
  return data;
};

R.el = function (tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "style") e.style.cssText = v; /* through the CSSOM: the page's CSP has no inline style */
    else if (k === "href" && typeof v === "string") e.setAttribute(k, R.url(v));
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of kids.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
};

/* the language picker: reloads the page in the chosen language */
R.langPicker = function () {
  const sel = R.el("select", { id: "lang", "aria-label": _("Language") });
  // the server's languages, each named in its own language (R.page.facts, ramsli.server.web.facts)
  for (const l of R.page.facts.languages)
    sel.append(R.el("option", { value: l.code, selected: l.code === R.lang, text: l.name }));
  sel.addEventListener("change", () => {
    localStorage.setItem("ramsli.lang", sel.value);
    const u = new URL(location.href);
    u.searchParams.set("lang", sel.value);
    location.href = u.toString();
  });
  return sel;
};
/* a page opened without ?lang= follows the language chosen before */
(function () {
  const want = localStorage.getItem("ramsli.lang");
  const u = new URL(location.href);
  if (want && !u.searchParams.get("lang") && want !== R.lang) {
    u.searchParams.set("lang", want);
    location.replace(u.toString());
  }
})();

/* a message for a few seconds; ``bottom`` (px from the window's bottom) places it there instead of
   the page's usual place (the table puts a refused card's reason just above the hand) */
R.toast = function (text, detail, kind, bottom) {
  let box = document.getElementById("toast");
  if (!box) return;
  box.replaceChildren(
    R.el("div", { class: "toast-main", text: text }),
    detail ? R.el("div", { class: "toast-detail", text: detail }) : "",
  );
  if (bottom === undefined) box.style.removeProperty("bottom");
  else box.style.bottom = Math.round(bottom) + "px";
  box.className = "toast show " + (kind || "") + (bottom === undefined ? "" : " placed");
  clearTimeout(R._toastTimer);
  R._toastTimer = setTimeout(() => {
    box.className = "toast";
  }, 5000);
};

R.beep = function () {
  if (!R.settings.sound) return;
  try {
    const ctx = R._audio || (R._audio = new (window.AudioContext || window.webkitAudioContext)());
    const o = ctx.createOscillator(),
      g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.value = 0.05;
    o.connect(g);
    g.connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.12);
  } catch (e) {
    /* no audio: fine */
  }
};

/* names of presets, bot levels and session ends in the page's language (R6, R3.6) */
R.presetName = function (p) {
  return (
    {
      traditional: _("traditional"),
      "general-rams": _("General Rams"),
      compulsory: _("Compulsory Ramsli"),
      "double-penalty": _("double bete"),
      "pot-bete": _("bete of the pot"),
      joker: _("with jokers"),
      "modern-52": _("modern, 52 cards"),
      rounce: _("Rounce"),
      nap: _("with targets (Nap)"),
    }[p] || p
  );
};
/* the options a table changes from its preset (R8), in the page's language: "after 10 hands · ante 2";
   ``changes`` is option -> value (a view's ``rules.changes``) */
R.rulesChanges = function (changes) {
  const onOff = (v, on, off) => (v === true || v === "true" ? on : off);
  const words = {
    end: (v) => R.endText(Array.isArray(v) ? v : String(v).split(",")),
    players: (v) => ngettext("{n} player", "{n} players", +v),
    deck: (v) => (v === "full52" ? _("52 cards") : _("32 cards")),
    jokers: (v) => onOff(v, _("with jokers"), _("without jokers")),
    starting_stack: (v) => _("stacks of {n}", { n: v }),
    ante: (v) => _("ante {n}", { n: v }),
    bete: (v) => (v === "pot" ? _("bete of the pot") : _("bete {n}", { n: v })),
    dealer_forced: (v) => onOff(v, _("the dealer must stay in"), _("the dealer may go out")),
    compulsory: (v) => onOff(v, _("Compulsory Ramsli"), _("going out allowed")),
    general_rams: (v) => onOff(v, _("General Rams"), _("no General Rams")),
    targets: (v) => onOff(v, _("targets"), _("no targets")),
    overtrump: (v) => (v === "always" ? _("always overtrump") : _("overtrump only when trumping")),
    batches: (v) => _("dealt {batches}", { batches: v }),
    general_rams_penalty: (v) => _("General Rams penalty: {value}", { value: v }),
    target_bonus: (v) => _("target bonus: {value}", { value: v }),
    bust: (v) => _("when bust: {value}", { value: v }),
  };
  return Object.entries(changes || {})
    .map(([k, v]) => (words[k] ? words[k](v) : k + " " + v))
    .join(" · ");
};
/* a rules spec as the server writes it for programs ("traditional; end=hands:10") in the page's
   language: the preset's name and the changed options (R.rulesChanges) */
R.rulesSpecText = function (spec) {
  const [preset, ...rest] = String(spec || "").split(/;\s*/);
  const changes = {};
  for (const part of rest) {
    const at = part.indexOf("=");
    if (at > 0) changes[part.slice(0, at)] = part.slice(at + 1);
  }
  return [R.presetName(preset), R.rulesChanges(changes)].filter(Boolean).join(" · ");
};
/* the level a bot spec stands for ("medium" for the medium level's spec), from the server's levels
   (R.page.facts.levels: level -> spec, ramsli.bots.levels.LEVELS), or "" */
R.levelOf = function (spec) {
  const text = String(spec || "").trim();
  const levels = (R.page.facts && R.page.facts.levels) || {};
  for (const level of Object.keys(levels)) if (levels[level] === text) return level;
  return "";
};
/* a bot's label: its level, or what the bot is (the easy level is the tips player with slips); a
   spec with options is a level's name if it is that level's spec (medium and hard are montecarlo with
   a small budget and slips), otherwise the bot's own name with its options (they change how it plays,
   so no level's words fit) */
R.botLevel = function (spec) {
  const text = String(spec || "").trim();
  const [kind, opts] = text.split(/:(.*)/s);
  const names = {
    random: _("beginner"),
    beginner: _("beginner"),
    rules: _("tips player"),
    tips: _("tips player"),
    equilibrium: _("equilibrium: solved declarations"),
    easy: _("easy: plays the tips, with slips"),
    medium: _("medium"),
    hard: _("hard"),
    expert: _("expert: the strongest"),
  };
  if (opts) {
    const level = R.levelOf(text);
    return level ? names[level] : kind + " · " + opts;
  }
  return Object.prototype.hasOwnProperty.call(names, kind) ? names[kind] : kind;
};
/* a bot's short label where room is short (a seat on the felt, a seat menu): "bot · hard"; the full
   words of R.botLevel go into its title or a description beside it */
R.botShort = function (spec) {
  const text = String(spec || "").trim();
  const [kind, opts] = text.split(/:(.*)/s);
  const names = {
    random: _("beginner"),
    beginner: _("beginner"),
    rules: _("tips player"),
    tips: _("tips player"),
    easy: _("easy"),
    medium: _("medium"),
    hard: _("hard"),
    expert: _("expert"),
  };
  const level = R.levelOf(text);
  const word = level ? names[level] : !opts && Object.prototype.hasOwnProperty.call(names, kind) ? names[kind] : kind;
  return _("bot · {level}", { level: word });
};
/* the session's end in words; ``or`` joins several ends as alternatives ("after 10 hands or when …") */
R.endText = function (end, or) {
  if (!end || !end.length) return _("when a player is bust");
  const parts = end.map((e) => {
    const [k, v] = String(e).split(":");
    const n = +v;
    if (k === "hands") return ngettext("after {n} hand", "after {n} hands", n);
    if (k === "win-at") return _("when a player has {n}", { n: ngettext("{n} counter", "{n} counters", n) });
    if (k === "time") return ngettext("after {n} minute", "after {n} minutes", n);
    return e;
  });
  if (!or) return parts.join(" · ");
  try {
    return new Intl.ListFormat(R.lang, { style: "long", type: "disjunction" }).format(parts);
  } catch (e) {
    return parts.join(", ");
  }
};
/* "A, B and C" in the page's language */
R.listText = function (items) {
  try {
    return new Intl.ListFormat(R.lang, { style: "long", type: "conjunction" }).format(items);
  } catch (e) {
    return items.join(", ");
  }
};
/* an evening's start in the reader's locale (issue 34): ISO 8601 with its offset, maybe with an
   RFC 9557 zone suffix ("2026-12-03T20:00+00:00[Europe/Berlin]"); with a zone, the time is shown in
   that zone and the zone named ("Thursday, 3 December 2026 at 21:00 (Europe/Berlin)") */
R.startsText = function (iso, style) {
  const text = String(iso || "");
  const m = /^([^[]*)((?:\[[^\]]*\])*)$/.exec(text);
  const bare = m ? m[1] : text;
  const zones = m ? [...m[2].matchAll(/\[!?([^\]=]+)\]/g)].map((x) => x[1]) : [];
  const zone = zones.length ? zones[0] : null;
  const d = new Date(bare);
  if (isNaN(d.getTime())) return text;
  const opts = style || { dateStyle: "full", timeStyle: "short" };
  if (zone) {
    try {
      return new Intl.DateTimeFormat(R.lang, Object.assign({ timeZone: zone }, opts)).format(d) + " (" + zone + ")";
    } catch (e) {
      /* a zone this browser does not know: the reader's own time */
    }
  }
  try {
    return new Intl.DateTimeFormat(R.lang, opts).format(d);
  } catch (e) {
    return d.toLocaleString();
  }
};
R.toastHide = function () {
  const box = document.getElementById("toast");
  if (box) box.className = "toast";
  clearTimeout(R._toastTimer);
};
