"""FIDE Elo's implementation of the seam (docs/architecture.md): ``system`` (``EloSystem``),
``run`` (``rate``), ``publish`` (one list kind of a period) and ``database`` (its part in the
database's commands). FIDE Elo's rules and maths are ``rating_batch.systems.elo``."""
