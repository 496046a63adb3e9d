//! What the end-to-end tests of `ludus db` share: scratch directories, the tier files of a database, and the
//! wait for a running solve to have written some of them (before it is killed).

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
pub fn wait_for_entries(directory: &Path, count: usize) {
    let clock = Instant::now();
    while std::fs::read_dir(directory).map_or(0, |entries| entries.count()) < count
        && clock.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(2));
    }
}
