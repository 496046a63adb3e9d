"""Games written in Python, solved by Ludus' engines: each family against an independent brute force written
here, or against the same game built into Ludus (Nim, Pig), and the errors of a game whose methods fail."""

import random
from functools import lru_cache

import pytest

import ludus


class Nim(ludus.Game):
    """Nim: take any number of counters from one heap; whoever cannot move loses (a position without moves)."""

    def __init__(self, heaps):
        self.heaps = tuple(heaps)

    def start(self):
        return self.heaps

    def moves(self, position):
        return [Take(heap, taken) for heap, size in enumerate(position) for taken in range(1, size + 1)]

    def play(self, position, move):
        heaps = list(position)
        heaps[move.heap] -= move.taken
        return tuple(heaps)

    def outcome(self, position):
        return None

    def key(self, position):
        return ",".join(map(str, position))


class Take:
    def __init__(self, heap, taken):
        self.heap, self.taken = heap, taken

    def __str__(self):
        return f"{self.heap + 1}:{self.taken}"


def test_a_win_loss_game_has_the_values_of_the_same_game_built_in():
    mine = Nim([3, 4, 5]).analyze()
    built_in = ludus.load_game("nim", heaps=[3, 4, 5]).analyze()
    assert (mine.value.kind, mine.value.remoteness) == (built_in.value.kind, built_in.value.remoteness) == ("win", mine.value.remoteness)
    assert {move.move for move in mine.best_moves} == {move.move for move in built_in.best_moves}
    assert [(move.move, move.value) for move in mine.moves] == [(move.move, move.value) for move in built_in.moves]
    memo = Nim([3, 4, 5]).analyze(engine="memo-negamax")
    assert memo.value == mine.value
    # Nim-sum zero: lost.
    assert Nim([1, 2, 3]).analyze().value.kind == "loss"


class Graph(ludus.Game):
    """A token moved along the edges of a directed graph with cycles; a node without edges is lost."""

    positions_repeat = True

    def __init__(self, edges, start):
        self.edges, self.first = edges, start

    def start(self):
        return self.first

    def moves(self, position):
        return list(self.edges[position])

    def play(self, position, move):
        return move

    def outcome(self, position):
        return None

    def key(self, position):
        return position


def retrograde(edges):
    """Every node's value, (kind, remoteness), by the retrograde equations iterated to their fixed point: a node
    without edges is lost at once; one with a lost child is won, in one more ply than its quickest lost child;
    one whose children are all won is lost, in one more than its slowest; any other is a draw."""
    values = {}
    while True:
        recomputed = {}
        for node, out in edges.items():
            children = [values.get(child) for child in out]
            losing = [value[1] for value in children if value and value[0] == "loss"]
            if not out:
                recomputed[node] = ("loss", 0)
            elif losing:
                recomputed[node] = ("win", min(losing) + 1)
            elif all(value and value[0] == "win" for value in children):
                recomputed[node] = ("loss", max(value[1] for value in children) + 1)
        if recomputed == values:
            return values
        values = recomputed


def test_a_game_whose_positions_repeat_is_solved_by_the_retrograde_engine():
    rng = random.Random(5)
    kinds = set()
    for _ in range(5):
        nodes = range(30)
        edges = {node: sorted(rng.sample(nodes, rng.choice([0, 1, 2, 2, 3]))) for node in nodes}
        expected = retrograde(edges)
        for start in range(0, 30, 3):
            value = Graph(edges, start).analyze().value
            assert (value.kind, value.remoteness) == expected.get(start, ("draw", None)), (edges, start)
            kinds.add(value.kind)
    assert kinds == {"win", "loss", "draw"}


class Coins(ludus.Game):
    """Coins in a row: take one from either end and score its value; taking an even coin moves again. The
    score is the mover's total minus the other's."""

    scored = True

    def __init__(self, coins):
        self.coins = tuple(coins)

    def start(self):
        return (0, len(self.coins), 0, 0)

    def moves(self, position):
        left, right, _, _ = position
        return ["left", "right"] if right - left > 1 else ["left"]

    def taken(self, position, move):
        left, right, _, _ = position
        return self.coins[left] if move == "left" else self.coins[right - 1]

    def play(self, position, move):
        left, right, mine, theirs = position
        coin = self.taken(position, move)
        left, right = (left + 1, right) if move == "left" else (left, right - 1)
        return (left, right, mine + coin, theirs) if coin % 2 == 0 else (left, right, theirs, mine + coin)

    def turn_passes(self, position, after):
        # The coin taken is the one at the end that moved; an odd one passes the turn.
        coin = self.coins[position[0]] if after[0] == position[0] + 1 else self.coins[position[1] - 1]
        return coin % 2 == 1

    def outcome(self, position):
        left, right, mine, theirs = position
        return mine - theirs if left == right else None

    def key(self, position):
        return repr(position)


