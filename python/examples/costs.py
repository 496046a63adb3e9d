"""What a game written in Python costs to solve: the crossing into Python of each call, and a loopy game
through the retrograde engine (BENCHMARKS.md, "Python").

    python python/examples/costs.py
"""

import random
import time

import ludus


class Pile(ludus.Game):
    """Take 1, 2 or 3 counters; whoever cannot move loses."""

    def __init__(self, counters):
        self.counters = counters

    def start(self):
        return self.counters

    def moves(self, pile):
        return [1, 2, 3][:pile]

    def play(self, pile, taken):
        return pile - taken

    def outcome(self, pile):
        return None

    def key(self, pile):
        return pile


class Graph(ludus.Game):
    """A token moved along the edges of a directed graph; a node without edges is lost."""

    positions_repeat = True

    def __init__(self, edges, start):
        self.edges, self.first = edges, start

    def start(self):
        return self.first

    def moves(self, node):
        return self.edges[node]

    def play(self, node, to):
        return to

    def outcome(self, node):
        return None

    def key(self, node):
        return node


def best_of(runs, work):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return min(times), result


class CountedPile(Pile):
    """The same game, counting the calls the engines make."""

    calls = 0

    def moves(self, pile):
        CountedPile.calls += 1
        return super().moves(pile)

    def play(self, pile, taken):
        CountedPile.calls += 1
        return super().play(pile, taken)

    def outcome(self, pile):
        CountedPile.calls += 1
        return None

    def key(self, pile):
        CountedPile.calls += 1
        return pile


counters = 200_000
CountedPile(counters).analyze(engine="memo-negamax")
engine_calls = CountedPile.calls
spent, analysis = best_of(3, lambda: Pile(counters).analyze(engine="memo-negamax"))
# The methods' own time: the same kinds of calls made from a Python loop, per call.
pile = Pile(counters)
started = time.perf_counter()
loop_calls = 0
for left in range(counters, 0, -1):
    pile.outcome(left)
    loop_calls += 2
    for taken in pile.moves(left):
        pile.key(pile.play(left, taken))
        loop_calls += 2
own = (time.perf_counter() - started) / loop_calls * engine_calls
visited = analysis.stats["visited"]
print(f"pile of {counters}: {analysis.value}; {visited} positions, {engine_calls} calls "
      f"({engine_calls / visited:.1f} a position); {spent:.3f} s through the engines, of which the methods' own "
      f"{own:.3f} s: the crossing {(spent - own) / engine_calls * 1e6:.2f} us a call")

rng = random.Random(1)
nodes = 100_000
edges = [[rng.randrange(nodes) for _ in range(rng.choice([0, 1, 2, 3, 3]))] for _ in range(nodes)]
start = next(node for node in range(nodes) if len(edges[node]) == 3 and all(edges[child] for child in edges[node]))
spent, analysis = best_of(3, lambda: Graph(edges, start).analyze(max_line=5))
visited = analysis.stats["visited"]
print(f"graph of {nodes} nodes (retrograde): {analysis.value}; {visited} positions, {spent:.3f} s, "
      f"{spent / visited * 1e6:.1f} us a position")
