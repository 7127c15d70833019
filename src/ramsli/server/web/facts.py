"""The facts the server owns that the pages need: close codes, reactions, languages, bot levels.

:func:`page_facts` is rendered into every page's data (``R.page.facts``, by
:func:`ramsli.server.web.shell.shell`), and its languages into the service worker when it is
served, so that no script keeps its own copy of them.

>>> facts = page_facts()
>>> facts["close_codes"]["REPLACED"], facts["final_close_codes"]
(4001, [4001, 4003, 4004])
>>> facts["reactions"][0], facts["phrases"][0]
('thumbs_up', 'well_played')
>>> [lang["code"] for lang in facts["languages"]] == [lang.code for lang in LANGUAGES]
True
>>> facts["levels"] == LEVELS
True
"""

from __future__ import annotations

import functools
from typing import Any

from ramsli.bots.levels import LEVELS
from ramsli.i18n import LANGUAGES
from ramsli.server.protocol.closecodes import CloseCode
from ramsli.server.tables.table import PHRASES, REACTIONS

__all__ = ["page_facts"]


@functools.lru_cache(maxsize=1)
def page_facts() -> dict[str, Any]:
    """The facts a page reads (JSON-ready; the same dict on every call, do not change it):

    - ``close_codes``: :class:`~ramsli.server.protocol.closecodes.CloseCode` by name → number;
    - ``final_close_codes``: the numbers after which a page does not reconnect (``CloseCode.final``);
    - ``reactions``, ``phrases``: the codes of a ``react`` message
      (:data:`ramsli.server.tables.table.REACTIONS`, :data:`~ramsli.server.tables.table.PHRASES`),
      in the order the chat panel offers them;
    - ``languages``: ``{"code", "name"}`` of each of :data:`ramsli.i18n.LANGUAGES`, the name in
      its own language;
    - ``levels``: :data:`ramsli.bots.levels.LEVELS`, level name → the bot spec it stands for, weakest
      first (a page names a seat's bot by its level).
    """
    return {
        "close_codes": {c.name: c.value for c in CloseCode},
        "final_close_codes": [c.value for c in CloseCode if c.final],
        "reactions": list(REACTIONS),
        "phrases": list(PHRASES),
        "languages": [{"code": lang.code, "name": lang.name} for lang in LANGUAGES],
        "levels": dict(LEVELS),
    }
