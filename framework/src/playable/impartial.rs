//! Impartial games people name, analyse and play: a position is a sum of components written with commas (`10,3`;
//! `-` for the empty sum). A move is written `H:PARTS`: component `H` (from 1) becomes `PARTS`, the components of
//! one of its options joined by `+`, or `-` for none (`1:3+5`: the first heap becomes heaps of 3 and 5). Under
//! normal play a sum is a [`SumGame`], analysed by the Sprague-Grundy engine ([`Playable::impartial`]); under
//! misère play a [`MisereSum`], by alpha-beta over the whole sum ([`Playable::misere`]), since nimbers do not add
//! up in misère sums. Both have the text form of their components ([`ImpartialText`]) and, when every component
//! is a heap ([`Heaps`]), a board of heaps.
//!
//! [`Playable::impartial`]: super::Playable::impartial
//! [`Playable::misere`]: super::Playable::misere

use crate::board::{Board, BoardForm, BoardMove, Layout};
use crate::error::{ParseError, TextPlace};
use crate::impartial::{Impartial, MisereSum, SumGame, SumMove};
use crate::input::shorten;
use crate::text::TextForm;

/// The most components a position may hold.
pub const MAX_COMPONENTS: usize = 1000;

/// How an impartial game's components are written. Contract: `parse_component(render_component(c))` is `c`.
pub trait ImpartialText: Impartial {
    /// The start position: the sum analysed and played when none is given.
    fn start(&self) -> Vec<Self::Component>;

    /// A component from its text (`Err` says what was expected).
    fn parse_component(&self, text: &str) -> std::result::Result<Self::Component, ParseError>;

    /// A component's text: no `,`, `+`, `:` or space in it.
    fn render_component(&self, component: &Self::Component) -> String;

    /// A position from its text: components separated by commas, `-` (or nothing) for the empty sum.
    fn parse_position(&self, text: &str) -> std::result::Result<Vec<Self::Component>, ParseError> {
        let text = text.trim();
        if text.is_empty() || text == "-" {
            return Ok(Vec::new());
        }
        if text.split(',').count() > MAX_COMPONENTS {
            return Err(ParseError::refused(format!("a position has at most {MAX_COMPONENTS} components")));
        }
        text.split(',')
            .enumerate()
            .map(|(index, part)| self.parse_component(part).map_err(|error| error.at(TextPlace::Component(index + 1))))
            .collect()
    }

    /// A position's text.
    fn render_position(&self, position: &[Self::Component]) -> String {
        if position.is_empty() {
            return "-".to_string();
        }
        position.iter().map(|component| self.render_component(component)).collect::<Vec<_>>().join(",")
    }
}

/// An impartial game whose components are heaps of tokens: its sums are drawn on a board of heaps.
pub trait Heaps: ImpartialText {
    /// The tokens in the heap `component`.
    fn heap(&self, component: &Self::Component) -> u32;
}

/// The position drawn: its components, or a word for the empty sum.
fn draw<Ruleset: ImpartialText>(game: &Ruleset, position: &[Ruleset::Component]) -> String {
    if position.is_empty() {
        return "(no component left)\n".to_string();
    }
    format!("{}\n", position.iter().map(|component| game.render_component(component)).collect::<Vec<_>>().join(" "))
}

/// Every move of `position` with the components it leaves in place of the one it is played in.
fn moves_with_parts<Ruleset: Impartial>(
    game: &Ruleset,
    position: &[Ruleset::Component],
) -> Vec<(SumMove, Vec<Ruleset::Component>)> {
    let mut moves = Vec::new();
    for (component, part) in position.iter().enumerate() {
        let mut option = 0;
        game.options(part, &mut |parts, _| {
            moves.push((SumMove { component, option }, parts.to_vec()));
            option += 1;
        });
    }
    moves
}

/// A move's text: `H:PARTS`.
fn render_sum_move<Ruleset: ImpartialText>(game: &Ruleset, mv: &SumMove, parts: &[Ruleset::Component]) -> String {
    let parts = if parts.is_empty() {
        "-".to_string()
    } else {
        parts.iter().map(|part| game.render_component(part)).collect::<Vec<_>>().join("+")
    };
    format!("{}:{parts}", mv.component + 1)
}

