/* ramsli web: a link that leads nowhere (no such table, or a wrong seat token). */
"use strict";
(function () {
  const R = window.R,
    _ = R._,
    el = R.el;
  const text =
    R.page.code === "no_table"
      ? _("There is no such table on this server.")
      : R.page.code === "bad_token" || !R.page.message
        ? _("This link is not valid for this table.")
        : R.page.message;
  document
    .getElementById("app")
    .replaceChildren(
      el(
        "main",
        { class: "lobby" },
        el(
          "section",
          { class: "panel" },
          el("h1", { text: text }),
          el("p", {}, el("a", { href: "/?lang=" + R.lang, text: _("Back to the lobby") })),
        ),
      ),
    );
})();
