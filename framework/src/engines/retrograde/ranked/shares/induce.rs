//! The solve of one tier by shares: `super::super::induce`'s setup and induction on this process's share of
//! the tier's ranks ([`Work`] over its local indices), with every other process.
//!
//! Setup, by rounds of [`super::CHUNK`] positions: each position's moves are generated once; its in-tier
//! children are counted here (the counter is its own); an exit's value is read here if this process owns the
//! child's rank, else asked of its owner (each round's questions sorted and sent in one batch per process, the
//! answers coming back in the same order, 16 bits each); a position is set up once its last exit is known.
//!
//! Induction, by levels: the lowest level any process has scheduled (a collective minimum) is scanned by every
//! process in rounds of [`SCAN`] ranks; each position won or lost at the level is un-moved to its in-tier
//! parents, updated here if this process owns them, else sent to their owners (target 0: a child won, 1: lost).

use super::{
    batches, check_size, decode, pair, rank_of, ranks_from, rounds, step, taken, target_of, ChildShare, ShareSolution,
    Shares, CHUNK,
};
use crate::engines::retrograde::ranked::reach::RankSet;
use crate::engines::retrograde::ranked::work::{word_of, Work};
use crate::engines::retrograde::ranked::{contract, Ranked};
use crate::engines::retrograde::schedule::{agree, Exchange};
use crate::engines::retrograde::solution::widen;
use crate::engines::retrograde::tiers::broken;
use crate::engines::retrograde::{Rank, TierStatistics};
use crate::error::Error;
use crate::game::Game;
use crate::value::Value;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Ranks of the share scanned between two exchanges in a level of the induction.
const SCAN: usize = 1 << 20;

/// Ranks of the share a thread scans at once in a level.
const RANKS_PER_TASK: usize = 1 << 14;

/// A position of the round whose exits are not all known: its local index, the best of its exits known, and its
/// distinct in-tier children.
struct Open {
    rank: u64,
    best: Option<Value>,
    children: usize,
}

/// An exit asked of another process: the child tier (its place) and the child's rank as a [`pair`], and the
/// place in the round of the [`Open`] position it is an exit of.
type Asked = (u64, u32);

/// The value of an exit from its record. Errors: a rank of no position of the child tier.
fn exit_value<Tier: std::fmt::Debug>(child: &Tier, rank: u64, record: Option<u16>) -> crate::Result<Value> {
    record
        .filter(|&bits| bits != 0)
        .and_then(|bits| widen(bits).unpack())
        .ok_or_else(|| broken(format!("a move reaches rank {rank} of tier {child:?}, which holds no position")))
}

