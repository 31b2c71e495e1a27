"""`python -m solver` is the `nimmt` command."""
from .launch import main

main()
