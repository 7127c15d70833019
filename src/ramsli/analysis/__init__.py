"""Analysis of play: measurements made with the engine and the bots, beside the strategy lab.

- :mod:`ramsli.analysis.tournament` — duplicate tournaments between bots with
  confidence intervals, the work behind ``ramsli tournament``.
- :mod:`ramsli.analysis.cluster` — where the chunks of a long run are played:
  in this process, in local worker processes, or as tasks on a Dask cluster
  (``--scheduler``), for the tournaments and the lab alike.

Like the lab and the research adapters this layer stands on the bots and the
engine and is used by the front ends, never the other way round (README,
"Dependencies point one way"). Unlike the lab it needs no optional extra (Dask
only for ``--scheduler``).
"""
