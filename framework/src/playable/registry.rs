//! The games people name on the command line, each registered once ([`Registration`]): its typed parameters
//! ([`Parameter`]: name, kind, default, range, help), parsed and checked in one place ([`Arguments::parse`]),
//! its canonical name derived from them (`connect-four:width=5,height=4`, every parameter in declared order),
//! and what can be done with it taken from the objects its `make` builds ([`Made`]): analysed and played
//! always, solved into a database when it was given one, which only a game with tiers and keys a position can
//! be rebuilt from can be (the bounds of [`super::Tiered`] and [`super::WholeGame`]).

use super::PlayableGame;
use crate::error::{Error, Result};
use crate::input::shorten;
pub use crate::parameters::{Arguments, Parameter, ParameterKind};

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
