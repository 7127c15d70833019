"""Commands of the ``ramsli`` CLI, one module each, each with ``register(app: typer.Typer)``."""
