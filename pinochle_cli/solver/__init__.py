"""Double-dummy solving: ``solve`` (positions and the solver), ``search`` (the compiled search), ``batch``
(many positions over worker processes), ``analyze`` (the post-mortem of a recorded deal) and ``reference`` (an
exhaustive minimax the search is checked against). Importing this package imports none of them.
"""
