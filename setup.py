"""The package list, found rather than written by hand (everything else is in pyproject.toml).

Every package under ``pinochle_cli/`` is found; the two data folders at the top of the repository
are installed inside the package: ``rulesets/`` as ``pinochle_cli.rulesets``, ``docs/`` as
``pinochle_cli.docs.pages`` and its ``games/`` as ``pinochle_cli.docs.pages.games`` (each data folder named, so
setuptools installs it as a package rather than warning that it would be ignored).
"""

from setuptools import find_packages, setup

DATA_FOLDERS = {"pinochle_cli.rulesets": "rulesets", "pinochle_cli.docs.pages": "docs",
                "pinochle_cli.docs.pages.games": "docs/games"}

setup(packages=[*find_packages(include=["pinochle_cli", "pinochle_cli.*"]), *DATA_FOLDERS], package_dir=DATA_FOLDERS)
