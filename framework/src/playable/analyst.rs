//! [`Analyst`]: analyses of one game, one after the other, over one engine whose table is kept from each to
//! the next (the explorer's: the next position asked for reuses the last one's work), each telling a watcher
//! what it finds as it finds it.

use super::{AnalysisOptions, Playable, PlayableGame};
use crate::analysis::{analyze_position_watched, analyze_value, Analysis, Found, SearchValue};
use crate::engines::Engine;
use crate::error::{Error, Result};
use crate::text::TextForm;

/// Analyses of one game over one engine kept from each to the next.
pub trait Analyst {
    /// The analysis of the position reached from `position` (`None`: the start) by `moves`, as
    /// [`PlayableGame::analyze_after`] gives it, telling `watch` each value as it is found.
    fn analyze_after(
        &mut self,
        position: Option<&str>,
        moves: &[&str],
        watch: &mut dyn FnMut(Found<'_>),
    ) -> Result<Analysis>;
}

/// The analyst of a game object that keeps no engine: each analysis is [`PlayableGame::analyze_after`] (what a
/// game of another crate gets by default), its values told when it ends.
pub(super) struct EachAnew<'game, Game: ?Sized> {
    pub(super) game: &'game Game,
    pub(super) options: AnalysisOptions,
}

impl<Game: PlayableGame + ?Sized> Analyst for EachAnew<'_, Game> {
    fn analyze_after(
        &mut self,
        position: Option<&str>,
        moves: &[&str],
        watch: &mut dyn FnMut(Found<'_>),
    ) -> Result<Analysis> {
        let analysis = self.game.analyze_after(position, moves, &self.options)?;
        watch(Found::Value(&analysis.value));
        for mv in &analysis.moves {
            watch(Found::Move(mv));
        }
        Ok(analysis)
    }
}

/// The analyst of a [`Playable`]: its engine, made once.
pub(super) struct Kept<'game, Ruleset: TextForm, Worth> {
    pub(super) playable: &'game Playable<Ruleset, Worth>,
    pub(super) engine: Box<dyn Engine<Ruleset, Value = Worth, Failure = Error>>,
    pub(super) max_line: usize,
    /// The position's value alone (no move's value, no line).
    pub(super) value_only: bool,
}

impl<Ruleset: TextForm, Worth: SearchValue> Analyst for Kept<'_, Ruleset, Worth> {
    fn analyze_after(
        &mut self,
        position: Option<&str>,
        moves: &[&str],
        watch: &mut dyn FnMut(Found<'_>),
    ) -> Result<Analysis> {
        let position = self.playable.position_after(position, moves)?;
        let text = self.playable.text();
        if self.value_only {
            let analysis = analyze_value(&text, self.engine.as_mut(), &position)?;
            watch(Found::Value(&analysis.value));
            return Ok(analysis);
        }
        analyze_position_watched(&text, self.engine.as_mut(), &position, self.max_line, watch)
    }
}
