//! `ludus db plan`: before a solve by un-moves split by shares over `N` ranks, each tier's ranks, the memory a
//! rank holds while it works on the tier, the bytes each rank sends, and the time, with the tiers that do not
//! fit the memory given.
//!
//! Memory comes from the allocation model of the solve ([`crate::engines::retrograde::SharedWork`]), which
//! depends on the ranks only: while tier `t` is discovered, a bit a rank of every set of entries waiting in
//! memory and two more of `t` (its reached set and next frontier); while it is solved, its values (2 bytes a
//! rank), its counters (1 byte a rank, for a tier some move stays in: [`Tiers::moves_stay_in`]; never written
//! otherwise, so never resident), its reachable set (a bit a rank) and its child tiers' values (2 bytes a
//! rank), each the largest rank's share ([`Shares`]); plus a rank's fixed part ([`Rates::base_bytes`]). Time,
//! bytes sent and disk scale with each tier's positions by rates measured on this machine ([`Rates`]); the
//! positions are not known before the discovery, so they are estimated: the share of the tier's ranks found
//! reachable among ranks drawn at random, each followed back to the start by un-moves
//! ([`crate::engines::retrograde::TierIndexing::reachable_share`]), times the tier's ranks.
//!
//! [`Tiers::moves_stay_in`]: crate::engines::retrograde::Tiers::moves_stay_in

use crate::engines::retrograde::Shares;
use hashbrown::HashMap;
use serde::Serialize;

/// The machines a plan is for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanSettings {
    /// The MPI ranks (processes), one per machine or more.
    pub ranks: usize,
    /// The threads each rank works with.
    pub threads: usize,
    /// The cores working in all (fewer than ranks times threads when local ranks share a machine's cores).
    pub cores: usize,
    /// The memory a rank may hold, in bytes.
    pub memory_bytes: u64,
    /// The bytes a second each rank's network link carries (`None`: local ranks, whose exchanges cost no
    /// time of their own).
    pub network_bytes_per_second: Option<f64>,
    /// The ranks drawn from each tier to estimate its positions.
    pub samples: usize,
}

/// The rates a plan scales by, measured on this machine (BENCHMARKS.md, "The planner").
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rates {
    /// Core-seconds a position costs in one process (its discovery and its solve).
    pub seconds_per_position: f64,
    /// How much more a split costs than one process, as a factor of core-seconds.
    pub split_factor: f64,
    /// Bytes the ranks send one another a position, at two ranks (a rank sends `(N - 1) / N` of what it would
    /// if it owned none of the ranks it names).
    pub sent_per_position: f64,
    /// Bytes of the files a position.
    pub disk_per_position: f64,
    /// A rank's memory besides the model: its code, MPI's buffers, its threads, a round's batches.
    pub base_bytes: u64,
}

impl Rates {
    /// Connect Four's rates on this machine (2 cores): 6 x 5 solved in one process (390.7 s, 1,409,488,535
    /// positions, 786.9 MB of files) and on two ranks (545.0 s); 7 x 4 on two ranks (6.32 GB sent for
    /// 1,132,927,517 positions).
    pub const CONNECT_FOUR: Rates = Rates {
        seconds_per_position: 5.54e-7,
        split_factor: 1.40,
        sent_per_position: 5.58,
        disk_per_position: 0.558,
        base_bytes: 100 << 20,
    };
}

/// One tier of a plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlannedTier {
    /// The tier, in its serde form.
    pub tier: serde_json::Value,
    /// Its ranks.
    pub ranks: u64,
    /// The largest rank's share of them.
    pub share: u64,
    /// Its positions, estimated.
    pub positions: u64,
    /// The memory of the largest rank while it discovers or solves the tier, in bytes.
    pub memory_bytes: u64,
    /// The bytes each rank sends for it (discovery and solve).
    pub sent_bytes: u64,
    /// Its time, in seconds (discovery and solve).
    pub seconds: f64,
    /// Whether `memory_bytes` fits the memory of a rank.
    pub fits: bool,
}

/// A plan of a solve split by shares.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolvePlan {
    /// The game, with its parameters.
    pub game: String,
    /// The ranks.
    pub ranks: usize,
    /// The threads of each rank.
    pub threads: usize,
    /// The cores working in all.
    pub cores: usize,
    /// The memory a rank may hold, in bytes.
    pub memory_bytes: u64,
    /// The tiers, children first (the order of the solve).
    pub tiers: Vec<PlannedTier>,
    /// The largest memory of a rank over the solve, in bytes.
    pub peak_bytes: u64,
    /// The positions of every tier, estimated.
    pub positions: u64,
    /// The bytes every rank sends, together.
    pub sent_bytes: u64,
    /// The files' bytes.
    pub disk_bytes: u64,
    /// The time, in seconds.
    pub seconds: f64,
    /// The rates the plan scales by.
    pub rates: Rates,
}

/// What a plan knows of one tier: its ranks, its positions (estimated), whether a move stays in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TierShape {
    /// Its ranks.
    pub ranks: u64,
    /// Its positions, estimated.
    pub positions: f64,
    /// Whether a move may stay in it.
    pub stays: bool,
}

