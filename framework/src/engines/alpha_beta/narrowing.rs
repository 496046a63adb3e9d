//! The tests a null-window score search asks ("is the score at least `m`?") and in which order: on the
//! bounded scale of a game that gives the longest remoteness ([`Scale`]), or by halving and doubling the range
//! of remoteness ([`next_test`]); from the quick ends of the range, from the draw outward, or (every score
//! search, on one thread or several) the first until only slow values are left, then the second ([`End`]).
//! `search.rs` and `shared_range.rs` drive them.

use crate::table::MATE;

/// Which end of the range of scores a thread's tests start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    /// From the quick wins and losses inward ([`Scale::next_test`], [`next_test`]): the cheap tests narrow the
    /// range first.
    Quick,
    /// From the draw outward: "a win?", "at least a draw?", then the slowest win or loss left. These are the
    /// costly tests, which a slow value needs anyway.
    Slow,
    /// From the quick ends while the range still holds a win or a loss in the first three quarters of the
    /// scale's plies, then from the draw outward ([`Scale::is_slow`]): a quick value is found by the cheap
    /// tests, and a slow one, which the quick ends' halving would reach only through costly tests on both
    /// sides, by the outcome's tests and its neighbours. The order of every score search.
    Converging,
}

/// What a score search does next, with the root's score known to lie in `[low, high]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Test "is the score at least this?" (a score in `(low, high]`).
    Test(i32),
    /// The range stands for this one score: the answer.
    Done(i32),
}

/// The next step from `end` of the range `[low, high]`, on `scale` if the game bounds the remoteness.
pub(super) fn pick(scale: Option<Scale>, end: End, low: i32, high: i32) -> Step {
    if low >= high {
        return Step::Done(low);
    }
    match (scale, end) {
        (Some(scale), End::Quick) => scale.next_test(low, high).map_or(Step::Done(scale.snap(low)), Step::Test),
        (Some(scale), End::Slow) => scale.slow_test(low, high).map_or(Step::Done(scale.snap(low)), Step::Test),
        (Some(scale), End::Converging) => {
            let slow = scale.is_slow(low, high);
            pick(Some(scale), if slow { End::Slow } else { End::Quick }, low, high)
        }
        (None, End::Quick | End::Converging) => Step::Test(next_test(low, high)),
        // "A win?" (score 1), else "at least a draw?" (0), else the slowest win or loss left.
        (None, End::Slow) => Step::Test(1.clamp(low.saturating_add(1), high)),
    }
}

/// The values a root can have when their remoteness is at most `longest` plies
/// ([`SearchHints::max_remoteness`]), as one gapless scale of ranks: a win in `r` plies has the rank
/// `longest + 1 - r` (a quick win ranks highest), a draw 0, a loss in `r` plies `-(longest + 1 - r)`. Scores
/// outside the scale (a win slower than `longest`: only a bound) take the nearest rank on their side of the draw.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scale {
    longest: i64,
}

impl Scale {
    pub(super) fn new(longest: u32) -> Self {
        Scale { longest: i64::from(longest).min(i64::from(MATE) - 1) }
    }

    /// The rank of a root score that is a lower bound (`upper` false) or an upper bound (`upper` true). A win
    /// slower than the scale is, as a lower bound, some win (rank 1) and, as an upper bound, no win (at most the
    /// draw, rank 0); likewise a loss slower than the scale is, as a lower bound, no loss (rank 0) and, as an
    /// upper bound, some loss (rank -1).
    fn rank(self, score: i32, upper: bool) -> i64 {
        let mate = i64::from(MATE);
        match score {
            0 => 0,
            win if win > 0 => {
                let rank = self.longest + 1 - (mate - i64::from(win.min(MATE)));
                if rank >= 1 {
                    rank
                } else {
                    i64::from(!upper)
                }
            }
            loss => {
                let rank = -(self.longest + 1 - (mate + i64::from(loss.max(-MATE))));
                if rank <= -1 {
                    rank
                } else {
                    -i64::from(upper)
                }
            }
        }
    }

    /// The root score of a rank.
    fn score(self, rank: i64) -> i32 {
        let mate = i64::from(MATE);
        let score = match rank {
            0 => 0,
            win if win > 0 => mate - (self.longest + 1 - win),
            loss => -(mate - (self.longest + 1 + loss)),
        };
        i32::try_from(score).unwrap_or(0)
    }

