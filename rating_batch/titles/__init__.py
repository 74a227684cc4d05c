"""FIDE title norms and title applications (Handbook B.01 by edition, docs/norms.md), beside
the rating systems and as pure as they are: ``rules`` (the editions as data), ``event`` (what
an event gives the checks), ``check`` (a norm's arithmetic over many game sets at once),
``search`` (the largest set that qualifies), ``certificate`` (the IT1 model) and
``application`` (an IT2's arithmetic)."""
