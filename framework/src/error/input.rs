//! The errors of input: malformed input with its file, line and column ([`InputError`]), a record's illegal
//! move ([`IllegalMove`]), a text that is not a position or a move ([`ParseError`]: where in the text, and
//! what was expected there), and how a quoted piece of input is shortened to one readable line.

use std::fmt;

/// Malformed input: where it is and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// The file name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// Where in the input's structure (for example "case 3"), possibly empty.
    pub context: String,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if !self.context.is_empty() {
            write!(f, "{}: ", self.context)?;
        }
        write!(f, "{}", self.message)
    }
}

/// A record that cannot be replayed: the move at `ply` is illegal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {} of the record is illegal", .ply + 1)]
pub struct IllegalMove {
    /// 0-based index of the illegal move.
    pub ply: usize,
}

/// A text that is not a position, a move or a component of a game: where in the text, and what was expected
/// there. Made by [`ParseError::expected`], [`ParseError::refused`] and [`ParseError::game_over`], placed by
/// [`ParseError::at`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Where in the text, outermost first (`move 3`, then a character of it); empty when the text is one thing.
    pub place: Vec<TextPlace>,
    /// What is wrong there.
    pub problem: ParseProblem,
}

/// A place in a text read as a position or a line of moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextPlace {
    /// The n-th move of a line of moves (from 1).
    Move(usize),
    /// The n-th move of a line given as a list of move texts (from 1), quoted: the explorer's moves.
    Quoted(usize, String),
    /// The n-th character (from 1).
    Character(usize),
    /// The n-th row of a board (from 1, at the top).
    Row(usize),
    /// The n-th component of a sum (from 1).
    Component(usize),
}

/// What is wrong with a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseProblem {
    /// The text is not of the form expected: what was expected, and the part of the text found instead (if the
    /// text has parts).
    Expected {
        /// What was expected (`a column from 1 to 7`).
        what: String,
        /// What was found, as written (shortened and escaped where it is shown).
        found: Option<String>,
    },
    /// The text has the expected form, but what it names is not allowed here (`column 7 is full`).
    Refused(String),
    /// No move is legal: the game is over.
    GameOver,
}

impl ParseError {
    /// A text that is not `what` was expected: `found` is the text (or the part of it) found instead.
    pub fn expected(what: impl Into<String>, found: &str) -> ParseError {
        ParseError {
            place: Vec::new(),
            problem: ParseProblem::Expected { what: what.into(), found: Some(found.to_string()) },
        }
    }

    /// A text that is not `what` was expected, no single part of it to quote.
    pub fn expected_only(what: impl Into<String>) -> ParseError {
        ParseError { place: Vec::new(), problem: ParseProblem::Expected { what: what.into(), found: None } }
    }

    /// A text of the right form that names what is not allowed: `why`.
    pub fn refused(why: impl Into<String>) -> ParseError {
        ParseError { place: Vec::new(), problem: ParseProblem::Refused(why.into()) }
    }

    /// A move asked for at a finished position.
    pub fn game_over() -> ParseError {
        ParseError { place: Vec::new(), problem: ParseProblem::GameOver }
    }

    /// The same error, found at `place` of an outer text (`move 3` of a line).
    #[must_use]
    pub fn at(mut self, place: TextPlace) -> ParseError {
        self.place.insert(0, place);
        self
    }
}

impl fmt::Display for TextPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextPlace::Move(index) => write!(f, "move {index}"),
            TextPlace::Quoted(index, text) => write!(f, "move {index} (`{}`)", shorten(text)),
            TextPlace::Character(index) => write!(f, "at character {index}"),
            TextPlace::Row(index) => write!(f, "row {index}"),
            TextPlace::Component(index) => write!(f, "component {index}"),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for place in &self.place {
            write!(f, "{place}: ")?;
        }
        match &self.problem {
            ParseProblem::Expected { what, found: Some(found) } => {
                write!(f, "expected {what}, found `{}`", shorten(found))
            }
            ParseProblem::Expected { what, found: None } => write!(f, "expected {what}"),
            ParseProblem::Refused(why) => f.write_str(why),
            ParseProblem::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for ParseError {}

/// `text` as it may be quoted in an error: cut to its first 24 characters (with `...` if it was longer), and
/// with control characters (NUL, escape, line breaks...) and invisible ones (a byte-order mark) escaped, so
/// that an error line stays one short, readable line whatever the input holds.
pub fn shorten(text: &str) -> String {
    shorten_to(text, 24)
}

/// [`shorten`] to the first `characters` characters: for quoting what is usually longer than a token, such
/// as a game's name with its parameters.
pub fn shorten_to(text: &str, characters: usize) -> String {
    let mut out = String::new();
    for (index, character) in text.chars().enumerate() {
        if index == characters {
            out.push_str("...");
            break;
        }
        if character.is_control() || matches!(character, '\u{feff}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}')
        {
            out.extend(character.escape_unicode());
        } else {
            out.push(character);
        }
    }
    out
}
