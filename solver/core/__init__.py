"""The game itself, the ground every other layer stands on: the rules in plain Python, the
`Position` and its formats, one turn played on a position, game records, and the interface
of a seat at the table. Imports nothing of the rest of the package but `errors` and `limits`."""
