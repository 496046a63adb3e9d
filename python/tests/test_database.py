"""Databases from Python: a solve with its progress, queries and summaries equal to `ludus db`'s, values read by
key in numpy batches equal to the queries' values, and the errors of a game without a database, of a directory
without one, and of a progress callback that raises; an endgame database solved from Python, byte for byte the
command line's, probed by its family's analyses."""

import json
import random

import numpy
import pytest

import ludus


def test_a_solve_reports_every_tier_and_reads_back_as_the_command_line_does(cli, tmp_path):
    reports = []
    database = ludus.solve_database("tic-tac-toe", tmp_path / "ttt", progress=reports.append)
    # Tic-tac-toe has 765 positions up to symmetry, in ten tiers (0 to 9 marks on the board).
    assert sorted(int(report["tier"]) for report in reports) == list(range(10))
    assert sum(report["positions"] for report in reports) == 765
    assert database.kind == "tiered"
    directory = str(tmp_path / "ttt")
    for position in (None, "15", "1592"):
        arguments = ["db", "query", "tic-tac-toe"] + ([position] if position else []) + ["--db", directory]
        expected = json.loads(cli(*arguments, "--format", "json"))
        assert database.query(position).raw == expected
    summary = json.loads(cli("db", "analyze", "tic-tac-toe", "--db", directory, "--format", "json"))
    assert database.summary() == summary
    assert database.check()["problems"] == []
    assert database.check(memory_mb=1)["problems"] == []  # its tiers fit one MiB
    with pytest.raises(ValueError, match="memory_mb"):
        database.check(memory_mb=0)
    # A second solve finds every tier on disk.
    again = []
    ludus.solve_database("tic-tac-toe", tmp_path / "ttt", progress=again.append)
    assert all(report["resumed"] for report in again) and len(again) == 10


def test_values_by_key_are_the_queries_values(tmp_path):
    database = ludus.solve_database("connect-four:width=4,height=4", tmp_path / "c4")
    game = database.game
    rng = random.Random(7)
    positions = []
    for _ in range(40):
        position = game.start()
        while not position.is_over():
            positions.append(position)
            position = position.play(rng.choice(position.moves()))
    keys = numpy.array([position.key() for position in positions], dtype=numpy.uint64)
    values = database.values(keys)
    assert values.outcome.dtype == numpy.int8 and values.detail.dtype == numpy.int32
    for position, outcome, detail in zip(positions, values.outcome, values.detail):
        value = database.query(position, max_line=1).value
        assert (int(outcome), int(detail)) == (
            {"win": 1, "draw": 0, "loss": -1}[value.kind],
            -1 if value.kind == "draw" else value.remoteness,
        )
    # Python ints, a key past 64 bits, and a key of no position: -2.
    listed = database.values([int(key) for key in keys[:5]] + [2**100])
    assert list(listed.outcome[:5]) == list(values.outcome[:5]) and listed.outcome[5] == -2


def test_a_scored_database_gives_scores_by_key(tmp_path):
    database = ludus.solve_database("kalah:pits=3,seeds=2", tmp_path / "kalah")
    assert database.kind == "whole-game"
    start = database.game.start()
    positions = [start] + [start.play(move) for move in start.moves()]
    values = database.values([position.key() for position in positions])
    for position, outcome, detail in zip(positions, values.outcome, values.detail):
        score = database.game.analyze(position).value.score
        assert (int(detail), int(outcome)) == (score, (score > 0) - (score < 0))


def test_database_errors(tmp_path):
    with pytest.raises(ludus.UnsupportedOperation, match="a database"):
        ludus.Database(tmp_path, "pig")
    with pytest.raises(ludus.NotSolved, match="solve it with ludus.solve_database"):
        ludus.Database(tmp_path / "none", "tic-tac-toe").query()

    def failing(report):
        raise RuntimeError("the callback failed")

    with pytest.raises(RuntimeError, match="the callback failed"):
        ludus.solve_database("tic-tac-toe", tmp_path / "ttt", progress=failing)
    with pytest.raises(ludus.BudgetExceeded, match="memory_mb="):
        ludus.solve_database("connect-four:width=5,height=4", tmp_path / "small", memory_mb=1)


