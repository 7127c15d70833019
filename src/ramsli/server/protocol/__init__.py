"""The protocol of ``ramsli serve``: what is read and what is answered.

The shape of every message read (:mod:`~ramsli.server.protocol.schemas`: one Pydantic model per
WebSocket message and HTTP body), every refusal's text and the error answers, HTTP and WebSocket
(:mod:`~ramsli.server.protocol.messages`), the WebSocket close codes
(:mod:`~ramsli.server.protocol.closecodes`) and the language an answer is written in
(:mod:`~ramsli.server.protocol.lang`). No table, no database, no route here: every other package
of the server reads and answers through this one (``docs/protocol.md``).
"""
