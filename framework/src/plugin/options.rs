//! A plugin's own options (`ludus solve connect-four --option weak`): the plugin declares them as typed
//! [`Parameter`]s ([`super::Problem::OPTIONS`]: name, help, kind, default), a solve is given them as text
//! ([`PluginOptions`] in [`super::SolveOptions`]), and they are parsed and checked against the declaration in
//! one place, by the parser of game parameters ([`Arguments`]).

use crate::error::Result;
use crate::parameters::{Arguments, Parameter};

/// The options given to a plugin for one solve, as typed (`weak`, `key=value`): checked only against the
/// plugin's declared options ([`PluginOptions::parse`]), which the driver does before any case is solved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PluginOptions {
    given: Vec<String>,
}

impl PluginOptions {
    /// The options `given`, each `name=value` or a switch's name alone.
    pub fn new(given: impl IntoIterator<Item = impl Into<String>>) -> Self {
        PluginOptions { given: given.into_iter().map(Into::into).collect() }
    }

    /// The same options and one more (`weak`, `name=value`).
    #[must_use]
    pub fn with(mut self, option: impl Into<String>) -> Self {
        self.given.push(option.into());
        self
    }

    /// The options as given.
    pub fn given(&self) -> &[String] {
        &self.given
    }

    /// The name of an option as given (`weak` of `weak=off`).
    fn name_of(option: &str) -> &str {
        option.split_once('=').map_or(option, |(name, _)| name)
    }

    /// Those of the options that `declared` names: what one plugin of several is given when the same options
    /// go to each (`ludus check all --option witness`).
    #[must_use]
    pub fn declared_in(&self, declared: &[Parameter]) -> PluginOptions {
        let given =
            self.given.iter().filter(|option| declared.iter().any(|parameter| parameter.name == Self::name_of(option)));
        PluginOptions { given: given.cloned().collect() }
    }

    /// The first option given that none of `declarations` names, if any.
    pub fn undeclared<'given>(&'given self, declarations: &[&[Parameter]]) -> Option<&'given str> {
        self.given
            .iter()
            .map(|option| Self::name_of(option))
            .find(|name| !declarations.iter().any(|declared| declared.iter().any(|parameter| parameter.name == *name)))
    }

    /// The value of every option `owner` declares (given, or its default): an unknown option is an error that
    /// names it and lists the declared ones; a repeated or out-of-range one an error that says what is taken.
    pub fn parse(&self, owner: &'static str, declared: &'static [Parameter]) -> Result<Arguments> {
        let quoted = format!("{owner}'s options");
        Arguments::parse_declared((owner, "option", declared), quoted, self.given.iter().map(String::as_str))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parameters::ParameterKind;

    const OPTIONS: &[Parameter] =
        &[Parameter { name: "weak", help: "win, draw or loss only", kind: ParameterKind::Switch { default: false } }];

    #[test]
    fn options_are_checked_against_the_declared_ones() {
        assert!(!PluginOptions::default().parse("game", OPTIONS).unwrap().switch("weak").unwrap());
        assert!(PluginOptions::new(["weak"]).parse("game", OPTIONS).unwrap().switch("weak").unwrap());
        assert!(!PluginOptions::new(["weak=off"]).parse("game", OPTIONS).unwrap().switch("weak").unwrap());
        let unknown = PluginOptions::default().with("deep").parse("game", OPTIONS).unwrap_err().to_string();
        assert_eq!(unknown, "game has no option `deep` (its options: weak)");
        let none = PluginOptions::new(["weak"]).parse("puzzle", &[]).unwrap_err().to_string();
        assert_eq!(none, "puzzle has no option `weak` (its options: none)");
        let given = PluginOptions::new(["weak=off", "deep"]);
        assert_eq!(given.declared_in(OPTIONS).given(), ["weak=off"]);
        assert_eq!(given.undeclared(&[OPTIONS]), Some("deep"));
        assert_eq!(given.declared_in(OPTIONS).undeclared(&[OPTIONS]), None);
        let twice = PluginOptions::new(["weak", "weak=on"]).parse("game", OPTIONS).unwrap_err().to_string();
        assert!(twice.contains("`weak` is given twice"), "{twice}");
    }
}
