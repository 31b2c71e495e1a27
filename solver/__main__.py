"""`python -m solver` is the `nimmt` command."""
from .cli import main

main(prog_name="nimmt")
