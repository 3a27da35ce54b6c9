"""Monte Carlo bid estimates: ``simulate.estimate`` samples deals, plays them out and tallies each bid.

The parts: ``simulate`` (the estimate), ``checks`` (its arguments and constants), ``games`` (one chunk's games,
played by the computer player of ``player/``), ``results`` (the tallies as an answer), ``interval`` (the Wilson
interval), ``conditions`` and ``conditioned`` (``--given``), ``auction``, ``points``, ``seated`` and ``question``
(the auction's questions) and ``double_dummy`` (the comparison with perfect play). Importing this package
imports none of them.
"""