/// The move of `position` written `text` (`H:PARTS`, the parts in any order).
fn parse_move<Ruleset: ImpartialText>(
    game: &Ruleset,
    position: &[Ruleset::Component],
    text: &str,
) -> std::result::Result<SumMove, ParseError> {
    let (component, parts) = text
        .split_once(':')
        .ok_or_else(|| ParseError::expected("a move like `1:3+5` (component 1 becomes 3 and 5)", text))?;
    let component: usize = component
        .trim()
        .parse()
        .ok()
        .filter(|&component| (1..=position.len()).contains(&component))
        .ok_or_else(|| ParseError::expected(format!("a component from 1 to {}", position.len()), text))?;
    let sorted = |mut texts: Vec<String>| {
        texts.sort();
        texts
    };
    let wanted = match parts.trim() {
        "-" | "" => Vec::new(),
        parts => sorted(parts.split('+').map(|part| part.trim().to_string()).collect()),
    };
    moves_with_parts(game, position)
        .into_iter()
        .find(|(mv, parts)| {
            mv.component == component - 1
                && sorted(parts.iter().map(|part| game.render_component(part)).collect()) == wanted
        })
        .map(|(mv, _)| mv)
        .ok_or_else(|| {
            ParseError::refused(format!("component {component} has no option that leaves `{}`", shorten(parts)))
        })
}

/// The text form of a sum under normal play: its components' text.
impl<Inner: ImpartialText> TextForm for SumGame<Inner> {
    fn start(&self) -> Vec<Inner::Component> {
        self.0.start()
    }

    fn parse_position(&self, text: &str) -> Result<Vec<Inner::Component>, ParseError> {
        self.0.parse_position(text)
    }

    fn draw_position(&self, position: &Vec<Inner::Component>) -> String {
        draw(&self.0, position)
    }

    fn parse_move(&self, position: &Vec<Inner::Component>, text: &str) -> Result<SumMove, ParseError> {
        parse_move(&self.0, position, text)
    }

    fn render_move(&self, position: &Vec<Inner::Component>, mv: &SumMove) -> String {
        let parts = parts_of(&self.0, position, mv);
        render_sum_move(&self.0, mv, &parts)
    }
}

/// The text form of a sum under misère play: the same as under normal play.
impl<Inner: ImpartialText> TextForm for MisereSum<Inner> {
    fn start(&self) -> Vec<Inner::Component> {
        self.0.start()
    }

    fn parse_position(&self, text: &str) -> Result<Vec<Inner::Component>, ParseError> {
        self.0.parse_position(text)
    }

    fn draw_position(&self, position: &Vec<Inner::Component>) -> String {
        draw(&self.0, position)
    }

    fn parse_move(&self, position: &Vec<Inner::Component>, text: &str) -> Result<SumMove, ParseError> {
        parse_move(&self.0, position, text)
    }

    fn render_move(&self, position: &Vec<Inner::Component>, mv: &SumMove) -> String {
        let parts = parts_of(&self.0, position, mv);
        render_sum_move(&self.0, mv, &parts)
    }
}

/// The components as heaps; every move takes from a heap.
impl<Inner: Heaps> BoardForm for SumGame<Inner> {
    fn board(&self, position: &Vec<Inner::Component>) -> Board {
        heaps_board(&self.0, position)
    }

    fn board_move(&self, position: &Vec<Inner::Component>, mv: &SumMove) -> BoardMove {
        take(&self.0, position, mv)
    }
}

/// The components as heaps, as under normal play.
impl<Inner: Heaps> BoardForm for MisereSum<Inner> {
    fn board(&self, position: &Vec<Inner::Component>) -> Board {
        heaps_board(&self.0, position)
    }

    fn board_move(&self, position: &Vec<Inner::Component>, mv: &SumMove) -> BoardMove {
        take(&self.0, position, mv)
    }
}

/// The board of heaps of `position` (an impartial position does not say whose turn it is).
fn heaps_board<Inner: Heaps>(game: &Inner, position: &[Inner::Component]) -> Board {
    Board { layout: Layout::Heaps { heaps: position.iter().map(|c| game.heap(c)).collect() }, to_move: None }
}

/// Where `mv` is made: tokens taken from its heap, which leaves the heaps of its parts.
fn take<Inner: Heaps>(game: &Inner, position: &[Inner::Component], mv: &SumMove) -> BoardMove {
    let parts = parts_of(game, position, mv).iter().map(|part| game.heap(part)).collect();
    BoardMove::Take { heap: u32::try_from(mv.component).unwrap_or(u32::MAX), parts }
}

/// The components `mv` leaves in place of the one it is played in (none if it is no move of `position`).
fn parts_of<Inner: Impartial>(game: &Inner, position: &[Inner::Component], mv: &SumMove) -> Vec<Inner::Component> {
    let mut found = Vec::new();
    if let Some(component) = position.get(mv.component) {
        let mut option = 0;
        game.options(component, &mut |parts, _| {
            if option == mv.option {
                found = parts.to_vec();
            }
            option += 1;
        });
    }
    found
}
