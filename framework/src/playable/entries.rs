//! The games people can name on the command line: [`Entry`] (a name, a summary, declared parameters and how the
//! object is made), [`Parameters`] (`connect-four:width=5,height=4`, checked against the declared ones) and
//! [`find_entry`].

use super::PlayableGame;
use crate::error::{Error, Result};
use crate::input::{shorten, shorten_to};

/// How much of a game's name with its parameters an error quotes.
const QUOTED_SPEC: usize = 80;

/// The parameters of a game named on the command line (`connect-four:width=5,height=4`), checked against the
/// ones the game declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameters {
    spec: String,
    values: Vec<(String, String)>,
}

impl Parameters {
    /// A whole-number parameter, or `default` when it is not given.
    pub fn number(&self, key: &str, default: u32) -> Result<u32> {
        match self.values.iter().find(|(found, _)| found == key) {
            None => Ok(default),
            Some((_, value)) => value.parse().map_err(|_| {
                Error::Unsupported(format!(
                    "{}: `{key}` must be a whole number, found `{}`",
                    self.spec(),
                    shorten(value)
                ))
            }),
        }
    }

    /// A parameter as written, or `default` when it is not given.
    pub fn text(&self, key: &str, default: &str) -> String {
        self.values.iter().find(|(found, _)| found == key).map_or(default.to_string(), |(_, value)| value.clone())
    }

    /// The spec as typed, for messages: cut to its first 80 characters, control characters escaped.
    pub fn spec(&self) -> String {
        shorten_to(&self.spec, QUOTED_SPEC)
    }
}

/// A game people can name: what the CLI lists, and how it is made from its parameters, as the object `Made`
/// ([`GameEntry`] makes a [`PlayableGame`]; a database entry makes a game that can be solved into a database).
#[derive(Debug)]
pub struct Entry<Made: ?Sized + 'static> {
    /// The name typed on the command line.
    pub name: &'static str,
    /// One line on the game and how its positions are written.
    pub summary: &'static str,
    /// Its parameters with their defaults (`width=7,height=6`), empty if none.
    pub parameters: &'static str,
    /// The game for these parameters (an error for values out of range).
    pub make: fn(&Parameters) -> Result<Box<Made>>,
}

impl<Made: ?Sized> Clone for Entry<Made> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Made: ?Sized> Copy for Entry<Made> {}

/// A game people can name, analyse and play.
pub type GameEntry = Entry<dyn PlayableGame>;

/// The game of `entries` named by `spec` (`name` or `name:key=value,...`); unknown names and parameters are
/// errors that list the known ones.
pub fn find_game(entries: &[GameEntry], spec: &str) -> Result<Box<dyn PlayableGame>> {
    find_entry(entries, spec)
}

/// The object of `entries` named by `spec` (`name` or `name:key=value,...`); unknown names and parameters are
/// errors that list the known ones.
pub fn find_entry<Made: ?Sized>(entries: &[Entry<Made>], spec: &str) -> Result<Box<Made>> {
    let (name, given) = spec.split_once(':').unwrap_or((spec, ""));
    let entry = entries.iter().find(|entry| entry.name == name).ok_or_else(|| {
        let names: Vec<&str> = entries.iter().map(|entry| entry.name).collect();
        Error::Unsupported(format!("no game `{}` (available: {})", shorten(name), names.join(", ")))
    })?;
    let known: Vec<&str> = entry.parameters.split(',').filter_map(|pair| pair.split('=').next()).collect();
    let mut values = Vec::new();
    for pair in given.split(',').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').ok_or_else(|| {
            Error::Unsupported(format!(
                "{}: expected `key=value`, found `{}`",
                shorten_to(spec, QUOTED_SPEC),
                shorten(pair)
            ))
        })?;
        if !known.contains(&key.trim()) {
            let declared = if entry.parameters.is_empty() { "none" } else { entry.parameters };
            return Err(Error::Unsupported(format!(
                "{name} has no parameter `{}` (its parameters: {declared})",
                shorten(key.trim())
            )));
        }
        if values.iter().any(|(known, _): &(String, String)| known == key.trim()) {
            return Err(Error::Unsupported(format!(
                "{}: `{}` is given twice",
                shorten_to(spec, QUOTED_SPEC),
                key.trim()
            )));
        }
        values.push((key.trim().to_string(), value.trim().to_string()));
    }
    (entry.make)(&Parameters { spec: spec.to_string(), values })
}
