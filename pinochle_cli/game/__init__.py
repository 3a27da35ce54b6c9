"""The game itself: the rules of a trick defined once (``trick_rules``), compiled (``kernels``, whose machine
code ``machine_code`` keeps), asked about cards (``tricks``), and a deal played out or replayed (``deal``).
Importing this package imports none of them.
"""
