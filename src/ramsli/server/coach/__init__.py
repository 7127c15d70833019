"""The coach in the browser: the "should I stay in?" hint, hand and session reviews, training.

:mod:`~ramsli.server.coach.hints` (the hint while a seat declares, R4.5, in player words),
:mod:`~ramsli.server.coach.review` (reviews of finished hands, R7: a seat's values only to the
person who sat there; the "in or out?" training) and :mod:`~ramsli.server.coach.routes` (their
HTTP routes and the training page). The valuations are :mod:`ramsli.coach`'s
and :mod:`ramsli.lab`'s; this package only serves them.
"""
