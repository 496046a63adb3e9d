//! Batches of ranks between processes: `(target, rank)` pairs packed in one word each ([`pair`]), sorted, and
//! written as each run of a target's length and its ranks' differences in LEB128 (a few bytes a rank). A
//! batch that came is read with every bound checked: nothing is allocated past its bytes.

use crate::error::Error;

/// Appends `value` in LEB128.
fn put(bytes: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        bytes.push((value as u8) | 0x80);
        value >>= 7;
    }
    bytes.push(value as u8);
}

/// Reads a LEB128 value at `at`, moving past it; `None` if cut short or past 64 bits.
fn take(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        value |= u64::from(byte & 0x7f).checked_shl(shift)?;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

/// Bits of a pair's rank ([`pair`]): a tier of more ranks is refused by the split ([`check_size`]).
const RANK_BITS: u32 = 48;

/// A `(target, rank)` pair in one word, the target in the high bits, so that sorting words sorts pairs (and
/// sorts them twice as fast as tuples).
pub(super) fn pair(target: u32, rank: u64) -> u64 {
    (u64::from(target) << RANK_BITS) | rank
}

/// The target of a [`pair`].
pub(super) fn target_of(pair: u64) -> u32 {
    (pair >> RANK_BITS) as u32
}

/// The rank of a [`pair`].
pub(super) fn rank_of(pair: u64) -> u64 {
    pair & ((1 << RANK_BITS) - 1)
}

/// The error of a tier too large for a [`pair`]'s rank.
pub(super) fn check_size<Tier: std::fmt::Debug>(tier: &Tier, size: u64) -> crate::Result<()> {
    match size > 1 << RANK_BITS {
        true => Err(Error::limit(format!("the rank space of tier {tier:?} split by shares"), size, 1 << RANK_BITS)),
        false => Ok(()),
    }
}

/// A batch of [`pair`]s, sorted: each run of one target as the target, its length, and each rank as its
/// difference from the one before.
fn encode(pairs: &[u64]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(pairs.len() * 3);
    let mut at = 0;
    while let Some(&first) = pairs.get(at) {
        let target = target_of(first);
        let run = pairs[at..].iter().take_while(|&&other| target_of(other) == target).count();
        put(&mut bytes, u64::from(target));
        put(&mut bytes, run as u64);
        let mut last = 0;
        for &pair in &pairs[at..at + run] {
            put(&mut bytes, rank_of(pair) - last);
            last = rank_of(pair);
        }
        at += run;
    }
    bytes
}

/// The pairs of a batch [`encode`] made, each target below `targets`. Errors: bytes that are no such batch.
pub(super) fn decode(bytes: &[u8], targets: usize) -> crate::Result<Vec<u64>> {
    let broken = |what: &str| Error::distributed(format!("a batch of ranks from another rank: {what}"));
    let mut pairs = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let target = take(bytes, &mut at).ok_or_else(|| broken("cut short"))?;
        let target = u32::try_from(target).ok().filter(|&target| (target as usize) < targets);
        let target = target.ok_or_else(|| broken("a target past the tiers"))?;
        let run = take(bytes, &mut at).ok_or_else(|| broken("cut short"))?;
        // Each rank takes a byte at least: a run longer than the bytes left is refused before it is read.
        if run > (bytes.len() - at) as u64 {
            return Err(broken("a run longer than its bytes"));
        }
        let mut rank = 0u64;
        for _ in 0..run {
            let gap = take(bytes, &mut at).ok_or_else(|| broken("cut short"))?;
            rank = rank
                .checked_add(gap)
                .filter(|&rank| rank < 1 << RANK_BITS)
                .ok_or_else(|| broken("a rank past 48 bits"))?;
            pairs.push(pair(target, rank));
        }
    }
    Ok(pairs)
}

/// `pairs`, sorted, cut into one batch per process, each pair going to `owner(pair)` (a process below
/// `processes`); each batch keeps the pairs' order.
pub(super) fn batches(pairs: &[u64], processes: usize, owner: impl Fn(u64) -> usize) -> Vec<Vec<u8>> {
    let mut by_process: Vec<Vec<u64>> = vec![Vec::new(); processes];
    for &pair in pairs {
        if let Some(batch) = by_process.get_mut(owner(pair)) {
            batch.push(pair);
        }
    }
    by_process.iter().map(|pairs| encode(pairs)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_read_back_and_broken_ones_are_refused() {
        let pairs = vec![pair(0, 3), pair(0, 3), pair(0, 70_000), pair(2, 5), pair(2, 1 << 40)];
        let bytes = encode(&pairs);
        assert_eq!(decode(&bytes, 3).unwrap(), pairs);
        assert!(decode(&bytes, 2).is_err(), "a target past the tiers");
        assert!(decode(&bytes[..bytes.len() - 1], 3).is_err(), "cut short");
        assert!(decode(&[0, 0xff, 0xff, 0xff, 0x0f], 1).is_err(), "a run longer than its bytes");
        assert!(decode(&[0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], 1).is_err(), "a rank past 48 bits");
        let split = batches(&pairs, 2, |pair| usize::from(rank_of(pair) >= 70_000));
        assert_eq!(decode(&split[0], 3).unwrap(), vec![pair(0, 3), pair(0, 3), pair(2, 5)]);
        assert_eq!(decode(&split[1], 3).unwrap(), vec![pair(0, 70_000), pair(2, 1 << 40)]);
        assert!(check_size(&0, (1 << 48) + 1).is_err());
    }
}
