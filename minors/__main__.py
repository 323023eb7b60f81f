"""`python -m minors` runs the command line."""

from .cli import main

main()
