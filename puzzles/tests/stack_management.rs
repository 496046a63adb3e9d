//! Tests of the `stack-management` plugin: the sample, fast vs generic on thousands of random small cases,
//! winning lines that replay, rejected wrong answers, official-size generation, and one test per kind of bad
//! input.
#![allow(clippy::unwrap_used, clippy::expect_used)] // helpers of tests may unwrap

use ludus_framework::conformance::{check_corruption, check_plugin, check_sample, SampleVerdict};
use ludus_framework::input::Source;
use ludus_framework::plugin::{
    CaseAnswer, Corruptions, GenOptions, NoProgress, Plugin, PluginOptions, Preset, SolveOptions,
};
use ludus_framework::{Budget, Error};
use ludus_puzzles::stack_management::{official_small_set, StackManagement};

const SAMPLE: &str = include_str!("../../samples/stack-management/sample.in");

fn solve(input: &str, solver: &str, witness: bool) -> Result<Vec<CaseAnswer>, Error> {
    let given: &[&str] = if witness { &["witness"] } else { &[] };
    let options =
        SolveOptions { plugin_options: PluginOptions::new(given.iter().copied()), ..SolveOptions::with_solver(solver) };
    StackManagement.solve(Source::new("test.in", input), &options, &NoProgress)
}

fn classes(answers: &[CaseAnswer]) -> Vec<String> {
    answers.iter().map(|answer| answer.class.clone()).collect()
}

/// The verdicts' problems for `output` as an answer to `input` (`None`: accepted).
fn judge(input: &str, output: &str) -> Vec<Option<String>> {
    let verdicts = StackManagement.judge(Source::new("test.in", input), Source::new("test.out", output)).unwrap();
    verdicts.into_iter().map(|verdict| verdict.problem).collect()
}

fn input_error(input: &str) -> String {
    let error = solve(input, "fast", false).unwrap_err();
    assert!(matches!(error, Error::Input(_)), "expected an input error, got {error:?}");
    error.to_string()
}

fn limit_error(input: &str) -> String {
    let error = solve(input, "fast", false).unwrap_err();
    assert!(matches!(error, Error::Limit { .. }), "expected a limit error, got {error:?}");
    error.to_string()
}

#[test]
fn sample_comes_out_right_with_every_solver() {
    for solver in ["fast", "generic"] {
        assert_eq!(check_sample(&StackManagement, solver).unwrap(), SampleVerdict::Right, "solver {solver}");
        assert_eq!(classes(&solve(SAMPLE, solver, false).unwrap()), ["POSSIBLE", "IMPOSSIBLE"]);
    }
    let rendered = StackManagement.render(&solve(SAMPLE, "fast", false).unwrap());
    assert_eq!(rendered, "Case #1: POSSIBLE\nCase #2: IMPOSSIBLE\n");
}

#[test]
fn sample_witness_is_the_expected_line() {
    // Case 1: stacks (7,2)/(7,1) and (3,2)/(6,2): remove 3 and 6 of suit 2, then move the 7 of suit 2.
    let answers = solve(SAMPLE, "fast", true).unwrap();
    assert_eq!(answers[0].text, " POSSIBLE\nremove 2\nremove 2\nmove 1 2");
    assert_eq!(answers[1].text, " IMPOSSIBLE");
    assert_eq!(answers[0].json["moves"], serde_json::json!(["remove 2", "remove 2", "move 1 2"]));
    let rendered = StackManagement.render(&answers);
    assert_eq!(judge(SAMPLE, &rendered), [None, None]);
}

#[test]
fn fast_and_generic_agree_on_random_small_cases() {
    let report = check_plugin(&StackManagement, 2000, 7).unwrap();
    assert_eq!(report.solvers, ["fast", "generic"]);
    assert!(report.failures.is_empty(), "{:#?}", &report.failures[..report.failures.len().min(3)]);
    // Both outcomes are frequent, and the interesting class (as many suits as stacks) decides often.
    let input =
        StackManagement.generate(&GenOptions { preset: Preset::Small, cases: Some(100), size: None }, 3).unwrap();
    let answers = solve(&input, "fast", false).unwrap();
    let possible = answers.iter().filter(|answer| answer.class == "POSSIBLE").count();
    assert!((15..=85).contains(&possible), "{possible} of 100 possible");
    let reasons: Vec<&str> = answers.iter().map(|answer| answer.json["reason"].as_str().unwrap()).collect();
    let by_path = reasons.iter().filter(|reason| reason.starts_with("source suit")).count();
    let no_path = reasons.iter().filter(|reason| reason.starts_with("no source suit")).count();
    assert!(by_path >= 5 && no_path >= 5, "the suit graph decided {by_path} possible and {no_path} impossible cases");
}

