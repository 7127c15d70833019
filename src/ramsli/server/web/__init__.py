"""The browser's pages: lobby, table, how-to-play, their static files and catalogs.

:mod:`~ramsli.server.web.shell` makes every page (the HTML shell with its catalog and data; the
clubs', the ledger's and the coach's pages use it too) and :mod:`~ramsli.server.web.routes` serves
the pages and the files of ``static/`` (plain HTML, CSS and JavaScript modules, no build step,
nothing from the internet). The pages talk to the server through the protocol of
``docs/protocol.md`` only.
"""
