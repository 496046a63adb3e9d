//! The reports of `ludus games` ([`GamesReport`]: each game's parameters and capabilities, read from its
//! registration without making it) and of `ludus analyze` and `ludus db query` (the framework's
//! [`Analysis`]).

use super::{plies, Report};
use ludus_framework::playable::{Analysis, Capabilities, DatabaseKind, Family, Parameter, ParameterKind, Registration};
use serde::Serialize;
use std::io::{Result, Write};

/// A game's parameter or a plugin's option: name, kind, default, range and help.
#[derive(Clone, Debug, Serialize)]
pub struct ParameterListing {
    /// Its name.
    pub name: &'static str,
    /// `whole`, `choice`, `text` or `switch`.
    pub kind: &'static str,
    /// Its default, as written.
    pub default: String,
    /// What it takes: `min` and `max`, or `choices`; `null` for text.
    pub range: Option<ParameterRange>,
    /// What it means.
    pub help: &'static str,
    /// What it takes, in words (`1 to 9`, `normal or misere`, `on or off`).
    #[serde(skip)]
    pub range_text: String,
}

/// What a parameter takes.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum ParameterRange {
    /// A whole number from `min` to `max`.
    Whole {
        /// The smallest.
        min: u32,
        /// The largest.
        max: u32,
    },
    /// One of the words.
    Choices {
        /// Every word taken.
        choices: &'static [&'static str],
    },
}

impl ParameterListing {
    /// The listing of `parameter`.
    pub fn of(parameter: &Parameter) -> ParameterListing {
        let (kind, range) = match parameter.kind {
            ParameterKind::Whole { min, max, .. } => ("whole", Some(ParameterRange::Whole { min, max })),
            ParameterKind::Choice { choices, .. } => ("choice", Some(ParameterRange::Choices { choices })),
            ParameterKind::Text { .. } => ("text", None),
            ParameterKind::Switch { .. } => ("switch", Some(ParameterRange::Choices { choices: &["on", "off"] })),
        };
        ParameterListing {
            name: parameter.name,
            kind,
            default: parameter.kind.default_text(),
            range,
            help: parameter.help,
            range_text: parameter.kind.range_text(),
        }
    }
}

/// A game as `ludus games` lists it: name, summary, parameters, what it is, its engine, its database, and the
/// commands that take it.
#[derive(Clone, Debug, Serialize)]
pub struct GameListing {
    /// Its name.
    pub name: &'static str,
    /// One line on it.
    pub summary: &'static str,
    /// Its parameters, in the order of its canonical name.
    pub parameters: Vec<ParameterListing>,
    /// What it is: family, chance, whether positions repeat, database kind, board kind.
    #[serde(flatten)]
    pub capabilities: Capabilities,
    /// The engine `--engine auto` runs.
    pub engine: &'static str,
    /// The commands that take it.
    pub commands: Vec<&'static str>,
}

impl GameListing {
    /// The listing of `registration`, from its declaration alone.
    pub fn of(registration: &Registration) -> GameListing {
        let capabilities = registration.capabilities;
        let mut commands = vec!["analyze", "play"];
        if capabilities.database.is_some() {
            commands.extend(["db solve", "db query", "db analyze", "db check", "play --db"]);
        }
        GameListing {
            name: registration.name,
            summary: registration.summary,
            parameters: registration.parameters.iter().map(ParameterListing::of).collect(),
            capabilities,
            engine: capabilities.engine(),
            commands,
        }
    }

    /// What it is, in words: `win/loss/draw, positions repeat, database by tiers`.
    fn described(&self) -> String {
        let capabilities = &self.capabilities;
        let mut words = vec![match (capabilities.family, capabilities.chance) {
            (Family::WinLoss, _) => "win/loss/draw",
            (Family::Scored, false) => "scored",
            (Family::Scored, true) => "scored, with chance",
            (Family::Impartial, _) => "impartial",
        }];
        if capabilities.positions_repeat {
            words.push("positions repeat");
        }
        words.push(match capabilities.database {
            Some(DatabaseKind::Tiered) => "database by tiers",
            Some(DatabaseKind::WholeGame) => "database in one file",
            None => "no database",
        });
        words.join(", ")
    }
}

/// `ludus games`: every game.
#[derive(Clone, Debug, Serialize)]
#[serde(transparent)]
pub struct GamesReport(pub Vec<GameListing>);

impl Report for GamesReport {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        writeln!(
            out,
            "Games to analyse, play and (where `db` is listed) solve into databases; name one with its parameters,"
        )?;
        writeln!(out, "like `connect-four:width=5,height=4` (a parameter left out takes its default):")?;
        for game in &self.0 {
            writeln!(out)?;
            writeln!(out, "{}  {}", game.name, game.summary)?;
            for parameter in &game.parameters {
                let (name, range, default) = (parameter.name, &parameter.range_text, &parameter.default);
                writeln!(out, "    {name:<8} {range} (default {default}): {}", parameter.help)?;
            }
            let database = if game.capabilities.database.is_some() { "; db: solve, query, analyze, check" } else { "" };
            writeln!(out, "    {}; analyze, play: {}{database}", game.described(), game.engine)?;
        }
        Ok(())
    }
}

impl Report for Analysis {
    fn write_text(&self, out: &mut dyn Write) -> Result<()> {
        write!(out, "{}", self.drawing)?;
        let plies = |remoteness: Option<u32>| remoteness.map_or(String::new(), |count| format!(" in {}", plies(count)));
        let nimber = |nimber: Option<u32>, what: &str| nimber.map_or(String::new(), |n| format!(" ({what}nimber {n})"));
        writeln!(
            out,
            "{}: {}{}{} for the player to move",
            self.game,
            self.value,
            plies(self.value.remoteness()),
            nimber(self.value.nimber(), "")
        )?;
        if self.value_only {
            if self.book_values > 0 {
                writeln!(out, "its value from the opening book")?;
            }
            return writeln!(out, "{}", self.stats);
        }
        for mv in &self.moves {
            let after = nimber(mv.value.nimber(), "leaves ");
            let best = if mv.best { "  (best)" } else { "" };
            let book = if mv.book { "  (book)" } else { "" };
            writeln!(out, "  {:>4}  {}{}{after}{best}{book}", mv.mv, mv.value, plies(mv.value.remoteness()))?;
        }
        // The line stops at a chance node: empty at one, where the moves listed are the outcomes.
        let at_chance =
            self.moves.iter().any(|mv| mv.value.expected().is_some_and(|expected| expected.chance.is_some()));
        let line = match (self.line.is_empty(), at_chance) {
            (false, _) => self.line.join(" "),
            (true, _) if self.line_from_book => "(none within the opening book)".to_string(),
            (true, true) => "(none at a chance node)".to_string(),
            (true, false) if self.moves.is_empty() => "(the game is over)".to_string(),
            (true, false) => "(not followed: --line 0)".to_string(),
        };
        let book = if self.line_from_book { "  (the opening book's: it ends where the book does)" } else { "" };
        writeln!(out, "line: {line}{book}")?;
        if self.book_values > 0 {
            writeln!(out, "{} values from the opening book", self.book_values)?;
        }
        writeln!(out, "{}", self.stats)
    }
}
