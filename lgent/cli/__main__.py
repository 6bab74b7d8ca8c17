"""``python -m lgent.cli`` runs the command line."""

from lgent.cli.app import console_main

console_main()
