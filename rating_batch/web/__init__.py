"""The officer's desk, ``rating-batch serve`` (docs/desk.md): a local web application over
the same library functions as the commands. ``app`` builds it, one module per group of
routes (``home``, ``events``, ``publish``, ``lists``, ``players``, ``backups``), ``security``
says who may use it, ``uploads`` keeps the files sent, ``pages`` renders the templates of
``templates/desk/``. Starlette is imported only here."""
