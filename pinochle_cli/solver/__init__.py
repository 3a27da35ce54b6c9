"""Double-dummy solving: ``solve`` (the solver) and ``position`` (what it is asked about), ``search`` (the
compiled search, with ``search_layout``, ``keys``, ``ordering`` and ``general`` compiled into it), ``batch`` (many
positions over worker processes), ``analyze`` (the post-mortem of a recorded deal) and ``reference`` (an
exhaustive minimax the search is checked against). Importing this package imports none of them.
"""
