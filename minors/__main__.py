"""`python -m minors` runs the command line."""

from .cli.main import main

main()
