//! How long the explorer takes to give every move's value on a standard board, on a set of positions from real
//! games: 200 positions of up to 12 plies (a ply count drawn uniformly from 0 to 12), each from a game played at
//! random with mistakes (at each ply a move that neither misses an immediate win nor allows one, three times in
//! four, else any move), then rated by the positions their analysis searched (easy, medium and hard thirds,
//! like Pons' Begin sets). Each position is analysed by one engine kept across them all (a warm server: the
//! explorer's desk) and by an engine made for it alone (a cold one), with the game's opening book unless
//! `--no-book`; the time until every move has its value (the line, searched last, is left out: the page shows
//! it after) is reported by ply and by rating, at the 50th and 95th percentiles; each position's times go to
//! standard error as it is done.
//!
//! ```text
//! cargo run --release --example standard_boards -- [GAME] [--no-book] [--positions N] [--seed S]
//! ```
//!
//! GAME defaults to `connect-four` (7 x 6). The numbers are in BENCHMARKS.md ("The standard boards").

use anyhow::{bail, Context, Result};
use ludus_framework::database::book::{book_file_name, BookPlace};
use ludus_framework::playable::{find_registration, AnalysisOptions, Found, PlayableGame};
use rand::seq::SliceRandom;
use rand::Rng;
use std::path::PathBuf;
use std::time::Instant;

/// The most plies of a position of the set.
const MAX_PLIES: usize = 12;

/// The moves of `position` (given as moves from the start) that win at once for the player to move, and those
/// that let the opponent win at once.
fn sound_moves(game: &dyn PlayableGame, played: &[String]) -> Result<Vec<String>> {
    let moves: Vec<&str> = played.iter().map(String::as_str).collect();
    let view = game.inspect(None, &moves)?;
    let mut winning = Vec::new();
    let mut safe = Vec::new();
    for mv in &view.moves {
        let mut after = moves.clone();
        after.push(mv);
        let next = game.inspect(None, &after)?;
        if next.finish.is_some() {
            winning.push(mv.clone());
            continue;
        }
        let gives_a_win = next.moves.iter().any(|reply| {
            let mut replied = after.clone();
            replied.push(reply);
            game.inspect(None, &replied).is_ok_and(|view| view.finish.is_some())
        });
        if !gives_a_win {
            safe.push(mv.clone());
        }
    }
    Ok(if winning.is_empty() { safe } else { winning })
}

/// A position of `plies` moves from a game played at random with mistakes, still in play; `None` if the game
/// ended first.
fn random_position(game: &dyn PlayableGame, plies: usize, rng: &mut impl Rng) -> Result<Option<Vec<String>>> {
    let mut played: Vec<String> = Vec::new();
    while played.len() < plies {
        let moves: Vec<&str> = played.iter().map(String::as_str).collect();
        let view = game.inspect(None, &moves)?;
        if view.finish.is_some() || view.moves.is_empty() {
            return Ok(None);
        }
        let sound = sound_moves(game, &played)?;
        let choices = if sound.is_empty() || rng.gen_range(0..4) == 0 { view.moves.clone() } else { sound };
        let Some(mv) = choices.choose(rng) else { return Ok(None) };
        played.push(mv.clone());
    }
    let moves: Vec<&str> = played.iter().map(String::as_str).collect();
    Ok(game.inspect(None, &moves)?.finish.is_none().then_some(played))
}

/// Seconds until every move of `played` has its value, by `analyst` (the line left out), and the positions
/// searched.
fn time_moves(
    analyst: &mut dyn ludus_framework::playable::Analyst,
    played: &[String],
    moves: usize,
) -> Result<(f64, u64)> {
    let texts: Vec<&str> = played.iter().map(String::as_str).collect();
    let started = Instant::now();
    let mut valued = 0;
    let mut at = None;
    let analysis = analyst.analyze_after(None, &texts, &mut |found| {
        if let Found::Move(_) = found {
            valued += 1;
            if valued == moves {
                at = Some(started.elapsed().as_secs_f64());
            }
        }
    })?;
    Ok((at.unwrap_or_else(|| started.elapsed().as_secs_f64()), analysis.stats.visited))
}

/// A timed position: its plies, the positions its cold analysis searched, the cold and the warm seconds.
type Row = (usize, u64, f64, f64);

/// Which rows a group of the report keeps.
type Keep<'rating> = dyn Fn(&Row) -> bool + 'rating;

