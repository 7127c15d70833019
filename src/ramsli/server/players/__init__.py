"""Players of the server: accounts and logins, session records and ratings.

:mod:`~ramsli.server.players.accounts` (a name that lasts, an argon2id password, logins, CSRF, a
player's own data), :mod:`~ramsli.server.players.records` (a finished session summed up, no card:
R7, D-16), :mod:`~ramsli.server.players.ratings` (OpenSkill ratings from final standings, R3.7)
and :mod:`~ramsli.server.players.routes` (the HTTP routes of players and logins).
"""