    /// Whether the range `[low, high]` holds only slow values: no win nor loss in the first three quarters of
    /// the scale's plies (ranks beyond a quarter of the scale on either side of the draw).
    fn is_slow(self, low: i32, high: i32) -> bool {
        let quarter = (self.longest + 3) / 4;
        self.rank(low, false) >= -quarter && self.rank(high, true) <= quarter
    }

    /// The score of the one value of the scale that a score `low` (a lower bound whose rank is the upper
    /// bound's) stands for.
    pub(super) fn snap(self, low: i32) -> i32 {
        self.score(self.rank(low, false))
    }

    /// The next score to test between `low` and `high` (`low < high`), or `None` if they stand for one value of
    /// the scale. As in Pons' solver, the test is the middle of the ranks left, moved out to half the remaining
    /// extreme when the middle is nearer the draw: tests of quick wins and losses look only a few moves ahead
    /// and are cheap, the tests near the draw are the costly ones, so the cheap ones narrow the range first.
    pub(super) fn next_test(self, low: i32, high: i32) -> Option<i32> {
        let (low_rank, high_rank) = (self.rank(low, false), self.rank(high, true));
        if low_rank >= high_rank {
            return None;
        }
        let mut middle = low_rank + (high_rank - low_rank) / 2;
        if middle <= 0 && low_rank / 2 < middle {
            middle = low_rank / 2;
        } else if middle >= 0 && high_rank / 2 > middle {
            middle = high_rank / 2;
        }
        // "Is the rank above `middle`?": the score of rank `middle + 1`, which lies in `(low, high]`.
        Some(self.score(middle + 1).clamp(low.saturating_add(1), high))
    }

    /// The next test from the draw outward ([`End::Slow`]) between `low` and `high` (`low < high`), or `None` if
    /// they stand for one value of the scale: "a win?" (rank 1), "at least a draw?" (rank 0), then the slowest
    /// win or loss the range still allows.
    pub(super) fn slow_test(self, low: i32, high: i32) -> Option<i32> {
        let (low_rank, high_rank) = (self.rank(low, false), self.rank(high, true));
        if low_rank >= high_rank {
            return None;
        }
        // "Is the rank at least `rank`?", with `low_rank < rank <= high_rank`.
        let rank = 1.clamp(low_rank + 1, high_rank);
        Some(self.score(rank).clamp(low.saturating_add(1), high))
    }
}