fn percentile(values: &mut [f64], share: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let place = ((values.len() as f64 - 1.0) * share).round() as usize;
    values.get(place).copied().unwrap_or(0.0)
}

fn main() -> Result<()> {
    let mut arguments = std::env::args().skip(1);
    let (mut spec, mut book, mut count, mut seed) = ("connect-four".to_string(), true, 200, 1u64);
    while let Some(argument) = arguments.next() {
        match argument.as_str() {
            "--no-book" => book = false,
            "--positions" => count = arguments.next().context("--positions N")?.parse()?,
            "--seed" => seed = arguments.next().context("--seed S")?.parse()?,
            other if !other.starts_with("--") => spec = other.to_string(),
            other => bail!("unknown argument {other}"),
        }
    }
    let registrations: Vec<_> = ludus_games::CATALOG.iter().filter_map(|entry| entry.game).collect();
    let game = find_registration(&registrations, &spec)?.make(&spec)?.playable;
    let books = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("books").join(book_file_name(&game.name()));
    let options = AnalysisOptions {
        table_mb: 256,
        book: book.then(|| BookPlace::File(books.clone())).filter(|_| books.exists()),
        ..AnalysisOptions::default()
    };
    println!("{}: {count} positions, book {:?}", game.name(), options.book);
    let mut rng = ludus_framework::random::seeded_rng(seed);
    let mut set = Vec::new();
    while set.len() < count {
        let plies = rng.gen_range(0..=MAX_PLIES);
        if let Some(played) = random_position(game.as_ref(), plies, &mut rng)? {
            set.push(played);
        }
    }
    let mut warm = game.analyst(&options)?;
    let mut rows = Vec::new();
    for (done, played) in set.iter().enumerate() {
        let texts: Vec<&str> = played.iter().map(String::as_str).collect();
        let moves = game.inspect(None, &texts)?.moves.len();
        let (warm_seconds, _) = time_moves(warm.as_mut(), played, moves)?;
        let mut cold = game.analyst(&options)?;
        let (cold_seconds, visited) = time_moves(cold.as_mut(), played, moves)?;
        // Each position as it is done, on standard error: a long run shows where it stands.
        eprintln!(
            "[{}/{count}] {} plies ({}): warm {warm_seconds:.3} s, cold {cold_seconds:.3} s, {visited} positions",
            done + 1,
            played.len(),
            played.join(" ")
        );
        rows.push((played.len(), visited, cold_seconds, warm_seconds));
    }
    // Rated by the positions searched cold, in thirds.
    let mut by_visits: Vec<u64> = rows.iter().map(|row| row.1).collect();
    by_visits.sort_unstable();
    let (easy, hard) = (by_visits[by_visits.len() / 3], by_visits[2 * by_visits.len() / 3]);
    let rating = move |visited: u64| {
        if visited <= easy {
            "easy"
        } else if visited <= hard {
            "medium"
        } else {
            "hard"
        }
    };
    println!(
        "{:<12} {:>5} {:>10} {:>10} {:>10} {:>10}",
        "group", "count", "cold p50", "cold p95", "warm p50", "warm p95"
    );
    let groups: Vec<(String, Box<Keep<'_>>)> = vec![
        ("all".into(), Box::new(|_| true)),
        ("plies 0-5".into(), Box::new(|row| row.0 <= 5)),
        ("plies 6-8".into(), Box::new(|row| (6..=8).contains(&row.0))),
        ("plies 9-12".into(), Box::new(|row| row.0 >= 9)),
        ("easy".into(), Box::new(move |row| rating(row.1) == "easy")),
        ("medium".into(), Box::new(move |row| rating(row.1) == "medium")),
        ("hard".into(), Box::new(move |row| rating(row.1) == "hard")),
    ];
    for (name, keep) in &groups {
        let chosen: Vec<_> = rows.iter().filter(|row| keep(row)).collect();
        let mut cold: Vec<f64> = chosen.iter().map(|row| row.2).collect();
        let mut warm: Vec<f64> = chosen.iter().map(|row| row.3).collect();
        println!(
            "{name:<12} {:>5} {:>10.3} {:>10.3} {:>10.3} {:>10.3}",
            chosen.len(),
            percentile(&mut cold, 0.5),
            percentile(&mut cold, 0.95),
            percentile(&mut warm, 0.5),
            percentile(&mut warm, 0.95)
        );
    }
    let slowest = rows.iter().max_by(|a, b| a.2.total_cmp(&b.2)).map(|row| (row.0, row.2));
    println!("slowest cold: {slowest:?}");
    Ok(())
}
