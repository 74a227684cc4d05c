"""How a command runs a rating system (docs/architecture.md): the seam every command asks,
the registry of systems behind it, a rated period and its files, and the seam's two
implementations, FIDE Elo's (``elo/``) and every ``StateSystem``'s (``state/``). What a rating
system *is* stays in ``rating_batch.systems``, which imports nothing from here."""
