"""Games at a table: the round and game runners, the bots (and the registry that builds them
from a spec such as `mcts:iterations=2000`), and tournaments with seats rotated."""
