//! The games people name on the command line, each registered once ([`Registration`]): its typed parameters
//! ([`Parameter`]: name, kind, default, range, help), parsed and checked in one place ([`Arguments::parse`]),
//! its canonical name derived from them (`connect-four:width=5,height=4`, every parameter in declared order),
//! and what can be done with it taken from the objects its `make` builds ([`Made`]): analysed and played
//! always, solved into a database when it was given one, which only a game with tiers and keys a position can
//! be rebuilt from can be (the bounds of [`super::Tiered`] and [`super::WholeGame`]).

use super::PlayableGame;
use crate::error::{Error, Result};
use crate::input::{shorten, shorten_to};

/// How much of a game's name with its parameters an error quotes.
const QUOTED_SPEC: usize = 80;

/// A parameter a game declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// Its name (`width`).
    pub name: &'static str,
    /// What it sets, in a few words.
    pub help: &'static str,
    /// Its type, default and range.
    pub kind: ParameterKind,
}

/// A parameter's type, default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParameterKind {
    /// A whole number from `min` to `max`.
    Whole {
        /// The value when none is given.
        default: u32,
        /// The smallest value.
        min: u32,
        /// The largest value.
        max: u32,
    },
    /// One of a few words.
    Choice {
        /// The word when none is given.
        default: &'static str,
        /// Every word taken.
        choices: &'static [&'static str],
    },
    /// Text that the game reads itself (and checks in `make`).
    Text {
        /// The text when none is given.
        default: &'static str,
    },
    /// On or off; named alone (`weak`), it is on.
    Switch {
        /// Whether it is on when not given.
        default: bool,
    },
}

/// The words a switch takes for on and for off; the first of each is how it is written.
const SWITCH_WORDS: [(&str, bool); 6] =
    [("on", true), ("off", false), ("yes", true), ("no", false), ("true", true), ("false", false)];

/// How a switch is written.
fn switch_text(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

impl ParameterKind {
    /// The default, as written.
    pub fn default_text(&self) -> String {
        match self {
            ParameterKind::Whole { default, .. } => default.to_string(),
            ParameterKind::Choice { default, .. } | ParameterKind::Text { default } => (*default).to_string(),
            ParameterKind::Switch { default } => switch_text(*default).to_string(),
        }
    }

    /// The values taken, as a person reads them (`3 to 5`, `normal or misere`, `text`).
    pub fn range_text(&self) -> String {
        match self {
            ParameterKind::Whole { min, max, .. } => format!("{min} to {max}"),
            ParameterKind::Choice { choices, .. } => choices.join(" or "),
            ParameterKind::Text { .. } => "text".to_string(),
            ParameterKind::Switch { .. } => "on or off".to_string(),
        }
    }
}

/// A parameter's value.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Argument {
    Whole(u32),
    Text(String),
    Switch(bool),
}

/// Every declared parameter of a game named on the command line, with its value: given, or the default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arguments {
    game: &'static str,
    spec: String,
    values: Vec<(&'static str, Argument)>,
}

impl Arguments {
    /// The arguments of `spec` (`name` or `name:key=value,...`) for `registration`: unknown, repeated and
    /// out-of-range parameters are errors that say what is taken.
    pub fn parse(registration: &Registration, spec: &str) -> Result<Arguments> {
        let given = spec.split_once(':').map_or("", |(_, given)| given);
        let (owner, parameters) = (registration.name, registration.parameters);
        Arguments::parse_declared((owner, "parameter", parameters), shorten_to(spec, QUOTED_SPEC), given.split(','))
    }

