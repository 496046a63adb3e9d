//! The vocabulary of the game: a [`Card`] and a move ([`Step`]) as the solvers play them and the answers
//! write them.

/// A card: its value and suit (both from 1 to 50,000).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Card {
    /// The value (higher beats lower within a suit).
    pub value: u32,
    /// The suit.
    pub suit: u32,
}

/// A move of the game; stacks are numbered from 0 here and from 1 in the output (`remove 2`, `move 1 2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Remove the top card of `stack`.
    Remove {
        /// The stack.
        stack: usize,
    },
    /// Move the top card of `from` onto the empty stack `to`.
    Transfer {
        /// The stack the card leaves.
        from: usize,
        /// The empty stack it goes to.
        to: usize,
    },
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Step::Remove { stack } => write!(f, "remove {}", stack + 1),
            Step::Transfer { from, to } => write!(f, "move {} {}", from + 1, to + 1),
        }
    }
}

/// A move of a winning line and the line it is written on: its line in the answer file it was read from, or,
/// for a line just solved, counted from the case's `Case #x:` line (line 1). The JSON output writes the move
/// alone (`"remove 2"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineMove {
    /// The move.
    pub step: Step,
    /// Its line.
    pub line: usize,
}

impl serde::Serialize for LineMove {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.step)
    }
}
