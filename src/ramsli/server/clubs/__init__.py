"""Clubs: members, invite links, seasons and the season table (``docs/clubs.md``).

:mod:`~ramsli.server.clubs.clubs` decides what a club's owner and members may do;
:mod:`~ramsli.server.clubs.routes` serves its API and the club, account and ratings pages; the rows
are :mod:`ramsli.server.storage.directory`'s.
"""