impl<Ruleset: Game + Rank + Send + Sync + 'static> Ranked<'_, Ruleset>
where
    Ruleset::Position: Send + Sync,
    Ruleset::Key: Send + Sync,
{
    /// Solves this process's `share` of `tier` with every other process (see the module's documentation).
    pub(super) fn induce_share(
        &self,
        tier: &Ruleset::Tier,
        share: RankSet,
        children: &[ChildShare<Ruleset::Tier>],
        exchange: &dyn Exchange,
    ) -> crate::Result<ShareSolution<Ruleset::Tier>> {
        let (me, processes) = (exchange.this_rank(), exchange.ranks());
        let mut sizes = std::iter::once((tier, self.game.tier_size(tier)))
            .chain(children.iter().map(|child| (&child.tier, self.game.tier_size(&child.tier))));
        let checked = sizes.try_for_each(|(tier, size)| check_size(tier, size));
        agree(exchange, checked)?;
        let shares = Shares::new(self.game.tier_size(tier), processes);
        // Agreed on, as every allocation: a process that could not make its share fails every process.
        let work = agree(exchange, Work::<Ruleset>::new(tier, shares.length(me)))?;
        let child_shares: Vec<Shares> =
            children.iter().map(|child| Shares::new(self.game.tier_size(&child.tier), processes)).collect();
        let used: Vec<AtomicBool> = children.iter().map(|_| AtomicBool::new(false)).collect();
        let (edges, exits) = (AtomicU64::new(0), AtomicU64::new(0));
        let owner =
            |pair: u64| child_shares.get(target_of(pair) as usize).map_or(me, |shares| shares.owner(rank_of(pair)));
        let open_next = |word: &mut usize| {
            let chunk = ranks_from(&share, word, CHUNK);
            self.open_share(&work, &shares, &chunk, children, &child_shares, &used, me, (&edges, &exits))
        };
        // One round's exchange: its exits asked of their owners (sorted, without repeats), the questions that
        // came answered with their records in the order they came, the positions closed with the answers.
        let settle = |(opened, mut asked): (Vec<Open>, Vec<Asked>)| -> crate::Result<()> {
            asked.par_sort_unstable();
            let mut questions: Vec<u64> = asked.iter().map(|&(pair, _)| pair).collect();
            questions.dedup();
            let incoming = exchange.all_to_all(batches(&questions, processes, owner))?;
            let answers = incoming
                .iter()
                .map(|batch| {
                    let mut bytes = Vec::new();
                    for (child, rank) in
                        decode(batch, children.len())?.into_iter().map(|pair| (target_of(pair), rank_of(pair)))
                    {
                        let (child_share, shares) = (&children[child as usize], &child_shares[child as usize]);
                        let at = (shares.owner(rank) == me).then(|| usize::try_from(shares.local(rank)).ok()).flatten();
                        let record = at.and_then(|at| child_share.records.get(at)).copied().ok_or_else(|| {
                            Error::distributed(format!("rank {rank} asked of a rank that does not own it"))
                        })?;
                        bytes.extend_from_slice(&record.to_le_bytes());
                    }
                    Ok(bytes)
                })
                .collect::<crate::Result<Vec<Vec<u8>>>>();
            let (answers, _) = step(exchange, answers, false)?;
            let answered = exchange.all_to_all(answers)?;
            self.close_share(&work, opened, children, (&asked, &questions), &answered, &owner)
        };
        // Each round is exchanged and closed while the next round is set up (the two touch different positions).
        rounds(exchange, open_next, |word| !taken(&share, word), settle)?;
        let positions = exchange.all_sum(share.len());
        work.mark_unreached(&share);
        drop(share);
        let mut levels = 0;
        if exchange.all_sum(edges.load(Relaxed)) > 0 {
            let mut level = None;
            loop {
                let next = exchange.all_min(work.next_level(level).map_or(u64::MAX, u64::from));
                let Ok(next) = u32::try_from(next) else { break };
                levels += 1;
                self.level_share(&work, &shares, next, exchange)?;
                agree(exchange, work.check_parents())?;
                level = Some(next);
            }
        }
        let statistics = TierStatistics {
            positions,
            edges: exchange.all_sum(edges.into_inner()),
            exits: exchange.all_sum(exits.into_inner()),
            levels,
        };
        let mut reached = Vec::new();
        for (child, used) in children.iter().zip(&used) {
            if exchange.all_sum(u64::from(used.load(Relaxed))) > 0 {
                reached.push(child.tier.clone());
            }
        }
        reached.sort();
        Ok(ShareSolution { records: work.into_records(), statistics, reached })
    }

    /// The setup of the positions of `chunk` (local indices of this process's share, `shares` the tier's): those
    /// whose exits are all known here are set up; the others are returned with the exits to ask for.
    #[allow(clippy::too_many_arguments)]
    fn open_share(
        &self,
        work: &Work<'_, Ruleset>,
        shares: &Shares,
        chunk: &[u64],
        children: &[ChildShare<Ruleset::Tier>],
        child_shares: &[Shares],
        used: &[AtomicBool],
        me: usize,
        (edges, exits): (&AtomicU64, &AtomicU64),
    ) -> crate::Result<(Vec<Open>, Vec<Asked>)> {
        let (game, tier) = (self.game, work.tier());
        let size = self.game.tier_size(tier);
        let opened = chunk.par_chunks(256).map_init(
            || (Vec::new(), Vec::new()),
            |(moves, inside): &mut (Vec<Ruleset::Move>, Vec<u64>), ranks| {
                let (mut open, mut asked): (Vec<Open>, Vec<Asked>) = (Vec::new(), Vec::new());
                let (mut edge_count, mut exit_count) = (0, 0);
                for &rank in ranks {
                    let position = self.position(tier, shares.global(me, rank))?;
                    if let Some(value) = game.outcome(&position) {
                        work.settle(rank, word_of(value)?);
                        continue;
                    }
                    moves.clear();
                    game.moves(&position, moves);
                    if moves.is_empty() {
                        work.settle(rank, word_of(Value::LOST)?);
                        continue;
                    }
                    inside.clear();
                    let (mut best, asked_before): (Option<Value>, usize) = (None, asked.len());
                    for mv in moves.iter() {
                        let child = game.play(&position, mv);
                        let child_tier = game.tier(&child);
                        let key = game.canonical(&child);
                        if child_tier == *tier {
                            inside.push(self.rank_in(tier, &key, size)?);
                            continue;
                        }
                        exit_count += 1;
                        let Some(place) = children.iter().position(|below| below.tier == child_tier) else {
                            return Err(broken(format!(
                                "a move from tier {tier:?} reaches tier {child_tier:?}, which is not solved before it"
                            )));
                        };
                        if !used[place].load(Relaxed) {
                            used[place].store(true, Relaxed);
                        }
                        let below = child_shares[place];
                        let child_rank = self.rank_in(&child_tier, &key, below.size)?;
                        if below.owner(child_rank) != me {
                            asked.push((pair(place as u32, child_rank), open.len() as u32));
                            continue;
                        }
                        let at = usize::try_from(below.local(child_rank)).ok();
                        let record = at.and_then(|at| children[place].records.get(at)).copied();
                        let record = record.ok_or_else(|| contract(&child_tier, &key, below.size))?;
                        let backed = exit_value(&child_tier, child_rank, Some(record))?.backed_up();
                        best = Some(best.map_or(backed, |old| old.max(backed)));
                    }
                    inside.sort_unstable();
                    inside.dedup();
                    edge_count += inside.len() as u64;
                    match asked.len() == asked_before {
                        true => work.open(rank, best, inside.len())?,
                        false => open.push(Open { rank, best, children: inside.len() }),
                    }
                }
                edges.fetch_add(edge_count, Relaxed);
                exits.fetch_add(exit_count, Relaxed);
                Ok((open, asked))
            },
        );
        let opened: Vec<(Vec<Open>, Vec<Asked>)> = opened.collect::<crate::Result<_>>()?;
        // One list for the round: each task's places moved past the positions of the tasks before it.
        let (mut all_open, mut all_asked) = (Vec::new(), Vec::new());
        for (open, asked) in opened {
            let offset = all_open.len() as u32;
            all_asked.extend(asked.into_iter().map(|(pair, place)| (pair, place + offset)));
            all_open.extend(open);
        }
        Ok((all_open, all_asked))
    }

    /// Sets up the positions left `open`, their exits' values answered: `questions` are the exits `asked`
    /// (sorted) without repeats, and `answered[p]` holds, 16 bits each, the records of those owned by process
    /// `p`, in their order.
    fn close_share(
        &self,
        work: &Work<'_, Ruleset>,
        mut open: Vec<Open>,
        children: &[ChildShare<Ruleset::Tier>],
        (asked, questions): (&[Asked], &[u64]),
        answered: &[Vec<u8>],
        owner: &(dyn Fn(u64) -> usize + Sync),
    ) -> crate::Result<()> {
        let mut cursors = vec![0usize; answered.len()];
        let mut records = Vec::with_capacity(questions.len());
        for &question in questions {
            let process = owner(question);
            let at = cursors.get(process).copied().unwrap_or(usize::MAX);
            let two = answered.get(process).and_then(|bytes| bytes.get(at..at.saturating_add(2)));
            let two =
                two.ok_or_else(|| Error::distributed(format!("rank {process} answered fewer exits than asked")))?;
            records.push(u16::from_le_bytes([two[0], two[1]]));
            cursors[process] += 2;
        }
        if let Some(process) = cursors.iter().zip(answered).position(|(&at, bytes)| at != bytes.len()) {
            return Err(Error::distributed(format!("rank {process} answered more exits than asked")));
        }
        // The exits in the questions' order, each question answered once for all who asked it.
        let mut question = 0;
        for &(exit, place) in asked {
            while questions.get(question).is_some_and(|&asked| asked != exit) {
                question += 1;
            }
            let (child, rank) = (target_of(exit), rank_of(exit));
            let tier =
                &children.get(child as usize).ok_or_else(|| Error::internal("retrograde", "an exit's child"))?.tier;
            let backed = exit_value(tier, rank, records.get(question).copied())?.backed_up();
            if let Some(open) = open.get_mut(place as usize) {
                open.best = Some(open.best.map_or(backed, |old| old.max(backed)));
            }
        }
        open.into_par_iter()
            .with_min_len(256)
            .try_for_each(|Open { rank, best, children }| work.open(rank, best, children))
    }

    /// One level's scan on this process's share: each position won or lost at `level` updates its in-tier
    /// parents, here or at their owners.
    fn level_share(
        &self,
        work: &Work<'_, Ruleset>,
        shares: &Shares,
        level: u32,
        exchange: &dyn Exchange,
    ) -> crate::Result<()> {
        let (me, processes) = (exchange.this_rank(), exchange.ranks());
        let tier = work.tier();
        Work::<Ruleset>::check_level(level)?;
        let words = work.words();
        // One round: up to SCAN ranks of the share scanned, the updates of parents owned elsewhere sorted into
        // one batch per process (none left: empty batches).
        let scan_next = |from: &mut usize| -> crate::Result<Vec<Vec<u8>>> {
            let (start, until) = (*from, (*from + SCAN).min(words.len()));
            *from = until;
            // Tasks of consecutive words, one a leaf, as in one process (the positions of a level cluster).
            let tasks = words[start..until].par_chunks(RANKS_PER_TASK).enumerate().with_max_len(1);
            let mut remote = tasks
                .map_init(
                    || (Vec::new(), Vec::new()),
                    |(parents, ranks): &mut (Vec<Ruleset::Position>, Vec<u64>), (task, slots)| {
                        let mut remote = Vec::new();
                        let first = (start + task * RANKS_PER_TASK) as u64;
                        for (at, slot) in slots.iter().enumerate() {
                            let Some(lost) = Work::<Ruleset>::at_level(slot.load(Relaxed), level) else { continue };
                            self.parent_ranks(tier, shares.global(me, first + at as u64), parents, ranks)?;
                            for &parent in ranks.iter() {
                                match shares.owner(parent) == me {
                                    true => work.update(shares.local(parent), lost, level),
                                    false => remote.push(pair(u32::from(lost), parent)),
                                }
                            }
                        }
                        Ok(remote)
                    },
                )
                .collect::<crate::Result<Vec<Vec<u64>>>>()?
                .concat();
            remote.par_sort_unstable();
            Ok(batches(&remote, processes, |pair| shares.owner(rank_of(pair))))
        };
        let apply = |incoming: Vec<Vec<u8>>| {
            incoming.iter().try_for_each(|batch| {
                let updates = decode(batch, 2)?;
                if let Some(&update) = updates.iter().find(|&&update| shares.owner(rank_of(update)) != me) {
                    let parent = rank_of(update);
                    return Err(Error::distributed(format!("rank {parent} updated at a rank that does not own it")));
                }
                updates.into_par_iter().with_min_len(1 << 10).for_each(|update| {
                    work.update(shares.local(rank_of(update)), target_of(update) == 1, level);
                });
                Ok(())
            })
        };
        // Each round's updates are exchanged and applied while the next round is scanned: an update decides a
        // parent at a higher level only, so the scan of this level does not see it (`super`'s invariant).
        rounds(exchange, scan_next, |from| from < words.len(), |batches| exchange.all_to_all(batches).and_then(apply))
    }
}
