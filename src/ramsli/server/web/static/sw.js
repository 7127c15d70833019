/* ramsli web: the service worker of the app on the phone ("add to home screen").
   - the static files (/static/...) come from the cache at once and are refreshed from the server
     behind the scenes (stale-while-revalidate), so the pages start without a network;
   - /api/... and /ws/... are never cached nor intercepted: every move, chat line and view goes to
     the server as if there were no service worker;
   - a page (the lobby, a table, how to play) comes from the server; without a network the
     offline page of the page's language says so plainly.
   Nothing here holds a card or a token. */
"use strict";
const CACHE = "ramsli-static-v4";
/* the server's path prefix ("" or e.g. "/ramsli"): this worker is served at PREFIX/sw.js */
const BASE = new URL("./", self.location).pathname.replace(/\/$/, "");
/* {languages: the language codes, modules: the ES-module pages' modules (table-*.js, evening-*.js)}: the server writes them in when it
   serves this file (ramsli.server.web.shell.service_worker_source) */
const FACTS = /* the server's facts */ null;
const LANGS = FACTS.languages;
const STATIC = [
  "common.js",
  "cards.js",
  "table.js",
  ...FACTS.modules,
  "lobby.js",
  "howto.js",
  "ledger.js",
  "evening.js",
  "error.js",
  "offline.js",
  "style.css",
  "ledger.css",
  "evening.css",
  "icon.svg",
  "icon-turn.svg",
  "icon-app.svg",
  "icon-192.png",
  "icon-512.png",
].map((f) => BASE + "/static/" + f);
const OFFLINE = LANGS.map((l) => BASE + "/offline?lang=" + l);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(STATIC.concat(OFFLINE)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || req.method !== "GET") return;
  if (url.pathname.startsWith(BASE + "/api/") || url.pathname.startsWith(BASE + "/ws/")) return; // never touched
  if (url.pathname.startsWith(BASE + "/static/")) {
    event.respondWith(
      caches.open(CACHE).then(async (cache) => {
        const hit = await cache.match(req, { ignoreSearch: true });
        const fresh = fetch(req).then((r) => {
          if (r.ok) cache.put(req, r.clone());
          return r;
        });
        if (hit) {
          event.waitUntil(fresh.catch(() => null));
          return hit;
        }
        return fresh;
      }),
    );
    return;
  }
  if (req.mode === "navigate") {
    event.respondWith(
      fetch(req).catch(async () => {
        const want = url.searchParams.get("lang");
        const nav = ((self.navigator && self.navigator.language) || "en").slice(0, 2);
        const lang = LANGS.includes(want) ? want : LANGS.includes(nav) ? nav : "en";
        return (await caches.match(BASE + "/offline?lang=" + lang)) || Response.error();
      }),
    );
  }
});