    /// The arguments `given` (each `key=value`, or a switch's name alone) for the `parameters` that `owner`
    /// declares, each called a `noun` in messages (`parameter`, `option`): unknown, repeated and out-of-range
    /// ones are errors that say what is taken. `quoted` is what the messages quote.
    pub(crate) fn parse_declared<'text>(
        (owner, noun, parameters): (&'static str, &str, &'static [Parameter]),
        quoted: String,
        given: impl IntoIterator<Item = &'text str>,
    ) -> Result<Arguments> {
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for pair in given.into_iter().filter(|pair| !pair.trim().is_empty()) {
            let (key, value) = match pair.split_once('=') {
                Some((key, value)) => (key.trim(), Some(value.trim())),
                None => (pair.trim(), None),
            };
            let Some(parameter) = parameters.iter().find(|parameter| parameter.name == key) else {
                let names: Vec<&str> = parameters.iter().map(|parameter| parameter.name).collect();
                let names = if names.is_empty() { "none".to_string() } else { names.join(", ") };
                return Err(Error::Parameter(format!(
                    "{owner} has no {noun} `{}` (its {noun}s: {names})",
                    shorten(key)
                )));
            };
            let value = match (value, parameter.kind) {
                (Some(value), _) => value,
                (None, ParameterKind::Switch { .. }) => switch_text(true),
                (None, _) => {
                    return Err(Error::Parameter(format!("{quoted}: expected `key=value`, found `{}`", shorten(pair))))
                }
            };
            if pairs.iter().any(|(known, _)| *known == key) {
                return Err(Error::Parameter(format!("{quoted}: `{key}` is given twice")));
            }
            pairs.push((key, value));
        }
        let mut arguments = Arguments::defaults_of(owner, parameters);
        for (parameter, (name, value)) in parameters.iter().zip(arguments.values.iter_mut()) {
            let Some(text) = pairs.iter().find(|(key, _)| *key == *name).map(|(_, text)| *text) else { continue };
            *value = match parameter.kind {
                ParameterKind::Whole { min, max, .. } => match text.parse::<u32>() {
                    Ok(number) if (min..=max).contains(&number) => Argument::Whole(number),
                    _ => {
                        return Err(Error::Parameter(format!(
                            "{quoted}: `{name}` is a whole number from {min} to {max}, found `{}`",
                            shorten(text)
                        )))
                    }
                },
                ParameterKind::Choice { choices, .. } if !choices.contains(&text) => {
                    return Err(Error::Parameter(format!(
                        "{quoted}: `{name}` is {}, found `{}`",
                        choices.join(" or "),
                        shorten(text)
                    )))
                }
                ParameterKind::Choice { .. } | ParameterKind::Text { .. } => Argument::Text(text.to_string()),
                ParameterKind::Switch { .. } => match SWITCH_WORDS.iter().find(|(word, _)| *word == text) {
                    Some(&(_, on)) => Argument::Switch(on),
                    None => {
                        return Err(Error::Parameter(format!(
                            "{quoted}: `{name}` is on or off, found `{}`",
                            shorten(text)
                        )))
                    }
                },
            };
        }
        arguments.spec = quoted;
        Ok(arguments)
    }

    /// The arguments of `registration` with every parameter at its default.
    pub fn defaults(registration: &Registration) -> Arguments {
        Arguments::defaults_of(registration.name, registration.parameters)
    }

    /// The arguments of `owner`'s `parameters`, each at its default.
    fn defaults_of(owner: &'static str, parameters: &'static [Parameter]) -> Arguments {
        let values = parameters
            .iter()
            .map(|parameter| {
                let value = match parameter.kind {
                    ParameterKind::Whole { default, .. } => Argument::Whole(default),
                    ParameterKind::Choice { default, .. } | ParameterKind::Text { default } => {
                        Argument::Text(default.to_string())
                    }
                    ParameterKind::Switch { default } => Argument::Switch(default),
                };
                (parameter.name, value)
            })
            .collect();
        Arguments { game: owner, spec: owner.to_string(), values }
    }

    /// The whole-number parameter `name` (declared [`ParameterKind::Whole`]).
    pub fn whole(&self, name: &str) -> Result<u32> {
        match self.value(name)? {
            Argument::Whole(number) => Ok(*number),
            _ => Err(registration_broken(format!("{}: `{name}` is not a whole number", self.game))),
        }
    }

    /// Whether the switch `name` (declared [`ParameterKind::Switch`]) is on.
    pub fn switch(&self, name: &str) -> Result<bool> {
        match self.value(name)? {
            Argument::Switch(on) => Ok(*on),
            _ => Err(registration_broken(format!("{}: `{name}` is not a switch", self.game))),
        }
    }

    /// The text of parameter `name` (declared [`ParameterKind::Choice`] or [`ParameterKind::Text`]).
    pub fn text(&self, name: &str) -> Result<&str> {
        match self.value(name)? {
            Argument::Text(text) => Ok(text),
            Argument::Whole(_) | Argument::Switch(_) => {
                Err(registration_broken(format!("{}: `{name}` is not text", self.game)))
            }
        }
    }

    fn value(&self, name: &str) -> Result<&Argument> {
        self.values
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, value)| value)
            .ok_or_else(|| registration_broken(format!("{} declares no parameter `{name}`", self.game)))
    }

    /// The canonical name: the game's, and every parameter in declared order (`connect-four:width=5,height=4`).
    /// Equal games have equal names: it is written into database files and names their folder.
    pub fn canonical_name(&self) -> String {
        if self.values.is_empty() {
            return self.game.to_string();
        }
        let values: Vec<String> = self
            .values
            .iter()
            .map(|(name, value)| match value {
                Argument::Whole(number) => format!("{name}={number}"),
                Argument::Text(text) => format!("{name}={text}"),
                Argument::Switch(on) => format!("{name}={}", switch_text(*on)),
            })
            .collect();
        format!("{}:{}", self.game, values.join(","))
    }

    /// The spec as typed, for messages: cut to its first 80 characters, control characters escaped.
    pub fn spec(&self) -> &str {
        &self.spec
    }
}

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
        (self.make)(&Arguments::parse(self, spec)?)
    }

    /// The game with every parameter at its default.
    pub fn make_default(&self) -> Result<Made> {
        (self.make)(&Arguments::defaults(self))
    }
}

