"""A play hint from one seat's view: the worlds consistent with what it knows, each solved double-dummy.

``facts`` checks the view, ``inference`` derives what the duties revealed, ``worlds`` draws the
other hands, ``solving`` solves positions, ``weigh`` scores each legal card by the deal's objective,
``advice`` puts them together (``hint``). How and why: docs/hint.md.
"""