#[test]
fn fast_and_generic_agree_on_the_small_set_and_beyond_the_preset() {
    let mut possible = 0;
    for seed in 0..10 {
        let input = official_small_set(100, seed);
        let fast = solve(&input, "fast", true).unwrap();
        assert_eq!(classes(&fast), classes(&solve(&input, "generic", true).unwrap()), "seed {seed}");
        possible += fast.iter().filter(|answer| answer.class == "POSSIBLE").count();
    }
    assert!((100..=900).contains(&possible), "{possible} of 1000 possible");
    // N = 5 and 6 (beyond the generic solver's default limit).
    let options = SolveOptions {
        no_limit: true,
        plugin_options: PluginOptions::new(["witness"]),
        ..SolveOptions::with_solver("generic")
    };
    for (seed, size) in (100..130).zip([5, 6].into_iter().cycle()) {
        let input = StackManagement
            .generate(&GenOptions { preset: Preset::Small, cases: Some(20), size: Some(size) }, seed)
            .unwrap();
        let generic = StackManagement.solve(Source::new("test.in", &input), &options, &NoProgress).unwrap();
        assert_eq!(classes(&solve(&input, "fast", true).unwrap()), classes(&generic), "seed {seed}");
    }
}

#[test]
fn a_path_of_three_suits_is_found_and_played() {
    // After the removals: stack 1 = king of suit 2 over the lone card (ace) of suit 1, stack 2 = king of suit 3
    // over the ace of suit 2, stack 3 = ace of suit 4 over the ace of suit 3, stack 4 empty. The path
    // 1 -> 2 -> 3 ends at a target; moving the ace of suit 4 out uncovers the aces one after the other.
    let input = "4\n3 1 4 5 2 9 1\n3 2 4 5 3 9 2\n3 3 2 9 4 9 3\n3 1 3 2 3 3 3\n1\n4 3\n0 1 2 3\n";
    let answers = solve(input, "fast", true).unwrap();
    assert_eq!(answers[0].json["reason"], "source suit 1 reaches target suit 3 along 3 suit(s)");
    let lines: Vec<&str> = answers[0].text.lines().collect();
    assert_eq!(lines.len(), 1 + 6 + 1 + 2, "{lines:?}"); // verdict, 6 removals, the move, 2 removals
    assert_eq!(lines[7], "move 3 4");
    assert_eq!(judge(input, &StackManagement.render(&answers)), [None]);
    assert_eq!(classes(&solve(input, "generic", false).unwrap()), ["POSSIBLE"]);
    // The same table with a second card of suit 1 on top: nothing to remove, no empty stack.
    let blocked = input.replace("3 1 4 5 2 9 1", "3 1 1 5 2 9 1");
    let answers = solve(&blocked, "fast", false).unwrap();
    assert_eq!(answers[0].json["reason"], "4 suits, no empty stack and no card to remove after all removals");
    assert_eq!(classes(&solve(&blocked, "generic", false).unwrap()), ["IMPOSSIBLE"]);
}

#[test]
fn every_winning_line_replays_to_a_win() {
    let mut lines = 0;
    for seed in 0..60 {
        let input =
            StackManagement.generate(&GenOptions { preset: Preset::Small, cases: Some(50), size: None }, seed).unwrap();
        for solver in ["fast", "generic"] {
            let answers = solve(&input, solver, true).unwrap();
            lines += answers.iter().filter(|answer| answer.text.contains('\n')).count();
            let rendered = StackManagement.render(&answers);
            assert!(judge(&input, &rendered).iter().all(Option::is_none), "seed {seed}, solver {solver}");
        }
    }
    assert!(lines > 1000, "only {lines} winning lines");
}

