"""Double-dummy solving: ``solve`` (positions and the solver), ``search`` (the compiled search) and
``analyze`` (the post-mortem of a recorded deal). Importing this package imports none of them.
"""