def test_ctrl_c_stops_a_solve_after_its_tier_and_a_second_solve_resumes(tmp_path):
    import signal
    import subprocess
    import sys
    import textwrap

    directory = tmp_path / "c4"
    script = textwrap.dedent(
        f"""
        import ludus
        def report(tier):
            print("tier", tier["tier"], flush=True)
        try:
            ludus.solve_database("connect-four:width=5,height=4", {str(directory)!r}, threads=1, progress=report)
        except KeyboardInterrupt:
            print("stopped", flush=True)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    first = child.stdout.readline()
    assert first.startswith("tier"), first
    child.send_signal(signal.SIGINT)
    output, _ = child.communicate(timeout=60)
    lines = [first.strip()] + output.split("\n")
    assert "stopped" in lines, lines
    written = [line for line in lines if line.startswith("tier")]
    # Connect Four 5 x 4 has 21 tiers: the solve ended after a few, and a second one finds them on disk.
    assert len(written) < 21, written
    reports = []
    database = ludus.solve_database("connect-four:width=5,height=4", directory, progress=reports.append)
    assert sum(report["resumed"] for report in reports) == len(written) and len(reports) == 21
    assert database.query().value.kind == "draw"


def test_an_endgame_database_solved_from_python_is_the_command_line_s_and_serves_its_family(cli, tmp_path):
    game = ludus.load_game("kalah:pits=3,seeds=2")
    reports = []
    game.solve_endgame(tmp_path / "python", 10, progress=reports.append)
    # Tiers 0 to 10 of 6 pits: C(n + 5, 5) positions with n seeds in them (1, 6, 21, ..., 3003).
    assert [int(report["tier"]) for report in reports] == list(range(11))
    assert [report["positions"] for report in reports][:4] == [1, 6, 21, 56]
    assert sum(report["positions"] for report in reports) == 8008
    cli("db", "solve", "kalah:pits=3,seeds=2", "--up-to", "10", "--db", str(tmp_path / "cli"))
    for tier in range(11):
        name = f"endgame-{tier:03}.ludb"
        assert (tmp_path / "python" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    # Probed by the analysis of another game of its family, to the searched values.
    other = ludus.load_game("kalah:pits=3,seeds=1")
    probed, searched = other.analyze(endgame=tmp_path / "python"), other.analyze()
    assert probed.raw["stats"]["visited"] == 0 and searched.raw["stats"]["visited"] > 0
    assert [probed.raw[key] for key in ("score", "moves")] == [searched.raw[key] for key in ("score", "moves")]
    # A second solve finds every tier on disk; bad arguments and a game without endgame databases are errors.
    again = []
    game.solve_endgame(tmp_path / "python", 10, progress=again.append)
    assert all(report["resumed"] for report in again) and len(again) == 11
    for wrong in (-1, 128, 2.5, True):
        with pytest.raises(ValueError, match="up_to is a tier"):
            game.solve_endgame(tmp_path / "python", wrong)
    with pytest.raises(ludus.LimitExceeded, match="memory_mb="):
        game.solve_endgame(tmp_path / "small", 30, memory_mb=1)
    with pytest.raises(ludus.UnsupportedOperation):
        ludus.load_game("tic-tac-toe").solve_endgame(tmp_path / "ttt", 3)


def test_a_check_past_its_memory_budget_is_refused_before_it_reads(tmp_path):
    database = ludus.solve_database("connect-four:width=5,height=4", tmp_path / "c4")
    with pytest.raises(ludus.LimitExceeded, match="memory_mb"):
        database.check(memory_mb=1)
    assert database.check()["problems"] == []