#[test]
fn official_size_input_is_solved_and_its_winning_lines_replay() {
    let input = StackManagement.generate(&GenOptions { preset: Preset::Official, cases: None, size: None }, 1).unwrap();
    let premade: usize = input.lines().next().unwrap().parse().unwrap();
    assert!(premade <= 60_000);
    assert!((1_500_000..3_000_000).contains(&input.len()), "{} bytes", input.len());
    let plain = solve(&input, "fast", false).unwrap();
    assert_eq!(plain.len(), 100);
    // The witness run replays every line in its self-check; the verifier accepts the output too.
    let witnessed = solve(&input, "fast", true).unwrap();
    assert_eq!(classes(&plain), classes(&witnessed));
    // Every branch of the criterion occurs, including the planted path of 9 suits on 10 stacks of 6,000 cards.
    let reasons: Vec<&str> = plain.iter().map(|answer| answer.json["reason"].as_str().unwrap()).collect();
    for expected in ["any sensible play wins", "can never be removed", "no empty stack", "along 9 suit(s)"] {
        assert!(reasons.iter().any(|reason| reason.contains(expected)), "no case with `{expected}`: {reasons:?}");
    }
    let rendered = StackManagement.render(&witnessed);
    assert!(judge(&input, &rendered).iter().all(Option::is_none));
    // `size` fixes N.
    let sized = StackManagement.generate(&GenOptions { preset: Preset::Official, cases: Some(2), size: Some(500) }, 2);
    let sized = sized.unwrap();
    assert!(sized.contains("\n500 200\n"));
}

#[test]
fn verifier_rejects_corrupted_answers() {
    let input =
        StackManagement.generate(&GenOptions { preset: Preset::Small, cases: Some(100), size: None }, 11).unwrap();
    for given in [&[][..], &["witness"][..]] {
        let options =
            SolveOptions { plugin_options: PluginOptions::new(given.iter().copied()), ..SolveOptions::default() };
        for seed in 0..5 {
            let outcome = check_corruption(&StackManagement, &input, &options, seed).unwrap();
            assert_eq!(outcome, Corruptions::AllCaught { tried: 100 });
        }
    }
}

#[test]
fn verifier_rejects_hand_made_wrong_answers() {
    let wrong = |output: &str| judge(SAMPLE, output)[0].clone().unwrap_or_else(|| panic!("accepted:\n{output}"));
    // The wrong verdict, without moves.
    assert!(wrong("Case #1: IMPOSSIBLE\nCase #2: IMPOSSIBLE\n").contains("the case is POSSIBLE"));
    assert_eq!(
        judge(SAMPLE, "Case #1: POSSIBLE\nCase #2: POSSIBLE\n")[1].as_deref(),
        Some("the answer is POSSIBLE, but the case is IMPOSSIBLE")
    );
    // Removing the highest visible card of its suit (the 7 of suit 2 on stack 1).
    let reason = wrong("Case #1: POSSIBLE\nremove 1\nCase #2: IMPOSSIBLE\n");
    assert!(reason.contains("move 1 (line 2)") && reason.contains("value 7 suit 2"), "{reason}");
    // Moving onto a stack that is not empty.
    assert!(wrong("Case #1: POSSIBLE\nmove 1 2\nCase #2: IMPOSSIBLE\n").contains("stack 2 is not empty"));
    // Legal moves that stop before the win.
    let reason = wrong("Case #1: POSSIBLE\nremove 2\nremove 2\nCase #2: IMPOSSIBLE\n");
    assert!(reason.contains("stack 1 still holds 2 cards"), "{reason}");
    // A stack number out of range, and garbage.
    assert!(wrong("Case #1: POSSIBLE\nremove 3\nCase #2: IMPOSSIBLE\n").contains("line 2: expected `remove X`"));
    assert!(wrong("Case #1: POSSIBLE\nremove 2\njump 1\nCase #2: IMPOSSIBLE\n").contains("line 3"));
    assert!(wrong("Case #1: MAYBE\nCase #2: IMPOSSIBLE\n").contains("found `MAYBE`"));
    // Moves after IMPOSSIBLE.
    let problems = judge(SAMPLE, "Case #1: POSSIBLE\nCase #2: IMPOSSIBLE\nremove 1\n");
    assert!(problems[1].as_deref().unwrap().contains("line 3: an IMPOSSIBLE answer has no moves"));
    // A missing case.
    assert!(judge(SAMPLE, "Case #1: POSSIBLE\n")[1].is_some());
    // The right answer, with and without the line.
    assert_eq!(judge(SAMPLE, "Case #1: POSSIBLE\nremove 2\nremove 2\nmove 1 2\nCase #2: IMPOSSIBLE\n"), [None, None]);
}

