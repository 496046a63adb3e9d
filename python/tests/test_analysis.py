"""Analyses: the same report as `ludus analyze --format json`, typed, for every family; budgets as keyword
arguments; the GIL released during a search, and Ctrl-C that stops one."""

import json
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import ludus
from conftest import REPOSITORY

# One position of each family: (spec, position text or None).
FAMILIES = [
    ("tic-tac-toe", "15"),
    ("connect-four:width=5,height=4", "3"),
    ("dodgem:n=3", None),
    ("octal:code=0.77,play=normal", "20"),
    ("octal:code=0.07,play=misere", "9,4"),
    ("kalah:pits=3,seeds=3", None),
    ("othello:size=4,empties=winner", None),
    ("pig:goal=20", None),
    ("hog:goal=30,dice=5", None),
]


@pytest.mark.parametrize("spec,position", FAMILIES)
def test_an_analysis_is_the_command_line_s_report(cli, spec, position):
    arguments = ["analyze", spec] + ([position] if position else []) + ["--format", "json"]
    expected = json.loads(cli(*arguments))
    analysis = ludus.load_game(spec).analyze(position)
    assert analysis.raw == expected
    assert analysis.value.kind == expected["value"]
    assert [move.move for move in analysis.moves] == [move["move"] for move in expected["moves"]]
    assert list(analysis.line) == expected["line"]


def test_values_are_typed_by_family():
    # Tic-tac-toe is a draw (every reference; the CLI's tests check it against plain negamax).
    assert ludus.load_game("tic-tac-toe").analyze().value.kind == "draw"
    # Kalah(3, 3): the first player wins by 2 seeds (games/tests/kalah.rs checks it against a brute force).
    kalah = ludus.load_game("kalah", pits=3, seeds=3).analyze()
    assert (kalah.value.kind, kalah.value.score) == ("win", 2)
    # Kayles of 20 pins has nimber 1 (Guy and Smith's period-12 table: 1 at 20).
    kayles = ludus.load_game("octal", code="0.77", play="normal").analyze("20")
    assert (kayles.value.kind, kayles.value.nimber) == ("win", 1)
    # Pig to 20: the first player wins with probability 0.6155585498 (value iteration to 1e-12).
    pig = ludus.load_game("pig", goal=20).analyze()
    assert pig.value.kind == "chance" and abs(pig.value.probability - 0.6155585498050428) < 1e-9
    assert pig.convergence["converged"]
    # Dodgem 3 x 3 is a first-player win (Berlekamp, Conway and Guy), by the retrograde engine.
    dodgem = ludus.load_game("dodgem", n=3).analyze()
    assert dodgem.value.kind == "win" and dodgem.value.remoteness is not None


def test_engines_agree():
    game = ludus.load_game("connect-four", width=4, height=4)
    values = {engine: game.analyze("2233", engine=engine).value for engine in ("alpha-beta", "memo-negamax")}
    assert values["alpha-beta"] == values["memo-negamax"]


def test_budgets_are_keyword_arguments():
    game = ludus.load_game("connect-four", width=6, height=5)
    with pytest.raises(ludus.BudgetExceeded, match="max_positions="):
        game.analyze(max_positions=1000)
    with pytest.raises(ludus.LimitExceeded, match="lower table_mb="):
        game.analyze(table_mb=200, memory_mb=100)
    for wrong in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="table_mb is a whole number"):
            game.analyze(table_mb=wrong)


