//! What the end-to-end tests of `ludus db` share: scratch directories, the tier files of a database, the
//! wait for a running solve to have written some of them (before it is killed), and a forged record.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// An empty scratch directory's path (not made: the solve makes it), unique to this test process.
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    directory
}

/// The tier files of a directory with their bytes, sorted by name.
pub fn tier_files(directory: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(directory)
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".ludb"))
        .map(|entry| (entry.file_name().to_string_lossy().into_owned(), std::fs::read(entry.path()).unwrap()))
        .collect();
    files.sort();
    files
}

/// Waits until `directory` holds at least `count` entries (files being written included), for a minute at most.
#[allow(dead_code)] // not every test crate that shares this module waits for entries
pub fn wait_for_entries(directory: &Path, count: usize) {
    wait_until(|| std::fs::read_dir(directory).map_or(0, |entries| entries.count()) >= count);
}

/// Waits until `directory` holds at least `count` finished tier files (`.ludb`: not the files being written,
/// nor the reachable sets a solve by un-moves keeps there for the tiers it has yet to solve), for a minute at
/// most.
#[allow(dead_code)] // not every test crate that shares this module waits for tiers
pub fn wait_for_tiers(directory: &Path, count: usize) {
    let is_tier = |entry: std::io::Result<std::fs::DirEntry>| {
        entry.is_ok_and(|entry| entry.path().extension() == Some("ludb".as_ref()))
    };
    wait_until(|| {
        std::fs::read_dir(directory).map_or(0, |entries| entries.filter_map(|e| is_tier(e).then_some(())).count())
            >= count
    });
}

fn wait_until(done: impl Fn() -> bool) {
    let clock = Instant::now();
    while !done() && clock.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Rewrites the tier file at `path` with its last record's key replaced by one no position has (every bit
/// set but the top one), its checksums valid: damage that only a check of the keys finds. A file laid out by
/// rank has no key: its last rank's record is made a word that is no record instead, checksums valid. Returns
/// the header.
#[allow(dead_code)] // not every test crate that shares this module forges a record
pub fn forge_last_key(path: &Path) -> serde_json::Value {
    use ludus_framework::database::file::{write_tier, Header, TierFile, TierName, MAGIC};
    let bytes = std::fs::read(path).expect("a tier file");
    let length = u32::from_le_bytes(bytes[8..12].try_into().expect("four bytes")) as usize;
    let header: serde_json::Value = serde_json::from_slice(&bytes[12..12 + length]).expect("a header");
    if header.get("ranks").is_some() {
        let mut parsed: Header = serde_json::from_value(header.clone()).expect("a header");
        let data = &bytes[16 + length..];
        let last = parsed.blocks.last_mut().expect("a block");
        let start = last.offset as usize;
        let mut plain = zstd::bulk::decompress(&data[start..], last.records as usize * 2).expect("a block");
        let end = plain.len();
        plain[end - 2..].copy_from_slice(&1u16.to_le_bytes());
        let block = zstd::bulk::compress(&plain, 3).expect("compressed");
        last.bytes = block.len() as u32;
        last.checksum = crc32fast::hash(&block);
        let mut blocks = data[..start].to_vec();
        blocks.extend_from_slice(&block);
        parsed.checksum = crc32fast::hash(&blocks);
        let header_bytes = serde_json::to_vec(&parsed).expect("a header");
        let mut file = MAGIC.to_vec();
        file.extend_from_slice(&(header_bytes.len() as u32).to_le_bytes());
        file.extend_from_slice(&header_bytes);
        file.extend_from_slice(&crc32fast::hash(&header_bytes).to_le_bytes());
        file.extend_from_slice(&blocks);
        std::fs::write(path, file).expect("written");
        return header;
    }
    let name =
        TierName { game: header["game"].as_str().expect("a game").into(), tier: header["tier"].clone(), ranks: None };
    let mut records = TierFile::open(path, &name).expect("opens").read_all().expect("reads");
    let last = records.len() - 1;
    records[last].0 = u128::MAX >> 1;
    let reached = header["reached"].as_array().expect("reached tiers").clone();
    write_tier(path, &name, reached, records).expect("written");
    header
}
