"""Ludus from Python, end to end: the games, a position's analysis, a game of chance, a contest plugin, a
database read in a batch, a budget.

    pip install ./python        # from the repository's root
    python python/examples/analyze.py
"""

import pathlib
import tempfile

import ludus

SAMPLES = pathlib.Path(__file__).resolve().parents[2] / "samples"

# Every built-in game, with its family and its parameters.
for info in ludus.games():
    parameters = ", ".join(f"{parameter.name}={parameter.default}" for parameter in info.parameters)
    print(f"{info.name:18} {info.family:10} {info.engine:18} {parameters}")

# Connect Four 5 x 4: the position after the first player's centre move, every move's value.
game = ludus.load_game("connect-four", width=5, height=4)
position = game.start().play("3")
print(position)
analysis = game.analyze(position)
print("value:", analysis.value, "| best:", [move.move for move in analysis.best_moves])
for move in analysis.moves:
    print(f"  {move.move}: {move.value}")

# Kalah: a sowing that ends in the store leaves the same player to move.
kalah = ludus.load_game("kalah", pits=3, seeds=3)
print("Kalah(3, 3):", kalah.analyze().value, "| after 1, player", kalah.start().play("1").player(), "moves again")

# Pig to 20: the probability that the first player wins, and the outcomes of a roll.
pig = ludus.load_game("pig", goal=20)
print("Pig to 20:", pig.analyze().value, "| a roll:", pig.start().play("roll").outcomes()[:2], "...")

# A contest plugin on its official sample (answers 0 0 7 2 0).
sample = (SAMPLES / "bacterial-tactics" / "sample.in").read_text()
print("bacterial-tactics:", [answer.text for answer in ludus.solve("bacterial-tactics", sample)])

# A database: solved with each tier reported, then read in a batch by key (numpy in, numpy out).
with tempfile.TemporaryDirectory() as directory:
    tiers = []
    database = ludus.solve_database("connect-four:width=4,height=4", directory, progress=tiers.append)
    print(f"solved {sum(tier['positions'] for tier in tiers)} positions in {len(tiers)} tiers")
    start = database.game.start()
    keys = [start.play(move).key() for move in start.moves()]
    values = database.values(keys)
    print("after each first move:", list(zip(start.moves(), values.outcome.tolist(), values.detail.tolist())))

# A budget is a keyword argument; past it, an exception that names it.
try:
    ludus.load_game("connect-four").analyze(max_positions=100_000)
except ludus.BudgetExceeded as error:
    print("budget:", error)
