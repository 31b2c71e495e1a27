"""The equilibrium strategy graph of a solved position, for Gephi (.graphml) or Graphviz (.dot).

Nodes are the positions reached with positive probability when both players follow their
equilibrium strategies, from the root down to `depth` turns; a position reached by different
orders of play (a transposition) is one node. Node id: the position's text notation.

Node attributes: `notation`, `value` (player 1's side, from this node to the end of the round),
`cards` (cards per hand), `turn` (0 at the root), `reach` (probability of reaching it),
`penalties` ("P1 P2" so far) with `penalty1`/`penalty2`, `strategy1`/`strategy2` (e.g.
"19:0.412 22:0.588"), `label`.
Edge attributes: `card1`, `card2` (the joint play), `probability` (x_i * y_j), `row_player`
(1 or 2, 0 if no card was too low), `row` (the row taken by choice, -1 if none),
`penalty1`, `penalty2` (this turn's bullheads), `label`.
"""
import os
from typing import Dict, List

import networkx as nx

from ..errors import SHORT_PATH, NimmtError, quote
from ..files import FileKind, write_atomically
from .engine import play_cards
from .solution import Solution

GRAPH_FORMATS = (".graphml", ".dot")
DOT_HEADER = "digraph equilibrium {"
GRAPH_FILE = FileKind(                      # what write_graph writes, in either format
    "a graph of 'nimmt solve --graph'",
    lambda head: head.startswith(DOT_HEADER.encode())
    or (b"<graphml" in head and b'attr.name="notation"' in head))


def strategy_graph(engine, solution: Solution, depth: int = 2) -> nx.DiGraph:
    """Equilibrium strategy graph of `solution` to `depth` turns (all attributes str/int/float).

    `engine` is the `Engine` that solved it (its table makes the children cheap to solve)."""
    graph = nx.DiGraph(root=solution.position.to_text(), depth=depth)
    root = add_node(graph, solution, turn=0, reach=1.0)
    level: Dict[str, Solution] = {root: solution}
    for turn in range(1, depth + 1):
        following: Dict[str, Solution] = {}
        for node in sorted(level):
            for child, child_solution in expand(graph, engine, node, level[node], turn):
                following.setdefault(child, child_solution)
        level = following
    return graph


def expand(graph: nx.DiGraph, engine, node: str, solution: Solution, turn: int):
    """Add the children of `node` under both equilibrium strategies; yield the new ones."""
    position = solution.position
    x, y = solution.strategies
    for a in sorted(x):
        for b in sorted(y):
            choice = engine.best_row_choice(position, (a, b))
            outcome = play_cards(position, (a, b), None if choice is None else choice[1])
            child_position, penalties = outcome.position, outcome.penalties
            child = child_position.to_text()
            probability = x[a] * y[b]
            reach = graph.nodes[node]["reach"] * probability
            if child in graph:
                graph.nodes[child]["reach"] += reach
            else:
                child_solution = engine.solve(child_position, card_values=False)
                add_node(graph, child_solution, turn, reach)
                yield child, child_solution
            graph.add_edge(node, child, **edge_attributes(a, b, probability, choice, penalties))


def add_node(graph: nx.DiGraph, solution: Solution, turn: int, reach: float) -> str:
    position = solution.position
    node = position.to_text()
    strategies = [" ".join(f"{c}:{p:.3f}" for c, p in sorted(s.items()))
                  for s in solution.strategies]
    graph.add_node(node, notation=node, value=float(solution.value), cards=position.hand_size,
                   turn=turn, reach=reach,
                   penalties=" ".join(str(p) for p in position.penalties),
                   penalty1=position.penalties[0], penalty2=position.penalties[1],
                   strategy1=strategies[0], strategy2=strategies[1],
                   label=f"{solution.value:.4g}")
    return node


def edge_attributes(a: int, b: int, probability: float, choice, penalties) -> dict:
    row_player, row = (0, -1) if choice is None else (choice[0] + 1, choice[1])
    label = f"{a}/{b} p={probability:.3f}"
    if row_player:
        label += f" P{row_player} takes row {row}"
    return dict(card1=a, card2=b, probability=float(probability), row_player=row_player,
                row=row, penalty1=penalties[0], penalty2=penalties[1], label=label)


# writing ----------------------------------------------------------------------------------
def check_graph_path(path: str) -> str:
    """The format of `path` from its extension; refuses anything but .graphml and .dot."""
    extension = os.path.splitext(path)[1].lower()
    if extension not in GRAPH_FORMATS:
        raise NimmtError(f"graph file must end with .graphml or .dot, got {quote(path, SHORT_PATH)}")
    return extension


def write_graph(graph: nx.DiGraph, path: str) -> None:
    """Write `graph` to `path` (.graphml or .dot) atomically: a temporary file, then rename."""
    extension = check_graph_path(path)

    def write(temporary: str) -> None:
        if extension == ".graphml":
            nx.write_graphml(graph, temporary)
        else:
            with open(temporary, "w", encoding="utf-8") as out:
                out.write(to_dot(graph))

    write_atomically(path, write, suffix=extension)


def to_dot(graph: nx.DiGraph) -> str:
    """Graphviz DOT text of a directed graph, every attribute kept."""
    lines: List[str] = [DOT_HEADER, "  rankdir=TB;", "  node [shape=box];"]
    lines += [f"  {dot_quote(node)} [{dot_attributes(data)}];"
              for node, data in graph.nodes(data=True)]
    lines += [f"  {dot_quote(u)} -> {dot_quote(v)} [{dot_attributes(data)}];"
              for u, v, data in graph.edges(data=True)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def dot_attributes(data: dict) -> str:
    return ", ".join(f"{key}={dot_quote(value)}" for key, value in data.items())


def dot_quote(value) -> str:
    if isinstance(value, float):
        value = repr(value)
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'