def test_threads_a_book_and_an_endgame_database_are_keyword_arguments(cli, tmp_path):
    spec = "kalah:pits=3,seeds=3"
    game = ludus.load_game(spec)
    alone = game.analyze()
    # Two threads: the same values and line (the positions searched differ).
    both = game.analyze(threads=2)
    same = ("score", "moves", "line")
    assert [both.raw[key] for key in same] == [alone.raw[key] for key in same]
    # An endgame database the command line solved: the command line's report, with fewer positions searched.
    directory = tmp_path / "endgame"
    cli("db", "solve", spec, "--up-to", "10", "--db", str(directory))
    probed = game.analyze(endgame=directory)
    assert probed.raw == json.loads(cli("analyze", spec, "--endgame", str(directory), "--format", "json"))
    assert probed.raw["score"] == alone.raw["score"]
    assert probed.raw["stats"]["visited"] < alone.raw["stats"]["visited"]
    with pytest.raises(ludus.DatabaseError):
        game.analyze(endgame=tmp_path / "nothing here")
    # The standard Connect Four book: the start and its moves are read from it.
    book = REPOSITORY / "books" / "connect-four_width=7_height=6.book"
    booked = ludus.load_game("connect-four:width=7,height=6").analyze(book=book, max_line=3)
    assert booked.raw == json.loads(
        cli("analyze", "connect-four:width=7,height=6", "--book", str(book), "--line", "3", "--format", "json")
    )
    assert booked.raw["book_values"] >= 8 and booked.raw["value"] == "win" and booked.raw["line_from_book"]
    for wrong in (-1, 1.5, True):
        with pytest.raises(ValueError):
            game.analyze(threads=wrong)
        with pytest.raises(ValueError):
            game.analyze(guess_positions=wrong)


def test_the_first_guess_s_budget_is_the_command_line_s(cli):
    # Othello 6 x 6 after 12 plies: a scored search long enough for the guess to matter.
    spec, line = "othello:size=6", "b3 b4 a5 c2 b1 e2 c5 b5 e5 a3 b2 e4"
    game = ludus.load_game(spec)
    assert ludus.GUESS_POSITIONS == 65536
    default = game.analyze(line)
    for guess in (0, 1000000):
        guessed = game.analyze(line, guess_positions=guess)
        assert guessed.raw == json.loads(
            cli("analyze", spec, line, "--guess-positions", str(guess), "--format", "json")
        )
        # The positions searched differ, never the values.
        assert [guessed.raw[key] for key in ("score", "moves", "line")] == [
            default.raw[key] for key in ("score", "moves", "line")
        ]
        assert guessed.raw["stats"]["visited"] != default.raw["stats"]["visited"]


def test_the_value_alone_is_the_command_line_s(cli):
    # Kalah(4, 3): +6 for the first player (BENCHMARKS.md's table, checked against a brute force).
    game = ludus.load_game("kalah:pits=4,seeds=3")
    alone = game.analyze(value_only=True)
    command = ("analyze", "kalah:pits=4,seeds=3", "--value-only", "--no-book", "--no-endgame", "--format", "json")
    assert alone.raw == json.loads(cli(*command))
    assert (alone.value.score, alone.moves, alone.line, alone.value_only) == (6, (), (), True)
    whole = game.analyze()
    assert whole.value == alone.value and whole.moves and not whole.value_only and "value_only" not in whole.raw
    # As --line conflicts with --value-only: a bound on a line that is not followed is refused, not ignored.
    with pytest.raises(ValueError, match="max_line=3 bounds the line, which value_only does not follow"):
        game.analyze(value_only=True, max_line=3)
    assert len(game.analyze(max_line=3).line) == 3


def test_a_search_releases_the_gil():
    game = ludus.load_game("connect-four", width=6, height=4)
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    started = time.monotonic()
    game.analyze()
    spent = time.monotonic() - started
    done.set()
    counter.join()
    during = [tick for tick in ticks if started < tick < started + spent]
    # The counter ran while the search did: at least a tick for every 20 ms of it.
    assert spent > 0.05 and len(during) >= spent / 0.02, (spent, len(during))


def test_ctrl_c_stops_a_search_within_a_second():
    script = textwrap.dedent(
        """
        import sys, time, ludus
        game = ludus.load_game("connect-four")
        print("searching", flush=True)
        started = time.monotonic()
        try:
            game.analyze()
        except KeyboardInterrupt:
            print(f"stopped {time.monotonic() - started:.3f}", flush=True)
            sys.exit(0)
        print("finished", flush=True)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "searching"
    time.sleep(1.5)
    interrupted = time.monotonic()
    child.send_signal(signal.SIGINT)
    output, _ = child.communicate(timeout=30)
    stopped_after = time.monotonic() - interrupted
    assert child.returncode == 0 and output.startswith("stopped"), output
    assert stopped_after < 1.0, stopped_after
