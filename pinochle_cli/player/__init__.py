"""The computer player: one heuristic that plays cards, passes, returns and buries, compiled.

The estimator plays its sampled deals with it, ``pass`` judges passes with it, and a practice game
gives it the other seats: ``tables`` (a ruleset as the arrays it reads), ``play`` (the card play:
whole batches of deals, a deal's first tricks, one seat's card) and ``exchange`` (the partner's
pass, the bidder's return, the bidder's bury). Importing this package imports none of them.
"""