#[test]
fn generic_solver_is_limited_to_the_small_set_unless_asked() {
    // N = 5 stacks of 2 cards, 4 suits: possible (fewer suits than stacks).
    let input = "5\n2 1 1 2 1\n2 1 2 2 2\n2 1 3 2 3\n2 1 4 2 4\n2 3 1 3 2\n1\n5 2\n0 1 2 3 4\n";
    let error = solve(input, "generic", false).unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(error, Error::Limit { .. })
            && error.remedies().contains(&ludus_framework::Remedy::Set(ludus_framework::Setting::NoLimit)),
        "{message}"
    );
    assert!(message.contains("test.in:8: case 1: the excess of N over 4 or of C over 13 (the larger)"), "{message}");
    assert!(message.contains("is 1, above the limit of 0"), "{message}");
    let options = SolveOptions {
        no_limit: true,
        plugin_options: PluginOptions::new(["witness"]),
        ..SolveOptions::with_solver("generic")
    };
    let answers = StackManagement.solve(Source::new("test.in", input), &options, &NoProgress).unwrap();
    assert_eq!(classes(&answers), ["POSSIBLE"]);
    assert_eq!(classes(&solve(input, "fast", false).unwrap()), ["POSSIBLE"]);
    assert!(matches!(solve(SAMPLE, "brute", false), Err(Error::UnknownSolver { .. })));
}

#[test]
fn generic_solver_refuses_more_than_13_cards_per_stack_and_stops_at_its_states_budget() {
    // 2 stacks of 14 cards (C above the small set's 13), of 2 suits: possible.
    let deep = |suit: u32| (1..=14).map(|value| format!(" {value} {suit}")).collect::<String>();
    let input = format!("2\n14{}\n14{}\n1\n2 14\n0 1\n", deep(1), deep(2));
    let error = solve(&input, "generic", false).unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, Error::Limit { got: 1, limit: 0, .. }), "{message}");
    assert!(message.contains("test.in:5: case 1") && message.contains("C over 13"), "{message}");
    // With --no-limit the search runs, within its budget of states (--max-positions).
    let options = SolveOptions { no_limit: true, max_positions: Some(1), ..SolveOptions::with_solver("generic") };
    let input = official_small_set(10, 3);
    match StackManagement.solve(Source::new("test.in", &input), &options, &NoProgress) {
        Err(error @ Error::InCase { .. }) => {
            let Error::InCase { error: source, .. } = &error else { unreachable!() };
            assert!(matches!(**source, Error::Budget(Budget::Positions(1))), "{error}");
            assert!(
                error.remedies().contains(&ludus_framework::Remedy::Raise(ludus_framework::Setting::MaxPositions)),
                "{error}"
            );
        }
        other => panic!("expected a budget error, got {other:?}"),
    }
    let options = SolveOptions { max_positions: Some(3_000_000), ..SolveOptions::with_solver("generic") };
    let answers = StackManagement.solve(Source::new("test.in", &input), &options, &NoProgress).unwrap();
    assert_eq!(classes(&answers), classes(&solve(&input, "fast", false).unwrap()));
}

#[test]
fn bad_premade_index_is_an_error_naming_the_case_and_line() {
    let message = input_error(&SAMPLE.replace("4 1 3", "4 1 5"));
    assert!(
        message.contains("test.in:11:5: case 2: expected a premade stack index (an integer from 0 to 4)"),
        "{message}"
    );
}

#[test]
fn premade_stack_with_the_wrong_card_count_is_an_error() {
    let input = SAMPLE.replace("2 5 4 7 3", "3 5 4 7 3 9 9");
    let message = input_error(&input);
    assert!(
        message.contains("test.in:11:1: case 2: premade stack 4 has 3 cards, but this case has C = 2"),
        "{message}"
    );
    let message = input_error(&SAMPLE.replace("2 5 4 7 3", "1 5 4"));
    assert!(message.contains("test.in:11:1: case 2: premade stack 4 has 1 card, but"), "{message}");
}

