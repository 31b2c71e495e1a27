"""The exact solver of 2-player positions with both hands visible (the 24-card game):
`solve`, the `Engine` that owns the search's table, and the `Solution` it answers."""
from .engine import Engine, solve
from .solution import Line, SearchStats, Solution

__all__ = ["Engine", "Line", "SearchStats", "Solution", "solve"]
