//! [`EndgameTiers`]: a scored game whose positions fall into tiers that close downward (Kalah: the seeds left
//! in the pits never grow), ranked within each tier, and whose score splits into a part already banked and a
//! part still to play for: what an endgame database ([`crate::database::endgame`]) solves, tier by tier from
//! the smallest, and what the scored search probes below a bound.

use super::Deterministic;

/// A deterministic scored game whose positions fall into tiers numbered from 0 that no move climbs, each tier
/// ranked densely, and whose value is a banked part plus a part that only the tier and the rank decide.
///
/// Contracts (an endgame database relies on each for exact values; its solve and its check report a breach
/// they meet as an error, never a wrong value):
/// - a move never leads to a higher tier ([`EndgameTiers::endgame_tier`]), and the moves within one tier form
///   no cycle;
/// - the value of a position is [`EndgameTiers::banked`] plus a part that depends only on its tier and its rank
///   ([`EndgameTiers::endgame_rank`]): equal tiers and ranks imply equal values less the banked parts;
/// - that part lies within `-127..=127`;
/// - [`EndgameTiers::endgame_position`] gives, for every rank below the tier's size, a position of that tier
///   and rank (any one: they all have the same value less their banked part).
pub trait EndgameTiers: Deterministic {
    /// What the database depends on besides the tiers, as text: games with the same family share one (Kalah's
    /// pits and capture rule, `kalah:pits=6,capture=always`: the seeds at the start do not matter, since a tier
    /// is the seeds left in the pits, whatever the start).
    fn endgame_family(&self) -> String;

    /// The tier of `position`.
    fn endgame_tier(&self, position: &Self::Position) -> u32;

    /// The number of ranks of `tier`, or `None` past `u64`.
    fn endgame_tier_size(&self, tier: u32) -> Option<u64>;

    /// The rank of `position` within its tier: below the tier's size.
    fn endgame_rank(&self, position: &Self::Position) -> u64;

    /// A position of `tier` with rank `rank`, or `None` if the rank is not below the tier's size.
    fn endgame_position(&self, tier: u32, rank: u64) -> Option<Self::Position>;

    /// The part of the value of `position` (for its mover) already decided: Kalah's difference of the stores.
    fn banked(&self, position: &Self::Position) -> i32;
}
