//! The games people name on the command line, each registered once ([`Registration`]): its typed parameters
//! ([`Parameter`]: name, kind, default, range, help), parsed and checked in one place ([`Arguments::parse`]),
//! its canonical name derived from them (`connect-four:width=5,height=4`, every parameter in declared order),
//! what it is and what can be done with it declared as data ([`Capabilities`]: family, chance, repetition,
//! database, board), so that listing games builds none, and the objects its `make` builds ([`Made`]): analysed
//! and played always, solved into a database when it was given one, which only a game with tiers and keys a
//! position can be rebuilt from can be (the bounds of [`super::Tiered`] and [`super::WholeGame`]).
//!
//! Invariant: a registration's declared [`Capabilities`] are those of what it makes, for every choice of its
//! parameters ([`Registration::check`], which every registry's tests call).

use super::PlayableGame;
pub use crate::board::BoardKind;
use crate::error::{Error, Result};
use crate::input::shorten;
pub use crate::parameters::{Arguments, Parameter, ParameterKind};
use serde::Serialize;

/// What a registration makes of its arguments: the game to analyse and play, and its database if it has one.
pub struct Made {
    /// The game analysed and played (`ludus analyze`, `ludus play`).
    pub playable: Box<dyn PlayableGame>,
    /// The game solved into a database (`ludus db`), for games with tiers and keys a position can be rebuilt
    /// from.
    #[cfg(feature = "database")]
    pub database: Option<Box<dyn super::DatabaseGame>>,
}

impl Made {
    /// A game analysed and played, with no database.
    pub fn playable(playable: impl PlayableGame + 'static) -> Made {
        Made {
            playable: Box::new(playable),
            #[cfg(feature = "database")]
            database: None,
        }
    }

    /// The same, solved into a database by `database`.
    #[cfg(feature = "database")]
    #[must_use]
    pub fn with_database(self, database: impl super::DatabaseGame + 'static) -> Made {
        Made { database: Some(Box::new(database)), ..self }
    }

    /// `playable`, analysed and played, and solved into a database by `storage` (one game for both).
    #[cfg(feature = "database")]
    pub fn solvable<Ruleset, Worth, Kind>(playable: super::Playable<Ruleset, Worth>, storage: Kind) -> Made
    where
        Ruleset: crate::text::TextForm + Clone + Send + Sync + 'static,
        Ruleset::Position: Send + Sync,
        Worth: crate::analysis::SearchValue + Send + Sync + 'static,
        Kind: super::Storage<Ruleset, Worth> + 'static,
    {
        Made::playable(playable.clone()).with_database(super::Solvable::new(playable, storage))
    }

    /// What was made: the playable game's capabilities, with its database's kind.
    pub fn capabilities(&self) -> Capabilities {
        let capabilities = self.playable.capabilities();
        #[cfg(feature = "database")]
        let capabilities =
            Capabilities { database: self.database.as_ref().map(|database| database.kind()), ..capabilities };
        capabilities
    }
}

/// The family of a game: what its values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// Won, lost or drawn, with the plies to the end ([`crate::Game`]).
    WinLoss,
    /// A score at the end, whose turns need not alternate ([`crate::scored::ScoredGame`]); with chance, the expected
    /// score (a probability of winning when only a win or a loss scores).
    Scored,
    /// An impartial game ([`crate::Impartial`]): a nimber under normal play; won or lost with the plies to the
    /// end under misère play.
    Impartial,
}

/// How a game's database is laid out on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DatabaseKind {
    /// A file of values per tier, solved tier by tier ([`super::Tiered`]): a win/loss game's values and
    /// remoteness.
    Tiered,
    /// Every position's value in one file ([`super::WholeGame`]): a scored game's scores.
    WholeGame,
}