/// The next score to test between `low` and `high` (`low < high`): a test `m` with `low < m <= high`. While
/// the outcome is open it asks "a win?" (`m = 1`), then "at least a draw?" (`m = 0`). Once it is known, it halves
/// the range of remoteness; when the range is vast (no hint bounds it), it first doubles from the quick end, so
/// that a quick win or loss is found in a few cheap searches.
pub(super) fn next_test(low: i32, high: i32) -> i32 {
    /// Ranges of remoteness up to this wide are halved at once.
    const NARROW: i64 = 64;
    if low < 1 && high >= 1 {
        return 1;
    }
    if low < 0 && high >= 0 {
        return 0;
    }
    let (low, high) = (i64::from(low), i64::from(high));
    let mate = i64::from(MATE);
    let test = if low >= 1 {
        // A win in `near..=far` moves: test "a win in at most `bound` moves" (the score `mate - bound`).
        let (near, far) = (mate - high, mate - low);
        let bound = if far - near > NARROW && far > 2 * near + 2 { 2 * near + 1 } else { near + (far - near) / 2 };
        mate - bound
    } else if high <= -1 {
        // A loss in `near..=far` moves: test "a loss in at least `bound` moves" (the score `-(mate - bound)`).
        let (near, far) = (mate + low, mate + high);
        let bound = if far - near > NARROW && far > 2 * near + 2 { 2 * near + 2 } else { near + (far - near + 1) / 2 };
        -(mate - bound)
    } else {
        low + (high - low + 1) / 2
    };
    i32::try_from(test.clamp(low + 1, high)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_test_splits_the_range() {
        let ranges =
            [(1, MATE), (MATE - 90, MATE - 3), (-MATE, -1), (-MATE + 4, -MATE + 60), (-5, 7), (-5, 0), (10, 11)];
        for (low, high) in ranges {
            let test = next_test(low, high);
            assert!(low < test && test <= high, "{low} {high} -> {test}");
        }
    }

    #[test]
    fn a_bounded_scale_tests_the_quick_ends_first_and_splits_every_range() {
        let scale = Scale::new(20);
        // Ranks: a win in 3 is 18, a loss in 4 is -17, a draw 0; every score of a value maps back.
        assert_eq!(scale.rank(MATE - 3, false), 18);
        assert_eq!(scale.rank(-(MATE - 4), true), -17);
        for rank in -21..=21 {
            assert_eq!(scale.rank(scale.score(rank), false), rank);
            assert_eq!(scale.rank(scale.score(rank), true), rank);
        }
        // No win within the scale's plies is no win at all; no loss within them, no loss.
        assert_eq!(scale.next_test(-(MATE - 30), MATE - 30), None);
        assert_eq!(scale.snap(-(MATE - 30)), 0);
        // From the whole range the first test is "at least a loss in 12 plies?" (rank -10 exceeded), not the outcome.
        assert_eq!(scale.next_test(-MATE, MATE), Some(scale.score(-9)));
        // A bound beyond the scale (a win of unknown remoteness) stands for its slowest win.
        assert_eq!(scale.next_test(1, MATE - 20), None);
        assert_eq!(scale.snap(1), MATE - 20);
        let mut pairs = Vec::new();
        for low in -21..=21 {
            for high in low + 1..=21 {
                pairs.push((scale.score(low), scale.score(high)));
            }
        }
        pairs.push((1, MATE - 3));
        pairs.push((-MATE, -1));
        for (low, high) in pairs {
            let test = scale.next_test(low, high).unwrap();
            assert!(low < test && test <= high, "{low} {high} -> {test}");
        }
    }

    /// Narrows like the score search, against a search that answers each test with `answer(true score, test)`;
    /// the tests come from the ends `ends` names in turn (two threads taking turns, for `[Quick, Slow]`).
    fn narrow_by(scale: Option<Scale>, ends: &[End], answer: impl Fn(i32, i32) -> i32, truth: i32) -> i32 {
        let (mut low, mut high) = (-MATE, MATE);
        for round in 0..64 {
            let test = match pick(scale, ends[round % ends.len()], low, high) {
                Step::Done(score) => return score,
                Step::Test(test) => test,
            };
            assert!(low < test && test <= high, "{low} {high} -> {test}");
            let found = answer(truth, test);
            if found >= test {
                low = found;
            } else {
                high = found;
            }
        }
        panic!("no answer after 64 tests for {truth}");
    }

    #[test]
    fn narrowing_on_a_scale_finds_every_value_whatever_the_bounds_found() {
        for longest in [0, 1, 2, 5, 20, 41, 42] {
            let scale = Scale::new(longest);
            // A root is not over: its remoteness is 1 to `longest`.
            let truths = (-i64::from(longest)..=i64::from(longest)).map(|rank| scale.score(rank));
            for truth in truths {
                // Fail-soft answers: the true score; the weakest bounds on the right side; bounds beyond the scale.
                let exact = |truth: i32, _test: i32| truth;
                let weakest = |truth: i32, test: i32| if truth >= test { test } else { test - 1 };
                // A slow win and a slow loss beyond the scale: bounds a search may find (a win of unknown
                // remoteness, say), valid wherever they lie on the right side of the truth and of the test.
                let (slow_win, slow_loss) = (MATE - 2 * (longest as i32) - 9, -(MATE - 2 * (longest as i32) - 9));
                let beyond = move |truth: i32, test: i32| {
                    if truth >= test {
                        [1, slow_loss]
                            .into_iter()
                            .filter(|&bound| test <= bound && bound <= truth)
                            .min()
                            .unwrap_or(test)
                    } else {
                        [-1, slow_win]
                            .into_iter()
                            .filter(|&bound| truth <= bound && bound < test)
                            .max()
                            .unwrap_or(test - 1)
                    }
                };
                let orders = [
                    &[End::Quick][..],
                    &[End::Slow],
                    &[End::Converging],
                    &[End::Quick, End::Slow],
                    &[End::Slow, End::Quick],
                ];
                for ends in orders {
                    assert_eq!(narrow_by(Some(scale), ends, exact, truth), truth, "{longest} {truth} {ends:?}");
                    assert_eq!(narrow_by(Some(scale), ends, weakest, truth), truth, "{longest} {truth} {ends:?}");
                    assert_eq!(narrow_by(Some(scale), ends, beyond, truth), truth, "{longest} {truth} {ends:?}");
                }
            }
        }
    }

    #[test]
    fn without_a_scale_both_ends_find_every_value() {
        let truths = [MATE - 1, MATE - 7, MATE - 100_001, 0, -(MATE - 2), -(MATE - 4_000)];
        let weakest = |truth: i32, test: i32| if truth >= test { test } else { test - 1 };
        let exact = |truth: i32, _test: i32| truth;
        for truth in truths {
            for ends in [&[End::Quick][..], &[End::Slow], &[End::Converging], &[End::Quick, End::Slow]] {
                assert_eq!(narrow_by(None, ends, exact, truth), truth, "{truth} {ends:?}");
            }
        }
        // The weakest bounds from the slow end walk a score at a time: only quick values finish in 64 tests.
        assert_eq!(narrow_by(None, &[End::Quick, End::Slow], weakest, MATE - 1), MATE - 1);
    }

    #[test]
    fn the_slow_end_tests_the_outcome_then_the_slowest_values() {
        let scale = Scale::new(42);
        assert_eq!(pick(Some(scale), End::Slow, -MATE, MATE), Step::Test(scale.score(1)));
        // A win: is it quicker than the slowest win (rank 1)?
        assert_eq!(pick(Some(scale), End::Slow, scale.score(1), MATE), Step::Test(scale.score(2)));
        // No win: at least a draw? Then, no draw: is it the slowest loss?
        assert_eq!(pick(Some(scale), End::Slow, -MATE, 0), Step::Test(0));
        assert_eq!(pick(Some(scale), End::Slow, -MATE, -1), Step::Test(scale.score(-1)));
        assert_eq!(pick(Some(scale), End::Slow, scale.score(5), scale.score(5)), Step::Done(scale.score(5)));
        assert_eq!(pick(None, End::Slow, -MATE, MATE), Step::Test(1));
        assert_eq!(pick(None, End::Slow, 1, MATE), Step::Test(2));
        assert_eq!(pick(None, End::Slow, -MATE, -5), Step::Test(-5));
    }

    #[test]
    fn one_thread_tests_from_the_quick_ends_until_only_slow_values_are_left() {
        let scale = Scale::new(42);
        // The whole range: the quick ends' first test.
        assert_eq!(pick(Some(scale), End::Converging, -MATE, MATE), pick(Some(scale), End::Quick, -MATE, MATE));
        // No loss within 36 plies and no win within 32 (ranks -7 to 10, within a quarter of 42 on either side):
        // "a win?", then the slowest values.
        let (low, high) = (scale.score(-7), scale.score(10));
        assert_eq!(pick(Some(scale), End::Converging, low, high), Step::Test(scale.score(1)));
        assert_eq!(pick(Some(scale), End::Converging, scale.score(1), high), Step::Test(scale.score(2)));
        // A win within 21 plies still possible (rank 22): the quick ends go on.
        let high = scale.score(22);
        assert_eq!(pick(Some(scale), End::Converging, low, high), pick(Some(scale), End::Quick, low, high));
        assert_ne!(pick(Some(scale), End::Converging, low, high), pick(Some(scale), End::Slow, low, high));
    }

    #[test]
    fn the_outcome_comes_first() {
        assert_eq!(next_test(-MATE, MATE), 1);
        assert_eq!(next_test(-MATE, 0), 0);
        assert_eq!(next_test(-3, 0), 0);
    }

    #[test]
    fn vast_ranges_are_probed_from_the_quick_end() {
        // A win of unknown remoteness: the first test asks for a win in 1, then 3, 7...
        assert_eq!(next_test(1, MATE), MATE - 1);
        assert_eq!(next_test(1, MATE - 2), MATE - 5);
        // A loss of unknown remoteness: the first test asks for a loss in at least 2 moves.
        assert_eq!(next_test(-MATE, -1), -(MATE - 2));
    }
}
