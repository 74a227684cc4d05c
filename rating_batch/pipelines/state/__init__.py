"""The pipeline every rating system whose players carry a state shares (Glicko, Glicko-2,
TrueSkill, Harkness, Ingo and the national systems): ``system`` (``StatePipeline``: a
``StateSystem`` as a ``RatingSystem``), ``rate``, the database's commands (``database.py``),
``publish`` (``publish.py``) and the states kept (``states.py``). A player's report model is
``rating_batch.systems.explain``."""
