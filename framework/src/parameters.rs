//! Typed parameters, declared once and parsed in one place: a game's (`connect-four:width=5,height=4`) and a
//! plugin's options (`--option weak`) alike. [`Parameter`] declares one (name, help, kind: a whole number with
//! its range, a choice of words, text, a switch; its default); [`Arguments`] are the values given, checked
//! against the declaration, and name the game canonically (every parameter in declared order, so that equal
//! games have equal names).

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
    /// The arguments of `spec` (`name` or `name:key=value,...`) for the `parameters` that the game `owner`
    /// declares: unknown, repeated and out-of-range parameters are errors that say what is taken.
    pub fn parse(owner: &'static str, parameters: &'static [Parameter], spec: &str) -> Result<Arguments> {
        let given = spec.split_once(':').map_or("", |(_, given)| given);
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
                let reason = format!("{owner} has no {noun} `{}` (its {noun}s: {names})", shorten(key));
                return Err(Error::parameter(key, reason));
            };
            let value = match (value, parameter.kind) {
                (Some(value), _) => value,
                (None, ParameterKind::Switch { .. }) => switch_text(true),
                (None, _) => {
                    return Err(Error::parameter(
                        pair,
                        format!("{quoted}: expected `key=value`, found `{}`", shorten(pair)),
                    ))
                }
            };
            if pairs.iter().any(|(known, _)| *known == key) {
                return Err(Error::parameter(key, format!("{quoted}: `{key}` is given twice")));
            }
            pairs.push((key, value));
        }
        let mut arguments = Arguments::defaults(owner, parameters);
        for (parameter, (name, value)) in parameters.iter().zip(arguments.values.iter_mut()) {
            let Some(text) = pairs.iter().find(|(key, _)| *key == *name).map(|(_, text)| *text) else { continue };
            *value = match parameter.kind {
                ParameterKind::Whole { min, max, .. } => match text.parse::<u32>() {
                    Ok(number) if (min..=max).contains(&number) => Argument::Whole(number),
                    _ => {
                        return Err(Error::parameter(
                            *name,
                            format!(
                                "{quoted}: `{name}` is a whole number from {min} to {max}, found `{}`",
                                shorten(text)
                            ),
                        ))
                    }
                },
                ParameterKind::Choice { choices, .. } if !choices.contains(&text) => {
                    return Err(Error::parameter(
                        *name,
                        format!("{quoted}: `{name}` is {}, found `{}`", choices.join(" or "), shorten(text)),
                    ))
                }
                ParameterKind::Choice { .. } | ParameterKind::Text { .. } => Argument::Text(text.to_string()),
                ParameterKind::Switch { .. } => match SWITCH_WORDS.iter().find(|(word, _)| *word == text) {
                    Some(&(_, on)) => Argument::Switch(on),
                    None => {
                        return Err(Error::parameter(
                            *name,
                            format!("{quoted}: `{name}` is on or off, found `{}`", shorten(text)),
                        ))
                    }
                },
            };
        }
        arguments.spec = quoted;
        Ok(arguments)
    }

    /// The arguments of `owner`'s `parameters`, each at its default.
    pub fn defaults(owner: &'static str, parameters: &'static [Parameter]) -> Arguments {
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

/// The error of a game whose `make` reads a parameter it does not declare, or reads it as another kind.
fn registration_broken(detail: String) -> Error {
    Error::Contract { contract: "Registration", detail }
}
