//! A game whose positions repeat but which does not set `POSITIONS_REPEAT` is caught by every depth-first
//! engine: the search stops with an error that names the constant, instead of searching forever while its stack
//! grows; a deep game whose positions never repeat is solved as before.

#![allow(clippy::unwrap_used)]

use ludus_framework::engines::alpha_beta::{AlphaBeta, LazySmp};
use ludus_framework::engines::negamax::{MemoNegamax, PlainNegamax};
use ludus_framework::engines::parallel::ParallelNegamax;
use ludus_framework::engines::scored::{Expectimax, ScoredAlphaBeta, ScoredMinimax};
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::playable::{AnalysisOptions, Playable, PlayableGame, TextForm};
use ludus_framework::scored::{Chance, Deterministic, ScoredGame};
use ludus_framework::table::{mib, PackedTable};
use ludus_framework::ParseError;
use ludus_framework::{Canonicalize, Error, Game, Rules, SearchHints, Value};

/// A ring of `size` places: the mover steps one place on, or two; nothing ever ends it. With `repeats`, the
/// game says so; without, it breaks its contract. With `chance`, every third place is a coin flip of the step.
#[derive(Clone, Copy)]
struct Ring<Worth> {
    size: u32,
    chance: bool,
    worth: std::marker::PhantomData<Worth>,
}

impl<Worth: ludus_framework::Outcome> Rules for Ring<Worth> {
    type Position = u32;
    type Move = u32;
    type Outcome = Worth;

    fn moves(&self, place: &u32, moves: &mut Vec<u32>) {
        moves.extend([1, 2]);
        let _ = place;
    }

    fn play(&self, place: &u32, step: &u32) -> u32 {
        (place + step) % self.size
    }

    fn outcome(&self, _place: &u32) -> Option<Worth> {
        None
    }
}

impl Game for Ring<Value> {}
impl ScoredGame for Ring<i32> {}
impl Deterministic for Ring<i32> {}

impl Chance for Ring<i32> {
    fn is_chance(&self, place: &u32) -> bool {
        self.chance && place.is_multiple_of(3)
    }

    fn outcomes(&self, _place: &u32, outcomes: &mut Vec<(u32, u64)>) {
        outcomes.extend([(1, 1), (2, 1)]);
    }
}

impl<Worth: ludus_framework::Outcome> SearchHints for Ring<Worth> {}

impl<Worth: ludus_framework::Outcome> Canonicalize for Ring<Worth> {
    type Key = u32;
    fn canonical(&self, place: &u32) -> u32 {
        *place
    }
}

impl<Worth: ludus_framework::Outcome> TextForm for Ring<Worth> {
    fn start(&self) -> u32 {
        0
    }
    fn parse_position(&self, text: &str) -> Result<u32, ParseError> {
        text.parse().map_err(|_| ParseError::expected("a place", text))
    }
    fn draw_position(&self, place: &u32) -> String {
        format!("{place}\n")
    }
    fn parse_move(&self, _place: &u32, text: &str) -> Result<u32, ParseError> {
        text.parse().map_err(|_| ParseError::expected("a step", text))
    }
    fn render_move(&self, _place: &u32, step: &u32) -> String {
        step.to_string()
    }
}

fn ring<Worth>(size: u32) -> Ring<Worth> {
    Ring { size, chance: false, worth: std::marker::PhantomData }
}

/// The error names the constant the game forgot.
fn names_the_contract(error: Error) {
    let text = error.to_string();
    assert!(text.contains("POSITIONS_REPEAT") && text.contains("own path"), "{text}");
}

#[test]
fn every_depth_first_win_loss_engine_names_the_broken_contract() {
    let game = ring::<Value>(5);
    names_the_contract(AlphaBeta::new(Mode::Exact).search(&game, &0).unwrap_err());
    names_the_contract(AlphaBeta::new(Mode::Outcome).search(&game, &0).unwrap_err());
    names_the_contract(MemoNegamax::new(Mode::Exact).search(&game, &0).unwrap_err());
    names_the_contract(PlainNegamax::new(Mode::Exact).search(&game, &0).unwrap_err());
    names_the_contract(ParallelNegamax::new(Mode::Exact, 2).search(&game, &0).unwrap_err());
    let mut lazy = LazySmp::with_table(Mode::Exact, 2, PackedTable::with_budget(mib(8)).unwrap()).unwrap();
    names_the_contract(lazy.search(&game, &0).unwrap_err());
    // Within a budget, the repetition is found before the budget runs out.
    names_the_contract(AlphaBeta::new(Mode::Exact).with_budget(1_000_000).try_value(&game, &0).unwrap_err());
}

#[test]
fn the_scored_and_chance_engines_name_it_too() {
    let game = ring::<i32>(7);
    names_the_contract(ScoredAlphaBeta::new(Mode::Exact).search(&game, &0).unwrap_err());
    names_the_contract(ScoredMinimax::new().search(&game, &0).unwrap_err());
    let chance = Ring { chance: true, ..game };
    names_the_contract(Expectimax::new(mib(8)).search(&chance, &1).unwrap_err());
}

#[test]
fn an_analysis_of_the_game_stops_with_the_error() {
    let playable = Playable::win_loss(ring::<Value>(4), "ring".into());
    let error = playable.analyze(None, &AnalysisOptions::default()).map(|_| ()).unwrap_err();
    names_the_contract(error);
    let scored = Playable::scored(ring::<i32>(4), "ring".into());
    names_the_contract(scored.analyze(None, &AnalysisOptions::default()).map(|_| ()).unwrap_err());
}

/// Take one counter; whoever takes the last wins: 3,000 plies deep, far past where the engines start looking
/// for repetitions, and no position repeats.
struct Pile;

impl Rules for Pile {
    type Position = u32;
    type Move = ();
    type Outcome = Value;
    fn moves(&self, _: &u32, moves: &mut Vec<()>) {
        moves.push(());
    }
    fn play(&self, left: &u32, _: &()) -> u32 {
        left - 1
    }
    fn outcome(&self, left: &u32) -> Option<Value> {
        (*left == 0).then_some(Value::LOST)
    }
}

impl Game for Pile {}
impl SearchHints for Pile {}
impl Canonicalize for Pile {
    type Key = u32;
    fn canonical(&self, left: &u32) -> u32 {
        *left
    }
}

#[test]
fn a_deep_game_whose_positions_never_repeat_is_solved() {
    assert_eq!(AlphaBeta::new(Mode::Exact).search(&Pile, &3000).unwrap(), Value::Lose(3000));
    assert_eq!(MemoNegamax::new(Mode::Exact).search(&Pile, &3001).unwrap(), Value::Win(3001));
    assert_eq!(PlainNegamax::new(Mode::Exact).search(&Pile, &2999).unwrap(), Value::Win(2999));
}
