//! The memory a growing `hashbrown` map really holds, for the engines that keep their positions in one and must
//! stay within a budget: its buckets (a power of two, an eighth of them kept empty), each an entry and a control
//! byte, whatever the number of entries; and, while it grows, the old table and the new one of twice the
//! buckets together, since the entries move from one to the other.
//!
//! Invariant: [`MapGrowth::peak`] is at least what the map holds while it makes room, and [`MapGrowth::after`]
//! what it holds once it has; an engine checks them against its budget before it inserts, so a map never
//! grows past a budget (the tables of [`super`] count their own memory).

/// The width of a group of control bytes (SSE2's 16: the most any target uses).
const GROUP_WIDTH: usize = 16;

/// The buckets of a map whose capacity is `capacity` (inverse of `hashbrown`'s capacity of a bucket count).
fn buckets_of_capacity(capacity: usize) -> usize {
    match capacity {
        0 => 0,
        1..=7 => (capacity + 1).next_power_of_two(),
        _ => (capacity / 7).saturating_mul(8).next_power_of_two(),
    }
}

/// The buckets `hashbrown` gives a map asked to hold `capacity` entries.
fn buckets_for(capacity: usize) -> usize {
    match capacity {
        0..=3 => 4,
        4..=7 => 8,
        8..=14 => 16,
        _ => (capacity.saturating_mul(8) / 7).next_power_of_two(),
    }
}

/// The bytes of a table of `buckets` buckets of `Entry`: the entries (rounded up to the control bytes'
/// alignment), a control byte each, and a group more of control bytes.
fn table_bytes<Entry>(buckets: usize) -> usize {
    if buckets == 0 {
        return 0;
    }
    let align = align_of::<Entry>().max(GROUP_WIDTH);
    size_of::<Entry>().saturating_mul(buckets).next_multiple_of(align).saturating_add(buckets + GROUP_WIDTH)
}

/// The bytes a map of `Entry` (a key and its value, as a tuple) holds at `capacity`.
pub(crate) fn map_bytes<Entry>(capacity: usize) -> usize {
    table_bytes::<Entry>(buckets_of_capacity(capacity))
}

/// What a map holds while it makes room for more entries, and once it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MapGrowth {
    /// The most held at once: the old table and the new one while the entries move.
    pub peak: usize,
    /// Held once the room is made.
    pub after: usize,
}

/// What a map of `Entry` with `len` entries and room for `capacity` holds while it makes room for `more`
/// entries (the same as now if it has the room).
pub(crate) fn map_growth<Entry>(len: usize, capacity: usize, more: usize) -> MapGrowth {
    let now = map_bytes::<Entry>(capacity);
    let needed = len.saturating_add(more);
    if needed <= capacity {
        return MapGrowth { peak: now, after: now };
    }
    // `hashbrown` grows to at least one more than its capacity: a full map doubles its buckets.
    let after = table_bytes::<Entry>(buckets_for(needed.max(capacity + 1)));
    MapGrowth { peak: now.saturating_add(after), after }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashbrown::HashMap;

    #[test]
    fn the_counted_capacity_and_growth_are_hashbrowns() {
        let mut map: HashMap<u64, u32> = HashMap::new();
        for key in 0..100_000u64 {
            let (len, capacity) = (map.len(), map.capacity());
            let growth = map_growth::<(u64, u32)>(len, capacity, 1);
            map.insert(key, 0);
            assert_eq!(growth.after, map_bytes::<(u64, u32)>(map.capacity()), "{len} entries");
            if capacity > 14 && len == capacity {
                assert_eq!(buckets_of_capacity(map.capacity()), 2 * buckets_of_capacity(capacity));
                assert_eq!(growth.peak, map_bytes::<(u64, u32)>(capacity) + growth.after);
            }
        }
        // 131,072 buckets of 16 bytes and a control byte each, and a group of control bytes more.
        assert_eq!(map_bytes::<(u64, u32)>(map.capacity()), 131_072 * 17 + 16);
        let mut reserved: HashMap<u128, i32> = HashMap::new();
        reserved.reserve(1_000);
        assert_eq!(map_growth::<(u128, i32)>(0, 0, 1_000).after, map_bytes::<(u128, i32)>(reserved.capacity()));
    }
}
