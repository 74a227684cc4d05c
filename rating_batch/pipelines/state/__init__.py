"""The pipeline every rating system whose players carry a state shares (Glicko, Glicko-2,
TrueSkill, Harkness, Ingo and the national systems): ``rate`` (``rate.py``), the database's
commands (``database.py``), ``publish`` (``publish.py``), the states kept (``states.py``) and
a player's explanation (``explain.py``)."""