/// The plan of a solve over `order`'s tiers (parents first) with their `children`, each of the `shape` given;
/// named `game`.
pub fn plan<Tier>(
    game: &str,
    order: &[Tier],
    children: &HashMap<Tier, Vec<Tier>>,
    shape: impl Fn(&Tier) -> TierShape,
    settings: PlanSettings,
    rates: Rates,
) -> crate::Result<SolvePlan>
where
    Tier: Clone + Eq + std::hash::Hash + Serialize,
{
    let processes = settings.ranks.max(1);
    let ranks = |tier: &Tier| shape(tier).ranks;
    // The largest share of a tier, in ranks.
    let share = |tier: &Tier| {
        let shares = Shares::new(ranks(tier), processes);
        (0..processes.min(2)).map(|process| shares.length(process)).max().unwrap_or(0)
    };
    let bits = |tier: &Tier| share(tier).div_ceil(8);
    let none: &[Tier] = &[];
    // Discovery, parents first: the entry sets waiting in memory, and two more sets of the tier in work.
    let mut discovery: HashMap<&Tier, u64> = HashMap::new();
    let mut waiting: Vec<&Tier> = order.first().into_iter().collect();
    for tier in order {
        for child in children.get(tier).map_or(none, Vec::as_slice) {
            if !waiting.contains(&child) {
                waiting.push(child);
            }
        }
        let held: u64 = waiting.iter().map(|&tier| bits(tier)).sum::<u64>() + 2 * bits(tier);
        discovery.insert(tier, held);
        waiting.retain(|&other| other != tier);
    }
    let cores = settings.cores.clamp(1, processes * settings.threads.max(1)) as f64;
    let factor = if processes > 1 { rates.split_factor } else { 1.0 };
    let remote = (processes - 1) as f64 / processes as f64;
    let mut tiers = Vec::with_capacity(order.len());
    for tier in order.iter().rev() {
        let below: u64 = children.get(tier).map_or(none, Vec::as_slice).iter().map(|child| 2 * share(child)).sum();
        let TierShape { ranks: size, positions, stays } = shape(tier);
        let counters = if stays { share(tier) } else { 0 };
        let solve = 2 * share(tier) + counters + bits(tier) + below;
        let memory = rates.base_bytes + solve.max(discovery.get(tier).copied().unwrap_or(0));
        let sent = positions * rates.sent_per_position * 2.0 * remote / processes as f64;
        let network = settings.network_bytes_per_second.map_or(0.0, |rate| sent / rate.max(1.0));
        let name = serde_json::to_value(tier)
            .map_err(|error| crate::Error::internal("database", format!("a tier's serde form: {error}")))?;
        tiers.push(PlannedTier {
            tier: name,
            ranks: size,
            share: share(tier),
            positions: positions as u64,
            memory_bytes: memory,
            sent_bytes: sent as u64,
            seconds: positions * rates.seconds_per_position * factor / cores + network,
            fits: memory <= settings.memory_bytes,
        });
    }
    let total: f64 = order.iter().map(|tier| shape(tier).positions).sum();
    Ok(SolvePlan {
        game: game.to_string(),
        ranks: processes,
        threads: settings.threads,
        cores: cores as usize,
        memory_bytes: settings.memory_bytes,
        peak_bytes: tiers.iter().map(|tier| tier.memory_bytes).max().unwrap_or(rates.base_bytes),
        sent_bytes: tiers.iter().map(|tier| tier.sent_bytes).sum::<u64>() * processes as u64,
        positions: total as u64,
        disk_bytes: (total * rates.disk_per_position) as u64,
        seconds: tiers.iter().map(|tier| tier.seconds).sum(),
        tiers,
        rates,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(sizes: &[u64]) -> (Vec<u32>, HashMap<u32, Vec<u32>>) {
        let order: Vec<u32> = (0..sizes.len() as u32).collect();
        let children =
            order.iter().map(|&tier| (tier, order.iter().copied().filter(|&c| c == tier + 1).collect())).collect();
        (order, children)
    }

    #[test]
    fn memory_follows_the_model_and_falls_with_the_ranks() {
        let sizes = [1 << 20, 1 << 24, 1 << 22];
        let (order, children) = chain(&sizes);
        let settings = |ranks| PlanSettings {
            ranks,
            threads: 1,
            cores: ranks,
            memory_bytes: 40 << 20,
            network_bytes_per_second: None,
            samples: 0,
        };
        let rates = Rates { base_bytes: 0, ..Rates::CONNECT_FOUR };
        let shape = |stays| {
            move |&tier: &u32| TierShape {
                ranks: sizes[tier as usize],
                positions: sizes[tier as usize] as f64 / 4.0,
                stays,
            }
        };
        let one = plan("chain", &order, &children, shape(false), settings(1), rates).unwrap();
        // Tier 0 (first in the order, last solved): 2 bytes and a bit a rank, and 2 bytes a rank of tier 1.
        let tier_0 = one.tiers.last().unwrap();
        assert_eq!(tier_0.memory_bytes, 2 * (1 << 20) + (1 << 17) + 2 * (1 << 24));
        assert!(tier_0.fits, "34 MiB fit 40 MiB");
        assert!(!one.tiers[1].fits, "2 bytes and a bit a rank of 2^24 ranks and 2 of 2^22 (42 MiB) do not fit 40 MiB");
        let four = plan("chain", &order, &children, shape(true), settings(4), rates).unwrap();
        // Counters too, each a quarter.
        let tier_1 = &four.tiers[1];
        assert_eq!(tier_1.memory_bytes, 3 * (1 << 22) + (1 << 19) + 2 * (1 << 20));
        // A quarter of each tier, and the fixed part of the largest share (here none).
        let one_staying = plan("chain", &order, &children, shape(true), settings(1), rates).unwrap();
        assert!(four.peak_bytes * 3 < one_staying.peak_bytes && four.peak_bytes * 4 >= one_staying.peak_bytes);
        assert!(four.seconds < one.seconds);
        assert_eq!(one.positions, ((1 << 20) + (1 << 24) + (1 << 22)) / 4);
        // Each rank sends what it names of ranks it does not own: nothing in one process.
        assert_eq!(one.sent_bytes, 0);
        assert!(four.sent_bytes > 0);
    }
}