/// The error of a registration whose `make` reads a parameter it does not declare, or reads it as another kind.
fn registration_broken(detail: String) -> Error {
    Error::Contract { contract: "Registration", detail }
}

/// The registration of `registrations` named by `spec`'s name, or an error listing the known names.
pub fn find_registration<'list>(registrations: &'list [Registration], spec: &str) -> Result<&'list Registration> {
    let name = spec.split_once(':').map_or(spec, |(name, _)| name);
    registrations.iter().find(|registration| registration.name == name).ok_or_else(|| {
        let names: Vec<&str> = registrations.iter().map(|registration| registration.name).collect();
        Error::Parameter(format!("no game `{}` (available: {})", shorten(name), names.join(", ")))
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
            make: |_| Err(Error::Internal("not made in this test".into())),
        }
    }

    #[test]
    fn arguments_are_typed_checked_and_named_canonically() {
        let arguments = Arguments::parse(&registration(), "game").unwrap();
        assert_eq!(arguments.canonical_name(), "game:width=7,play=normal,code=0.77,fast=off");
        let arguments = Arguments::parse(&registration(), "game:code=0.07, play=misere,fast,width=09").unwrap();
        assert_eq!(arguments.canonical_name(), "game:width=9,play=misere,code=0.07,fast=on");
        assert_eq!((arguments.whole("width").unwrap(), arguments.text("play").unwrap()), (9, "misere"));
        assert!(arguments.switch("fast").unwrap());
        assert!(!Arguments::parse(&registration(), "game:fast=no").unwrap().switch("fast").unwrap());
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
            let error = Arguments::parse(&registration(), spec).unwrap_err().to_string();
            assert!(error.contains(message), "{spec}: {error}");
        }
        let registrations = [registration()];
        assert!(find_registration(&registrations, "game:width=3").is_ok());
        let error = find_registration(&registrations, "chess").unwrap_err().to_string();
        assert_eq!(error, "no game `chess` (available: game)");
    }
}
