"""Monte Carlo bid estimates: ``simulate.estimate`` samples deals, plays them out and tallies each bid.

The parts: ``simulate`` (the estimate), ``players`` (the batched heuristic players), ``compiled`` and
``compiled_cache`` (the same play compiled, and when it pays), ``interval`` (the Wilson interval) and
``double_dummy`` (the comparison with perfect play). Importing this package imports none of them.
"""
