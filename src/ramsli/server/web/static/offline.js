/* ramsli web: the page the service worker shows when there is no network. */
"use strict";
(function () {
  const R = window.R,
    _ = R._,
    el = R.el;
  document.title = _("Offline — Ramsli");
  const again = el("button", {
    type: "button",
    class: "primary",
    id: "retry",
    text: _("Try again"),
    onclick: () => location.reload(),
  });
  document.getElementById("app").replaceChildren(
    el(
      "main",
      { class: "lobby" },
      el(
        "section",
        { class: "panel" },
        el("h1", { text: _("You are offline") }),
        el("p", {
          text: _(
            "This device has no connection to the server, so no table can be shown. A table you sit at goes on without you: after the grace period a bot plays for you until you are back.",
          ),
        }),
        el("p", {}, again),
      ),
    ),
  );
})();
