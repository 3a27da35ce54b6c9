"""The score page: a small web application over one record file, for every phone at the table.

The record file stays the one source of truth: the page reads it on every request, and every
change goes through the records library's atomic, locked writes (``append_deal``, ``undo_deal``,
``redo_deal``), so the page and ``record add`` in a terminal lose nothing side by side.

The parts: ``form`` (a deal's fields as the prompted ``record add`` asks them, and the answers
checked), ``snapshot`` (the record as the page shows it, and its version), ``chart_svg`` (the
running totals drawn), ``pages`` (the HTML), ``security`` (PIN, cookies, form tokens, limits),
``app`` (the routes; needs the ``serve`` extra: Flask) and ``server`` (waitress, the address, the QR
code). Importing the package loads none of them.
"""