/// What a game is and what can be done with it, as its registration declares it: listed (`ludus games`, the
/// server's `/api/games`) without making the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Capabilities {
    /// Its family.
    pub family: Family,
    /// Whether chance moves (dice) come between the players' moves.
    pub chance: bool,
    /// Whether a position can come back ([`crate::Rules::POSITIONS_REPEAT`]).
    pub positions_repeat: bool,
    /// Its database's kind, if it can be solved into one.
    pub database: Option<DatabaseKind>,
    /// The kind of board the explorer draws, if it draws one (else its positions are shown as text).
    pub board: Option<BoardKind>,
}

impl Capabilities {
    /// A win/loss game whose positions never repeat, with no database and no board: the start of a
    /// declaration, filled in by the methods below.
    pub const fn win_loss() -> Capabilities {
        Capabilities { family: Family::WinLoss, chance: false, positions_repeat: false, database: None, board: None }
    }

    /// A scored game without chance, with no database and no board.
    pub const fn scored() -> Capabilities {
        Capabilities { family: Family::Scored, ..Capabilities::win_loss() }
    }

    /// An impartial game, with no database and no board.
    pub const fn impartial() -> Capabilities {
        Capabilities { family: Family::Impartial, ..Capabilities::win_loss() }
    }

    /// The same, with chance moves.
    #[must_use]
    pub const fn with_chance(self) -> Capabilities {
        Capabilities { chance: true, ..self }
    }

    /// The same, whose positions repeat.
    #[must_use]
    pub const fn repeating(self) -> Capabilities {
        Capabilities { positions_repeat: true, ..self }
    }

    /// The same, with a database of kind `kind`.
    #[must_use]
    pub const fn with_database(self, kind: DatabaseKind) -> Capabilities {
        Capabilities { database: Some(kind), ..self }
    }

    /// The same, drawn as a board of kind `kind`.
    #[must_use]
    pub const fn with_board(self, kind: BoardKind) -> Capabilities {
        Capabilities { board: Some(kind), ..self }
    }

    /// The engine an analysis runs by default (`--engine auto`): the family's, by whether positions repeat
    /// and chance.
    pub fn engine(&self) -> &'static str {
        match (self.family, self.chance, self.positions_repeat) {
            (Family::WinLoss, _, false) => "alpha-beta",
            (Family::WinLoss, _, true) => "retrograde",
            (Family::Scored, false, _) => "scored-alpha-beta",
            (Family::Scored, true, false) => "expectimax",
            (Family::Scored, true, true) => "value-iteration",
            (Family::Impartial, _, _) => "sprague-grundy",
        }
    }
}

/// A game people can name: what `ludus games` lists, and how it is made from its arguments.
#[derive(Clone, Copy, Debug)]
pub struct Registration {
    /// The name typed on the command line.
    pub name: &'static str,
    /// One line on the game and how its positions are written.
    pub summary: &'static str,
    /// Its parameters, in the order of its canonical name.
    pub parameters: &'static [Parameter],
    /// What it is and what can be done with it, for every choice of its parameters.
    pub capabilities: Capabilities,
    /// The game for these arguments (an error for a combination out of range).
    pub make: fn(&Arguments) -> Result<Made>,
}

impl Registration {
    /// The game named by `spec` (`name` or `name:key=value,...`; the name must be this one's).
    pub fn make(&self, spec: &str) -> Result<Made> {
        (self.make)(&Arguments::parse(self.name, self.parameters, spec)?)
    }

    /// The game with every parameter at its default.
    pub fn make_default(&self) -> Result<Made> {
        (self.make)(&Arguments::defaults(self.name, self.parameters))
    }

