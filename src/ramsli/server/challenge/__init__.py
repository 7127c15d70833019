"""The weekly challenge on the server (issue 35 item 3, docs/challenge.md): the service
(:mod:`ramsli.server.challenge.service`), its JSON routes (:mod:`ramsli.server.challenge.routes`)
and its page (:mod:`ramsli.server.challenge.pages`)."""
