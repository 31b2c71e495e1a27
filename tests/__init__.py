"""The test suite (run it with `python -m pytest` from the repository root). Shared helpers:
tests/support.py; fixtures: tests/conftest.py; the reference solver and the position
generators: tests/reference_solver.py, tests/positions_gen.py."""
