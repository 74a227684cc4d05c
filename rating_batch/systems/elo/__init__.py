"""FIDE Elo: its rules and editions (``rules``, a federation's rules file in ``rules_file``),
one period's maths (``engine``), and its report models: the individual calculations
(``calculations``), the event pages (``pages``), a player's report (``explain``) and the
reasons for Ro and K (``reasons``).

Nothing is imported here, so that reading the rules (the command line's help does) does not
load numpy and pandas."""
