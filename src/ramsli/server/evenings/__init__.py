"""Club evenings and tournaments (issue 34): the server runs the night.

A club (its owner) or any player makes an **evening**; people check in through its one standing
link (``/e/{id}``); the director starts round after round, and the server splits the checked-in
participants into tables of 3 to 6, draws the seats verifiably from a committed seed, makes the
online tables (or, with real cards, a pub ledger kept by each table's captain), scores every
table's result fairly across table sizes and keeps the standings; the club's season table and the
ratings count its tables like any club session.

- :mod:`~ramsli.server.evenings.log`: the evening's log entries (its only changes; its audit trail);
- :mod:`~ramsli.server.evenings.state`: the evening as the fold of its log, and the next round's draw (pure);
- :mod:`~ramsli.server.evenings.views`: its state, download and audit trail as sent (no card, no token);
- :mod:`~ramsli.server.evenings.service`: :class:`~ramsli.server.evenings.service.Evenings`, every action;
- :mod:`~ramsli.server.evenings.routes`: the HTTP API (``/api/evenings/...``);
- :mod:`~ramsli.server.evenings.pages`: the pages (``/e/{id}``, director, TV, print, new evening);
- :mod:`~ramsli.server.evenings.prints`: the PDF of table lists and score sheets, QR, standings CSV, calendar (no I/O);
- :mod:`~ramsli.server.evenings.feeds`: their routes (``sheets.pdf``, ``standings.csv``, ``qr.svg``, the club's ``evenings.ics``).

The draw and the scoring themselves are the pure core :mod:`ramsli.evening`, which ``ramsli
verify`` also uses on an evening's download.
"""
