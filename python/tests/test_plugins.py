"""The contest plugins: every solver gives the official answers on the bundled samples, with typed answers;
a plugin's own options; a malformed input names its line."""

import re

import pytest

import ludus
from conftest import SAMPLES


def official_answers(plugin):
    text = (SAMPLES / plugin / "sample.ans").read_text()
    return [answer.strip() for answer in re.split(r"Case #\d+:", text)[1:]]


@pytest.mark.parametrize("plugin", ["bacterial-tactics", "adjacent-and-consecutive", "square-free"])
def test_every_solver_gives_the_official_answers(plugin):
    listed = {info.name: info for info in ludus.plugins()}
    text = (SAMPLES / plugin / "sample.in").read_text()
    for solver in listed[plugin].solvers:
        answers = ludus.solve(plugin, text, solver=solver, no_limit=True)
        assert [answer.case for answer in answers] == list(range(1, len(answers) + 1))
        if plugin == "square-free":
            # Any square-free grid is right: solvers agree on whether one exists.
            assert [answer.verdict for answer in answers] == [
                answer.split()[0] for answer in official_answers(plugin)
            ], solver
        else:
            assert [answer.text for answer in answers] == official_answers(plugin), solver


def test_answers_are_typed_and_options_are_the_plugin_s_own():
    text = (SAMPLES / "bacterial-tactics" / "sample.in").read_text()
    plain = ludus.solve("bacterial-tactics", text)
    assert plain[2].answer["winning_openings"] == 7 and plain[2].answer["becca_wins"]
    assert "winning_lines" not in plain[2].answer
    witnessed = ludus.solve("bacterial-tactics", text, options=["witness"])
    assert sum(line["moves"] for line in witnessed[2].answer["winning_lines"]) == 7
    weak = ludus.solve("connect-four", "4455\n", options={"weak": True})
    strong = ludus.solve("connect-four", "4455\n")
    assert (weak[0].text, strong[0].text) == ("4455 1", "4455 18")
    with pytest.raises(ludus.ParameterError, match="no option `deep`"):
        ludus.solve("connect-four", "4455\n", options=["deep"])
    with pytest.raises(ludus.ParameterError, match="no plugin `chess`"):
        ludus.solve("chess", "")


def test_a_malformed_input_names_its_line():
    with pytest.raises(ludus.ParseError, match=r"input:2:3: case 1: expected C"):
        ludus.solve("bacterial-tactics", "1\n2 x\n..\n..\n")
