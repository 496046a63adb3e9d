"""The OpenSpiel bridge: every value equal to OpenSpiel's own exact algorithms (minimax, value iteration,
expectiminimax) on tic_tac_toe, nim with several pile sizes under both conventions, and pig with a small win
score and a horizon, and to Ludus' own Nim."""

import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import minimax, value_iteration  # noqa: E402

import ludus  # noqa: E402
import ludus.openspiel  # noqa: E402


def openspiel_values(game, state):
    """OpenSpiel's alpha-beta value of `state` and of each child, for the player to move at `state`."""
    player = state.current_player()
    value, _ = minimax.alpha_beta_search(game, state=state.clone(), maximum_depth=100, maximizing_player_id=player)
    children = {}
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal():
            children[action] = child.returns()[player]
        else:
            children[action], _ = minimax.alpha_beta_search(
                game, state=child, maximum_depth=100, maximizing_player_id=player
            )
    return value, children


def test_tic_tac_toe_has_openspiel_s_values():
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for action in (4, 0):
        state.apply_action(action)
    for key in (None, str):
        solution = ludus.openspiel.solve(game, state, key=key)
        value, children = openspiel_values(game, state)
        assert solution.value == value and solution.action_values == children
    # From the start, against value iteration too: a draw.
    start = ludus.openspiel.solve(game, key=str)
    values = value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-9)
    assert start.value == values[str(game.new_initial_state())] == 0.0
    assert set(start.best_actions) == {action for action, value in start.action_values.items() if value == 0.0}


@pytest.mark.parametrize("piles", ["1;2;3", "2;3;4", "1;3;5", "3;4"])
@pytest.mark.parametrize("misere", [False, True])
def test_nim_has_openspiel_s_values(piles, misere):
    game = pyspiel.load_game("nim", {"pile_sizes": piles, "is_misere": misere})
    solution = ludus.openspiel.solve(game, key=str)
    value, children = openspiel_values(game, game.new_initial_state())
    assert solution.value == value and solution.action_values == children
    if not misere:
        # Normal play is Ludus' own Nim: the same value, the same remoteness.
        native = ludus.load_game("nim", heaps=[int(size) for size in piles.split(";")]).analyze()
        assert (solution.analysis.value.kind, solution.analysis.value.remoteness) == (
            native.value.kind,
            native.value.remoteness,
        )


@pytest.mark.parametrize("winscore,horizon", [(4, 4), (6, 3), (8, 4)])
def test_pig_with_a_horizon_has_openspiel_s_expected_values(winscore, horizon):
    game = pyspiel.load_game("pig", {"winscore": winscore, "horizon": horizon, "diceoutcomes": 3})
    state = game.new_initial_state()
    solution = ludus.openspiel.solve(game)
    expected, _ = minimax.expectiminimax(state, 1000, None, 0)
    assert abs(solution.value - expected) < 1e-9
    for action, value in solution.action_values.items():
        child_value, _ = minimax.expectiminimax(state.child(action), 1000, None, 0)
        assert abs(value - child_value) < 1e-9, action


def test_games_the_bridge_cannot_solve_say_why():
    with pytest.raises(ludus.UnsupportedOperation, match="perfect information"):
        ludus.openspiel.solve(pyspiel.load_game("kuhn_poker"))
    with pytest.raises(ludus.UnsupportedOperation, match="3 players"):
        ludus.openspiel.solve(pyspiel.load_game("kuhn_poker", {"players": 3}))
    with pytest.raises(ludus.UnsupportedOperation, match="perfect information"):
        ludus.openspiel.solve(pyspiel.load_game("matrix_rps"))
