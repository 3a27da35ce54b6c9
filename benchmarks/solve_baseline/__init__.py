"""The double-dummy solver as it was before issue 24, kept runnable so that ``bench_solve.py`` measures
the new solver against it in the same run. Not part of the package; do not edit (only the imports were
made absolute)."""
