//! Solved databases on disk: the retrograde tier engine's solutions, one file per tier, queried a block at a
//! time, summarised and checked record by record.
//!
//! - [`book`]: opening books: every position up to a few plies with its exact value, in one file of this
//!   format, built by backing values up from the deepest ply, checked, and consulted before a search.
//! - [`endgame`]: endgame databases of a scored game whose tiers close downward ([`crate::scored::EndgameTiers`]):
//!   every position of the lowest tiers, a byte a rank, solved tier by tier and probed by the scored search.
//! - [`record`]: a value in 16 bits ([`Record`]) and the keys a file stores ([`RecordKey`]).
//! - [`file`](mod@file): one tier's file (header with checksums and block index; zstd blocks).
//! - [`store`]: a game's [`Database`] in a directory; its solve resumes from the tiers already on disk.
//! - `distributed` (feature `mpi`): the tiered solve over MPI ranks (a manager hands out tiers, workers solve
//!   and write them); `split` and `split_schedule` (feature `mpi`): every tier solved by every rank at once,
//!   positions owned by a hash of their key.
//! - [`scored`]: databases of small scored games ([`ScoreDatabase`]): every position's score in one file of
//!   score records, read by [`StoredScores`], counted by score and checked record by record.
//! - [`summary`]: counts by value, remoteness and tier ([`Database::summary`]), and the report of either
//!   family ([`DatabaseSummary`]).
//! - [`check`]: every record re-derived from its children's records ([`Database::check`]).
//! - [`game`]: [`StoredValues`], the engine that reads a win/loss database's records. The object the CLI holds
//!   is [`crate::playable::DatabaseGame`], one adapter for both families.
//!
//! ```
//! use ludus_framework::database::{Database, SolveBudget};
//! use ludus_framework::engines::retrograde::{ByKey, TierSpec, Tiers};
//! use ludus_framework::{Canonicalize, FromKey, Game, Rules, Value};
//!
//! /// Take one or two counters; whoever takes the last wins. A tier is the counters left.
//! struct Pile;
//! impl Rules for Pile {
//!     type Position = u32;
//!     type Move = u32;
//!     type Outcome = Value;
//!     fn moves(&self, left: &u32, moves: &mut Vec<u32>) { moves.extend((1..=2).filter(|take| take <= left)); }
//!     fn play(&self, left: &u32, take: &u32) -> u32 { left - take }
//!     fn outcome(&self, left: &u32) -> Option<Value> { (*left == 0).then_some(Value::LOST) }
//! }
//! impl Game for Pile {}
//! impl Canonicalize for Pile {
//!     type Key = u32;
//!     fn canonical(&self, left: &u32) -> u32 { *left }
//! }
//! impl FromKey for Pile {
//!     fn position_of_key(&self, key: &u32) -> Option<u32> { Some(*key) }
//! }
//! impl Tiers for Pile {
//!     type Tier = u32;
//!     fn tier(&self, left: &u32) -> u32 { *left }
//!     fn child_tiers(&self, left: &u32) -> Vec<u32> { (1..=2).filter(|take| take <= left).map(|take| left - take).collect() }
//! }
//!
//! let directory = std::env::temp_dir().join(format!("ludus-doc-{}", std::process::id()));
//! let database = Database::new(&Pile, "pile", &directory);
//! let budget = SolveBudget { memory_mb: 64, max_positions: u64::MAX, stop: None };
//! database.solve(&10, budget, &mut |_| {}, TierSpec::new())?;
//! let mut files = Default::default();
//! // A multiple of three is lost: three rounds of three counters, six plies.
//! assert_eq!(database.value(&mut files, &9)?, Some(Value::Lose(6)));
//! assert_eq!(database.value(&mut files, &10)?, Some(Value::Win(7)));
//! assert!(database.check(&10, &ByKey, &mut |_, _, _| {})?.problems.is_empty());
//! # std::fs::remove_dir_all(&directory).ok();
//! # Ok::<(), ludus_framework::Error>(())
//! ```

pub mod book;
pub mod check;
#[cfg(feature = "mpi")]
pub mod distributed;
pub mod endgame;
pub mod file;
pub mod game;
pub mod plan;
pub mod record;
pub mod scored;
#[cfg(feature = "mpi")]
pub mod share_schedule;
#[cfg(feature = "mpi")]
pub mod split;
#[cfg(feature = "mpi")]
pub mod split_schedule;
pub mod store;
pub mod summary;

pub use check::{CheckProgress, CheckReport};
pub use game::StoredValues;
pub use record::{Record, RecordKey, MAX_STORED_REMOTENESS, MAX_STORED_SCORE};
pub use scored::{ScoreDatabase, ScoreSummary, StoredScores};
pub use store::{Database, SolveBudget, TierFiles, TierReport};
pub use summary::{DatabaseSummary, OutcomeSummary, ScoreReport, Summary};
