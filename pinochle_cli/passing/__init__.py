"""Pass advice: which cards the partner sends or the bidder returns, judged by the bid simulation.

``candidates`` lists every distinct pass, ``judge`` plays them on common sampled deals, ``race``
spends the deals on the candidates still in contention, ``explain`` says in words what each keeps
and gives. The entry point is ``race.advise``; in a game with a widow ``bury.advise_bury`` ranks the
bidder's buries the same way (``burywords`` the words).
"""
