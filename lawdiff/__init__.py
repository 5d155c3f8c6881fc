"""lawdiff: compare editions of the Dutch Laws of Duplicate Bridge.

The pipeline is the package layout: ``sources`` (one reader per input format)
-> ``model`` (the clause tree) -> ``corpus`` (folders of files, checks)
-> ``align`` -> ``diff`` -> ``report`` -> ``cli``.  Each stage imports only
the stages before it; ``errors`` is shared by all.
"""

__version__ = "0.1.0"
