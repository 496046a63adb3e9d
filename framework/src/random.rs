//! Seeded, portable randomness: the generator every plugin's instances and every playout of the checks are
//! drawn from ([`SeededRng`]), reproducible across platforms and versions, and the [`Dice`] `ludus play` rolls
//! with.

use crate::scored::Probability;
use rand::{Rng, SeedableRng};

/// The random generator every plugin uses: seeded, portable, reproducible across platforms and versions.
pub type SeededRng = rand_chacha::ChaCha8Rng;

/// A seeded random generator.
pub fn seeded_rng(seed: u64) -> SeededRng {
    SeededRng::seed_from_u64(seed)
}

/// Dice for a game played from the command line: a seeded, portable generator (the plugins' own,
/// [`SeededRng`]), so that a game replays the same with the same seed.
pub struct Dice(SeededRng);

impl Dice {
    /// Dice seeded by `seed`.
    pub fn new(seed: u64) -> Dice {
        Dice(seeded_rng(seed))
    }

    /// The index of an outcome drawn with the probabilities `probabilities` (of one chance node: one
    /// denominator), or `None` if there is none.
    pub fn roll(&mut self, probabilities: &[Probability]) -> Option<usize> {
        let total: u64 = probabilities.iter().map(|probability| probability.numerator).sum();
        if total == 0 {
            return None;
        }
        let mut draw = self.0.gen_range(0..total);
        probabilities.iter().position(|probability| {
            if draw < probability.numerator {
                true
            } else {
                draw -= probability.numerator;
                false
            }
        })
    }
}