#[test]
fn duplicate_cards_in_a_case_are_an_error() {
    // Premade stack 3 holds (4,2), the top card of stack 3 used with stack 3 again: the same stack twice.
    let message = input_error(&SAMPLE.replace("4 1 3", "4 3 3"));
    assert!(message.contains("test.in:11:1: case 2: the card with value 4 and suit 2 appears twice"), "{message}");
    // Two different stacks sharing a card.
    let message = input_error(&SAMPLE.replace("2 5 4 7 3", "2 5 4 7 4"));
    let expected = "case 2: the card with value 7 and suit 4 appears twice: in premade stack 4 and in premade stack 1";
    assert!(message.contains(expected), "{message}");
    // A premade stack holding the same card twice.
    let message = input_error(&SAMPLE.replace("2 3 2 6 2", "2 6 2 6 2"));
    assert!(message.contains("test.in:9:1: case 1: the card with value 6 and suit 2 appears twice"), "{message}");
}

#[test]
fn values_and_suits_out_of_range_are_errors() {
    let message = input_error(&SAMPLE.replace("2 6 4 7 4", "2 0 4 7 4"));
    assert!(
        message.contains("test.in:3:3: premade stack 1: expected a card value (an integer from 1 to 50000)"),
        "{message}"
    );
    let message = input_error(&SAMPLE.replace("2 6 4 7 4", "2 6 4 7 50001"));
    assert!(
        message.contains("test.in:3:9: premade stack 1: expected a card suit (an integer from 1 to 50000)"),
        "{message}"
    );
}

#[test]
fn truncated_input_is_an_error() {
    let message = input_error(SAMPLE.trim_end().trim_end_matches("4 1 3"));
    assert!(message.contains("case 2: expected a premade stack index, found the end of the input"), "{message}");
    let message = input_error("5\n2 7 2 7 1\n");
    assert!(message.contains("test.in:3:1: premade stack 1: expected the number of cards C_i"), "{message}");
    let message = input_error(&format!("{SAMPLE}5\n"));
    assert!(message.contains("test.in:12:1: expected the end of the input"), "{message}");
}

#[test]
fn counts_out_of_range_are_errors() {
    // T
    let message = input_error(&SAMPLE.replacen("\n2\n2 2", "\n0\n2 2", 1));
    assert!(message.contains("test.in:7:1: expected the number of cases T (an integer from 1 to 100)"), "{message}");
    let message = input_error(&SAMPLE.replacen("\n2\n2 2", "\n99999999999999999999\n2 2", 1));
    assert!(message.contains("test.in:7:1: expected the number of cases T"), "{message}");
    let message = limit_error(&SAMPLE.replacen("\n2\n2 2", "\n101\n2 2", 1));
    assert!(message.contains("the number of cases T at test.in:7:1 is 101, above the limit of 100"), "{message}");
    // P
    let message = input_error(&SAMPLE.replacen("5\n", "0\n", 1));
    assert!(message.contains("test.in:1:1: expected the number of premade stacks P"), "{message}");
    let message = limit_error(&SAMPLE.replacen("5\n", "60001\n", 1));
    assert!(message.contains("the number of premade stacks P at test.in:1:1 is 60001, above the limit of 60000"));
    // N and C
    let message = input_error(&SAMPLE.replace("3 2\n4 1 3", "1 2\n4"));
    assert!(message.contains("test.in:10:1: case 2: expected N (an integer from 2 to 50000), found `1`"), "{message}");
    let message = input_error(&SAMPLE.replace("3 2\n4 1 3", "3 50001\n4 1 3"));
    assert!(message.contains("test.in:10:3: case 2: expected C (an integer from 2 to 50000)"), "{message}");
    let message = limit_error(&SAMPLE.replace("3 2\n4 1 3", "3 40000\n4 1 3"));
    assert!(message.contains("N x C in case 2 (test.in line 10) is 120000, above the limit of 100000"), "{message}");
    // C_i of a premade stack
    let message = input_error(&SAMPLE.replace("2 7 2 7 1", "50001 7 2 7 1"));
    assert!(message.contains("test.in:2:1: premade stack 0: expected the number of cards C_i"), "{message}");
}

#[test]
fn verify_reports_a_malformed_input_as_an_error() {
    let result = StackManagement.judge(Source::new("test.in", "1\n"), Source::new("out", "Case #1: POSSIBLE\n"));
    assert!(matches!(result, Err(Error::Input(_))));
}
