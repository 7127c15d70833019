"""The strategy lab: a fast batch kernel, self-play, odds and the seeds' tips in numbers.

- :mod:`ramsli.lab.kernel` — Numba kernel that deals, plays and settles whole
  batches of hands (R4, R5) with a fixed policy, in exact agreement with the
  reference engine; its ``TIPS`` policy is the tips player of the bots,
  :class:`ramsli.bots.tips.TipsBot` with ``tracking=False``.
- :mod:`ramsli.lab.reference` — drives the reference engine over the same
  seeded inputs as the kernel (for the agreement tests).
- :mod:`ramsli.lab.simulate`, :mod:`ramsli.lab.odds`, :mod:`ramsli.lab.tips` —
  the work behind ``ramsli simulate``, ``ramsli odds`` and ``ramsli tips``.
- :mod:`ramsli.lab.solve` (with :mod:`ramsli.lab.solve_kernel`, :mod:`ramsli.lab.solve_report`) and
  :mod:`ramsli.lab.equilibrium` — ``ramsli solve``: a declaration equilibrium, its exploitability, the
  policy files and the ``equilibrium`` bot (docs/solve.md).
"""
