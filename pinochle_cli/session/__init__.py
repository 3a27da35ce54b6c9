"""A deal played at the keyboard, from the deal to the score: practice against the computer, or follow a real table.

``session.Session`` carries a match one deal at a time (``settings``: its settings, names and deals), takes one
command a line (``commands``), answers with events (``events``), keeps what is needed to continue after an
interruption (``journal``), advises at a decision (``advice``), writes each finished deal to a record
(``recording``) and judges the user's own decisions once the deal is over (``postmortem``). Nothing here prints,
exits or names a command-line flag. Importing this package imports none of them (numpy and numba load with the
session).
"""
