//! Property tests (proptest): whatever bytes arrive, no plugin panics. Random edits of every plugin's sample
//! input go through its `fast` solver, and random edits of the published answer through its judge: each call
//! returns an answer or an error, never a panic. (The CLI turns the errors into one line and exit status 2.)

use ludus_framework::input::Source;
use ludus_framework::plugin::{NoProgress, Plugin, SolveOptions};
use ludus_framework::Error;
use proptest::prelude::*;

fn all_plugins() -> Vec<Box<dyn Plugin>> {
    ludus_games::CATALOG.iter().chain(ludus_puzzles::CATALOG).filter_map(|entry| entry.make_plugin()).collect()
}

/// One edit of a text: replace, insert or delete a short piece at a position (as a fraction of the length).
#[derive(Clone, Debug)]
enum Edit {
    Replace(f64, String),
    Insert(f64, String),
    Delete(f64, usize),
    Truncate(f64),
}

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("0".to_string()),
        Just("-1".to_string()),
        Just("99999999999".to_string()),
        Just("18446744073709551616".to_string()),
        Just("\n".to_string()),
        Just(" ".to_string()),
        Just("#".to_string()),
        Just(".".to_string()),
        Just("*".to_string()),
        Just("c".to_string()),
        Just("/".to_string()),
        Just("\\".to_string()),
        Just("Case #1:".to_string()),
        Just("POSSIBLE".to_string()),
        Just("é".to_string()),
        "[0-9]{1,3}",
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0.0..1.0, piece()).prop_map(|(at, text)| Edit::Replace(at, text)),
        (0.0..1.0, piece()).prop_map(|(at, text)| Edit::Insert(at, text)),
        (0.0..1.0, 1usize..4).prop_map(|(at, count)| Edit::Delete(at, count)),
        (0.0..1.0).prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let place = |at: f64, len: usize| ((at * len as f64) as usize).min(len);
        match edit {
            Edit::Replace(at, piece) => {
                let index = place(*at, chars.len());
                let end = (index + piece.chars().count()).min(chars.len());
                chars.splice(index..end, piece.chars());
            }
            Edit::Insert(at, piece) => {
                let index = place(*at, chars.len());
                chars.splice(index..index, piece.chars());
            }
            Edit::Delete(at, count) => {
                let index = place(*at, chars.len());
                let end = (index + count).min(chars.len());
                chars.drain(index..end);
            }
            Edit::Truncate(at) => chars.truncate(place(*at, chars.len())),
        }
    }
    chars.into_iter().collect()
}

/// Whether an error is a bug of a solver rather than something wrong with the input.
fn is_solver_bug(error: &Error) -> bool {
    match error {
        Error::SelfCheck { .. } => true,
        Error::InCase { error: source, .. } => is_solver_bug(source),
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn no_input_makes_a_solver_panic(edits in proptest::collection::vec(edit(), 1..5)) {
        for plugin in all_plugins() {
            let input = apply(plugin.sample().input, &edits);
            // An answer or an error about the input (malformed, over a limit or a budget) are both fine; a panic
            // or a failed self-check (a solver's answer its own verifier rejects: a solver bug) fails the test.
            // An edit can turn an end position into an opening, which a search engine solves only in seconds: a
            // small table and a budget keep the run short.
            let options = SolveOptions { table_mb: 1, max_positions: Some(100_000), ..SolveOptions::default() };
            let result = plugin.solve(Source::new("mutated.in", &input), &options, &NoProgress);
            if let Err(error) = result {
                prop_assert!(!is_solver_bug(&error), "{}: {error}\ninput:\n{input}", plugin.name());
            }
        }
    }

    #[test]
    fn no_answer_file_makes_a_judge_panic(edits in proptest::collection::vec(edit(), 1..5)) {
        for plugin in all_plugins() {
            let sample = plugin.sample();
            let answer = apply(sample.answer, &edits);
            let verdicts = plugin.judge(Source::new("sample.in", sample.input), Source::new("mutated.ans", &answer));
            prop_assert!(verdicts.is_ok(), "{}: the sample input is well-formed, so judging cannot fail", plugin.name());
        }
    }
}
