"""Databases from Python: a solve with its progress, queries and summaries equal to `ludus db`'s, values read by
key in numpy batches equal to the queries' values, and the errors of a game without a database, of a directory
without one, and of a progress callback that raises."""

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
