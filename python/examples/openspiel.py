"""Exact values for OpenSpiel's games by Ludus' engines, side by side with OpenSpiel's own exact algorithms.

    pip install ./python open-spiel cvxpy    # cvxpy: OpenSpiel's value iteration imports it
    python python/examples/openspiel.py [ludus|openspiel]   # both, or one of them (to measure its memory)
"""

import sys
import time

import pyspiel
from open_spiel.python.algorithms import minimax, value_iteration

import ludus.openspiel

which = sys.argv[1] if len(sys.argv) > 1 else "both"
tic_tac_toe = pyspiel.load_game("tic_tac_toe")
pig = pyspiel.load_game("pig", {"winscore": 8, "horizon": 4, "diceoutcomes": 3})

if which in ("both", "ludus"):
    started = time.perf_counter()
    solution = ludus.openspiel.solve(tic_tac_toe, key=str)
    spent = time.perf_counter() - started
    print(f"ludus     tic_tac_toe: {solution.value:+.1f}, actions {solution.action_values}, {spent:.3f} s, "
          f"{solution.analysis.stats['visited']} positions")
    started = time.perf_counter()
    solution = ludus.openspiel.solve(pig)
    print(f"ludus     pig(8, 4, d3): {solution.value:+.12f}, actions {solution.action_values}, "
          f"{time.perf_counter() - started:.3f} s")

if which in ("both", "openspiel"):
    started = time.perf_counter()
    values = value_iteration.value_iteration(tic_tac_toe, depth_limit=-1, threshold=1e-9)
    start = str(tic_tac_toe.new_initial_state())
    print(f"openspiel tic_tac_toe (value iteration): {values[start]:+.1f}, {time.perf_counter() - started:.3f} s, "
          f"{len(values)} states")
    started = time.perf_counter()
    value, _ = minimax.alpha_beta_search(tic_tac_toe)
    print(f"openspiel tic_tac_toe (alpha-beta): {value:+.1f}, {time.perf_counter() - started:.3f} s")
    started = time.perf_counter()
    value, _ = minimax.expectiminimax(pig.new_initial_state(), 1000, None, 0)
    print(f"openspiel pig(8, 4, d3) (expectiminimax): {value:+.12f}, {time.perf_counter() - started:.3f} s")
