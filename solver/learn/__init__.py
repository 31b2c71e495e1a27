"""The learned evaluation: features of a seat's view, a small network and its training.

- `features`: a seat's view as arrays (`RawViews`) and their encoding (numpy, batched).
- `model`: the network at play time, in numpy (`PolicyNet`, `load_default`): no deep-learning
  framework is needed to play.
- `data`: training games played by the project's own bots, saved in chunks (resumable).
- `train`: the training (PyTorch, the optional `[train]` extra) and the export of weights.

`python -m solver.learn` runs the generation and the training; docs/search-player.md
("A learned policy") describes the data, the model and the measured strength.
"""
