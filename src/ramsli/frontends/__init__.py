"""Front ends: the ``ramsli play`` table in the terminal.

- :mod:`ramsli.frontends.i18n`: gettext catalogs for en, de, nl, it (R9 terms);
- :mod:`ramsli.frontends.text`: cards, states, settlements and standings as translated text;
- :mod:`ramsli.frontends.game`: the table controller (session, bots, saving) shared by both front ends;
- :mod:`ramsli.frontends.storage`: the versioned save file and hand histories (platformdirs);
- :mod:`ramsli.frontends.plain`: the ``--plain`` line mode (screen readers, scripts, tests);
- :mod:`ramsli.frontends.tui`: the Textual app.

Front ends hold no rules: what is legal, and why not, comes from the engine
(``hand.legal_actions()``, ``hand.why_illegal()``).
"""
