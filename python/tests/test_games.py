"""Games and positions: the listing is the command line's, positions follow the rules (turns that do not
alternate, chance, symmetry), and bad input raises the exception of its kind."""

import json
from fractions import Fraction

import pytest

import ludus


def test_games_are_listed_as_the_command_line_lists_them(cli):
    listed = json.loads(cli("games", "--format", "json"))
    games = ludus.games()
    assert [game.name for game in games] == [game["name"] for game in listed]
    by_name = {game.name: game for game in games}
    assert by_name["dodgem"].positions_repeat and by_name["dodgem"].database == "tiered"
    assert by_name["kalah"].family == "scored" and by_name["kalah"].board == "pits"
    assert by_name["dots-and-boxes"].family == "scored" and by_name["dots-and-boxes"].board == "edges"
    assert by_name["pig"].chance and by_name["pig"].database is None
    assert by_name["octal"].engine == "sprague-grundy"
    width = next(parameter for parameter in by_name["connect-four"].parameters if parameter.name == "width")
    assert (width.kind, width.default, width.range) == ("whole", "7", (1, 9))


def test_a_game_is_loaded_by_keywords_or_by_its_spec():
    by_keywords = ludus.load_game("connect-four", width=5, height=4)
    by_spec = ludus.load_game("connect-four:height=4,width=5")
    assert by_keywords.name == by_spec.name == "connect-four:width=5,height=4"
    assert ludus.load_game("nim", heaps=[3, 5, 7]).name == "nim:heaps=3-5-7"
    assert by_keywords.info.name == "connect-four"


def test_positions_follow_the_rules():
    game = ludus.load_game("connect-four", width=5, height=4)
    start = game.start()
    assert start.moves() == ["1", "2", "3", "4", "5"] and start.player() == 0 and not start.is_over()
    after = start.play("3")
    assert after.player() == 1 and after.history == ("3",) and start.history == ()
    # Mirror images share a key; a position text is read as its moves.
    assert start.play("1").key() == start.play("5").key() != start.play("2").key()
    assert game.position("3").key() == after.key()
    # Four in a column: the first player has won, and no move is left.
    won = start
    for move in "1212121":
        won = won.play(move)
    assert won.is_over() and won.winner() == "first" and won.moves() == [] and won.player() is None
    # A position text need not say whose turn it is: its mover is player 0, so here the winner is player 1.
    assert game.position("1212121").winner() == "second"
    assert "X" in str(after) and "O to move" in str(after)


def test_a_move_into_the_store_leaves_the_same_player_to_move():
    kalah = ludus.load_game("kalah", pits=3, seeds=3)
    # Three seeds from the first pit end in the store: South moves again.
    again = kalah.start().play("1")
    assert again.player() == 0
    assert again.play("2").player() == 1


def test_chance_nodes_list_their_outcomes_with_exact_probabilities():
    pig = ludus.load_game("pig", goal=20)
    start = pig.start()
    assert not start.is_chance() and start.outcomes() == []
    rolled = start.play("roll")
    assert rolled.is_chance()
    outcomes = rolled.outcomes()
    assert [text for text, _ in outcomes] == ["1", "2", "3", "4", "5", "6"]
    assert all(probability == Fraction(1, 6) for _, probability in outcomes)
    assert sum(probability for _, probability in outcomes) == 1


def test_bad_input_raises_the_exception_of_its_kind():
    game = ludus.load_game("tic-tac-toe")
    with pytest.raises(ludus.ParseError, match="cell 5 is taken"):
        game.start().play("5").play("5")
    with pytest.raises(ludus.ParseError):
        game.position("not a position")
    with pytest.raises(ludus.ParameterError, match="from 1 to 9, found `99`"):
        ludus.load_game("connect-four", width=99)
    with pytest.raises(ludus.ParameterError, match="no game `chess`"):
        ludus.load_game("chess")
    with pytest.raises(ludus.ParameterError, match="no engine `best`"):
        game.analyze(engine="best")
    with pytest.raises(ludus.UnsupportedOperation):
        ludus.load_game("kalah", pits=3, seeds=3).analyze(engine="retrograde")
    assert issubclass(ludus.BudgetExceeded, ludus.LudusError) and issubclass(ludus.ParseError, ludus.LudusError)
