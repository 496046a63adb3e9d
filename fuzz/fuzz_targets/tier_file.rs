//! Fuzzes the tier-file reader (`ludus_framework::database::file`): any file gives records or an error, never a
//! panic, a hang or an allocation past what the file's length and the format's limits allow.
//!
//! The first byte picks the form of the rest. `0`: the rest is a whole file. `1`: the rest is a header as JSON,
//! a zero byte, then the blocks' bytes; the target fixes every block's checksum, the blocks' checksum and the
//! header's crc32 before it writes the file, so that the fuzzer's changes to the block index and to the blocks
//! get past the checksums to the checks behind them. Seeds: `fuzz/run.sh` turns a solved database's files into
//! both forms. Files of both layouts (by key, format 1; by rank, format 2) are read.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ludus_framework::database::file::{Header, TierFile, TierName, MAGIC};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The scratch file each input is written to, one per fuzzing process.
static SCRATCH: OnceLock<PathBuf> = OnceLock::new();

/// The file of a structured input (form `1`), its checksums recomputed; `None` if its header is no header.
fn structured(data: &[u8]) -> Option<Vec<u8>> {
    let split = data.iter().position(|&byte| byte == 0)?;
    let (json, blocks) = (&data[..split], &data[split + 1..]);
    let mut header: Header = serde_json::from_slice(json).ok()?;
    let mut whole = crc32fast::Hasher::new();
    for block in &mut header.blocks {
        let start = usize::try_from(block.offset).ok()?.min(blocks.len());
        let end = start.saturating_add(block.bytes as usize).min(blocks.len());
        block.checksum = crc32fast::hash(&blocks[start..end]);
    }
    whole.update(blocks);
    header.checksum = whole.finalize();
    let header_bytes = serde_json::to_vec(&header).ok()?;
    let mut file = MAGIC.to_vec();
    file.extend_from_slice(&(header_bytes.len() as u32).to_le_bytes());
    file.extend_from_slice(&header_bytes);
    file.extend_from_slice(&crc32fast::hash(&header_bytes).to_le_bytes());
    file.extend_from_slice(blocks);
    Some(file)
}

/// The most ranks the target lets a file by rank claim: a reader opens such a file with its own rank space for
/// the tier (the game's, within its budget), which the file's header must match.
const MOST_RANKS: u64 = 1 << 22;

/// The name the file's own header gives (so that the name check passes and the reader goes on), or a name.
fn name_of(file: &[u8]) -> TierName {
    let named = || {
        let length = u32::from_le_bytes(file.get(8..12)?.try_into().ok()?) as usize;
        let header: Header = serde_json::from_slice(file.get(12..12usize.checked_add(length)?)?).ok()?;
        let ranks = header.ranks.filter(|&ranks| ranks <= MOST_RANKS);
        Some(TierName { game: header.game, tier: header.tier, ranks })
    };
    named().unwrap_or(TierName { game: "fuzz".into(), tier: serde_json::json!([1]), ranks: None })
}

fuzz_target!(|data: &[u8]| {
    let Some((&form, rest)) = data.split_first() else { return };
    let file = match form {
        0 => rest.to_vec(),
        1 => match structured(rest) {
            Some(file) => file,
            None => return,
        },
        _ => return,
    };
    let path = SCRATCH.get_or_init(|| std::env::temp_dir().join(format!("ludus-fuzz-{}.ludb", std::process::id())));
    if std::fs::write(path, &file).is_err() {
        return;
    }
    let name = name_of(&file);
    let Ok(mut tier) = TierFile::open(path, &name) else { return };
    let _ = tier.verify();
    let mut keys = vec![0u128, u128::MAX];
    for place in 0..tier.blocks() {
        if let Ok(records) = tier.read_block(place) {
            keys.extend(records.iter().take(2).map(|(key, _)| *key));
            keys.extend(records.last().map(|(key, _)| key.wrapping_add(1)));
        }
    }
    for key in keys {
        let _ = tier.lookup(key);
    }
    if let Ok(records) = tier.read_all() {
        assert!(records.len() as u64 == tier.header().records, "read_all gave another count than its header");
        assert!(records.windows(2).all(|pair| pair[0].0 < pair[1].0), "read_all gave keys out of order");
    }
    if let Some(ranks) = tier.ranks() {
        if let Ok(records) = tier.read_all_ranks() {
            assert!(records.len() as u64 == ranks, "read_all_ranks gave another length than the rank space");
        }
        for place in 0..tier.blocks() {
            let _ = tier.read_ranks(place);
        }
    }
});