def coins_brute_force(coins):
    @lru_cache(maxsize=None)
    def best(left, right):
        if left == right:
            return 0
        options = []
        for coin, rest in ((coins[left], (left + 1, right)), (coins[right - 1], (left, right - 1))):
            options.append(coin + (best(*rest) if coin % 2 == 0 else -best(*rest)))
            if right - left == 1:
                break
        return max(options)

    return best(0, len(coins))


def test_a_scored_game_with_extra_turns_has_the_brute_force_s_score():
    rng = random.Random(3)
    for _ in range(6):
        coins = [rng.randint(1, 9) for _ in range(rng.randint(1, 9))]
        assert Coins(coins).analyze().value.score == coins_brute_force(coins), coins
        alone = Coins(coins).analyze(value_only=True)
        assert (alone.value.score, alone.moves, alone.line, alone.value_only) == (coins_brute_force(coins), (), (), True)
    with pytest.raises(ValueError, match="max_line=5 bounds the line"):
        Coins([1, 2]).analyze(value_only=True, max_line=5)


class Pig(ludus.Game):
    """Pig, as Ludus' own `pig` plays it: roll a die until you hold or roll a 1; whoever's score and turn total
    reach the goal wins at once. A position is (mine, theirs, turn total, rolling), the mover's score first."""

    positions_repeat = True

    def __init__(self, goal):
        self.goal = goal

    def start(self):
        return (0, 0, 0, False)

    def chance_outcomes(self, position):
        return [(face, 1) for face in range(1, 7)] if position[3] else []

    def moves(self, position):
        return ["roll", "hold"] if position[2] > 0 else ["roll"]

    def play(self, position, move):
        mine, theirs, total, _ = position
        if move == "roll":
            return (mine, theirs, total, True)
        if move == "hold":
            return (theirs, mine + total, 0, False)
        return (theirs, mine, 0, False) if move == 1 else (mine, theirs, total + move, False)

    def turn_passes(self, position, after):
        return after[2] == 0 and not after[3]

    def outcome(self, position):
        mine, _, total, _ = position
        return 1 if mine + total >= self.goal else None

    def key(self, position):
        mine, theirs, total, rolling = position
        return ((mine * 256 + theirs) * 256 + total) * 2 + rolling


def test_a_game_of_chance_has_the_probability_of_the_same_game_built_in():
    mine = Pig(20).analyze()
    built_in = ludus.load_game("pig", goal=20).analyze()
    assert mine.value.kind == "chance"
    assert abs(mine.value.probability - built_in.value.probability) < 1e-9
    assert abs(mine.value.probability - 0.6155585498050428) < 1e-9


class Race(ludus.Game):
    """A race without repetition: roll a die (1 to 3) each turn, or step 1 for sure; first to the goal wins."""

    def __init__(self, goal):
        self.goal = goal

    def start(self):
        return (0, 0, False)

    def chance_outcomes(self, position):
        return [(step, 1) for step in (1, 2, 3)] if position[2] else []

    def moves(self, position):
        return ["roll", "step"]

    def play(self, position, move):
        mine, theirs, _ = position
        if move == "roll":
            return (mine, theirs, True)
        step = 1 if move == "step" else move
        return (theirs, mine + step, False)

    def outcome(self, position):
        return -1 if position[1] >= self.goal else None

    def turn_passes(self, position, after):
        return not after[2]

    def key(self, position):
        return repr(position)


def race_brute_force(goal):
    @lru_cache(maxsize=None)
    def win(mine, theirs):
        if theirs >= goal:
            return 0.0
        step = 1.0 - win(theirs, mine + 1)
        roll = sum(1.0 - win(theirs, mine + face) for face in (1, 2, 3)) / 3
        return max(step, roll)

    return win(0, 0)


def test_a_game_of_chance_without_repetition_is_solved_by_expectimax():
    for goal in (3, 6, 9):
        value = Race(goal).analyze().value
        assert abs(value.probability - race_brute_force(goal)) < 1e-9, goal


class Broken(Nim):
    def moves(self, position):
        if sum(position) < 4:
            raise ZeroDivisionError("a bug in moves()")
        return super().moves(position)


class BadKey(Nim):
    def key(self, position):
        return 1.5


def test_an_exception_of_the_game_is_raised_once_the_search_stops():
    with pytest.raises(ZeroDivisionError, match="a bug in moves"):
        Broken([3, 4]).analyze()
    with pytest.raises(TypeError, match="key\\(\\) gives an int, bytes or a str"):
        BadKey([2]).analyze()
    with pytest.raises(NotImplementedError, match="defines no start"):
        ludus.Game().analyze()