    /// Checks the declared capabilities against what the registration makes: at its defaults, and with each
    /// choice or switch of a parameter set otherwise (the others at their defaults). An [`Error::Contract`]
    /// names the arguments and what differs.
    pub fn check(&self) -> Result<()> {
        let mut specs = vec![self.name.to_string()];
        for parameter in self.parameters {
            let values: Vec<&str> = match parameter.kind {
                ParameterKind::Choice { choices, .. } => choices.to_vec(),
                ParameterKind::Switch { .. } => vec!["on", "off"],
                ParameterKind::Whole { .. } | ParameterKind::Text { .. } => Vec::new(),
            };
            specs.extend(values.into_iter().map(|value| format!("{}:{}={value}", self.name, parameter.name)));
        }
        for spec in specs {
            let made = self.make(&spec)?.capabilities();
            if made != self.capabilities {
                return Err(Error::Contract {
                    contract: "Registration",
                    detail: format!("`{}` declares {:?}, but `{spec}` makes {made:?}", self.name, self.capabilities),
                });
            }
        }
        Ok(())
    }
}

/// The registration of `registrations` named by `spec`'s name, or an error listing the known names.
pub fn find_registration<'list>(registrations: &'list [Registration], spec: &str) -> Result<&'list Registration> {
    let name = spec.split_once(':').map_or(spec, |(name, _)| name);
    registrations.iter().find(|registration| registration.name == name).ok_or_else(|| {
        let names: Vec<&str> = registrations.iter().map(|registration| registration.name).collect();
        Error::parameter(name, format!("no game `{}` (available: {})", shorten(name), names.join(", ")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARAMETERS: &[Parameter] = &[
        Parameter { name: "width", help: "columns", kind: ParameterKind::Whole { default: 7, min: 1, max: 9 } },
        Parameter {
            name: "play",
            help: "who wins at the end",
            kind: ParameterKind::Choice { default: "normal", choices: &["normal", "misere"] },
        },
        Parameter { name: "code", help: "the code", kind: ParameterKind::Text { default: "0.77" } },
        Parameter { name: "fast", help: "a switch", kind: ParameterKind::Switch { default: false } },
    ];

    fn registration() -> Registration {
        Registration {
            name: "game",
            summary: "a test",
            parameters: PARAMETERS,
            capabilities: Capabilities::win_loss(),
            make: |_| Err(Error::internal("playable", "not made in this test")),
        }
    }

    #[test]
    fn arguments_are_typed_checked_and_named_canonically() {
        let arguments = Arguments::parse("game", PARAMETERS, "game").unwrap();
        assert_eq!(arguments.canonical_name(), "game:width=7,play=normal,code=0.77,fast=off");
        let arguments = Arguments::parse("game", PARAMETERS, "game:code=0.07, play=misere,fast,width=09").unwrap();
        assert_eq!(arguments.canonical_name(), "game:width=9,play=misere,code=0.07,fast=on");
        assert_eq!((arguments.whole("width").unwrap(), arguments.text("play").unwrap()), (9, "misere"));
        assert!(arguments.switch("fast").unwrap());
        assert!(!Arguments::parse("game", PARAMETERS, "game:fast=no").unwrap().switch("fast").unwrap());
        assert!(arguments.whole("play").is_err() && arguments.text("height").is_err());
        assert!(arguments.switch("width").is_err() && arguments.text("fast").is_err());
        for (spec, message) in [
            ("game:width=10", "`width` is a whole number from 1 to 9, found `10`"),
            ("game:width=-1", "from 1 to 9, found `-1`"),
            ("game:play=sometimes", "`play` is normal or misere, found `sometimes`"),
            ("game:depth=3", "game has no parameter `depth` (its parameters: width, play, code, fast)"),
            ("game:depth", "game has no parameter `depth`"),
            ("game:fast=sometimes", "`fast` is on or off, found `sometimes`"),
            ("game:fast,fast=off", "`fast` is given twice"),
            ("game:width=3,width=4", "`width` is given twice"),
            ("game:width", "expected `key=value`, found `width`"),
        ] {
            let error = Arguments::parse("game", PARAMETERS, spec).unwrap_err().to_string();
            assert!(error.contains(message), "{spec}: {error}");
        }
        let registrations = [registration()];
        assert!(find_registration(&registrations, "game:width=3").is_ok());
        let error = find_registration(&registrations, "chess").unwrap_err().to_string();
        assert_eq!(error, "no game `chess` (available: game)");
    }
}
