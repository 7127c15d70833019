"""``python -m ramsli``: the same command line as ``ramsli`` (:func:`ramsli.cli.main`)."""

from ramsli.cli import main

if __name__ == "__main__":
    main()
