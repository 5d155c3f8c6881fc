"""Renderers: one module per output format (text, json, html).

Each is fed values from the earlier stages (clause trees, checks, changes)
and dispatches on their kind; none of them changes law text.
"""
