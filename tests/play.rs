//! `ludus play` used the way a person uses it: in a real terminal (tmux), typing moves, a wrong move, `hint`
//! and `undo`, reading the screen. Whole games of tic-tac-toe and of Connect Four 5 x 4 are played against the
//! perfect player, the person's side choosing random legal moves; every time the perfect player moves from a
//! position it wins, the position it leaves is lost for the person (checked with an engine of the test's own),
//! and the game never ends with the person winning; the same with the moves read from a solved database
//! (`--db`). Also in a terminal: the progress line of a long search (`solve`, `analyze` by each engine that can
//! run long, the perfect player of `play`), shown there and not when standard error is a pipe, and Ctrl-C, which
//! ends `analyze` and `play` within a second with status 130. Needs `tmux` (CI installs it); without it the test
//! says so and passes only outside CI.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failing tmux call should fail the test loudly

use ludus_framework::engines::negamax::MemoNegamax;
use ludus_framework::engines::{Engine, Mode};
use ludus_framework::playable::TextForm;
use ludus_framework::plugin::seeded_rng;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, Game, SearchHints};
use ludus_games::classic::TicTacToe;
use ludus_games::connect_four::ConnectFour;
use rand::Rng;
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux session running one command, on a tmux server of its own (so that other tmux users on the machine,
/// other tests included, cannot end it or type into it); the server is killed when dropped.
struct Terminal {
    name: String,
}

impl Terminal {
    fn start(name: &str, command: &str) -> Terminal {
        let name = format!("{name}-{}", std::process::id());
        // `; sleep` keeps the pane after the program ends, so that its last words can be read.
        // A known terminal type: CI runs without one.
        let status = Command::new("tmux")
            .env("TERM", "xterm-256color")
            .args([
                "-L",
                &name,
                "new-session",
                "-d",
                "-s",
                &name,
                "-x",
                "120",
                "-y",
                "60",
                &format!("{command}; sleep 60"),
            ])
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux could not start");
        Terminal { name }
    }

    /// A tmux command addressed to this terminal's server.
    fn tmux(&self) -> Command {
        let mut command = Command::new("tmux");
        command.args(["-L", &self.name]);
        command
    }

    fn screen(&self) -> String {
        let output = self
            .tmux()
            .args(["capture-pane", "-p", "-S", "-2000", "-t", &self.name])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    fn type_line(&self, text: &str) {
        let status = self.tmux().args(["send-keys", "-t", &self.name, text, "Enter"]).status().expect("tmux");
        assert!(status.success());
    }

    /// Presses Ctrl-C.
    fn interrupt(&self) {
        let status = self.tmux().args(["send-keys", "-t", &self.name, "C-c"]).status().expect("tmux");
        assert!(status.success());
    }

    /// Waits until the screen holds `count` occurrences of any of `marks` (at most 60 s), and returns it.
    fn wait_for(&self, marks: &[&str], count: usize) -> String {
        let started = Instant::now();
        loop {
            let screen = self.screen();
            if marks.iter().map(|mark| screen.matches(mark).count()).sum::<usize>() >= count {
                return screen;
            }
            assert!(started.elapsed() < Duration::from_secs(60), "waited in vain for {marks:?}:\n{screen}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        // The server leaves its socket behind when killed: it is removed too.
        let socket = self.tmux().args(["display-message", "-p", "#{socket_path}"]).output();
        let _ = self.tmux().arg("kill-server").status();
        if let Ok(socket) = socket {
            let _ = std::fs::remove_file(String::from_utf8_lossy(&socket.stdout).trim());
        }
    }
}

fn tmux_available() -> bool {
    let found = Command::new("tmux").arg("-V").output().is_ok_and(|output| output.status.success());
    if !found {
        assert!(std::env::var_os("CI").is_none(), "tmux is needed for the terminal tests (apt-get install tmux)");
        eprintln!("tmux is not installed: the terminal test is skipped");
    }
    found
}

const END: [&str; 3] = ["You win.", "I win.", "The game is a draw."];

/// Plays one game in a terminal: `spec` names the game, the person takes `side`; returns the final screen.
fn play_game<Ruleset>(game: &Ruleset, spec: &str, side: &str, seed: u64) -> String
where
    Ruleset: Game + TextForm + Canonicalize + SearchHints,
{
    // One session name per game (the seeds differ): tests run at once.
    let terminal = Terminal::start(
        &format!("ludus-play-{seed}"),
        &format!("{} play {spec} --side {side}", env!("CARGO_BIN_EXE_ludus")),
    );
    let mut rng = seeded_rng(seed);
    let mut judge = MemoNegamax::new(Mode::Exact);
    let mut position = game.start();
    let mut prompts = 0;
    let mut replies = 0;
    // A wrong move first: it is explained and the same turn goes on.
    let mut checked_input = false;
    loop {
        let screen = terminal.wait_for(&["your move>", END[0], END[1], END[2]], prompts + 1);
        // The perfect player's replies so far: each one is read and replayed here, and judged.
        let mine: Vec<&str> = screen.lines().filter_map(|line| line.strip_prefix("I play ")).collect();
        for reply in &mine[replies..] {
            let reply = reply.trim_end_matches('.');
            let before = judge.value(game, &position);
            let mv = game.parse_move(&position, reply).expect("the perfect player's move is legal");
            position = game.play(&position, &mv);
            let after = judge.value(game, &position);
            if before.is_win() {
                assert!(after.is_loss(), "{spec}: from a won position the perfect player played {reply}:\n{screen}");
            }
        }
        replies = mine.len();
        if END.iter().any(|end| screen.contains(end)) {
            assert!(!screen.contains(END[0]), "{spec}: the person beat the perfect player:\n{screen}");
            return screen;
        }
        prompts += 1;
        if !checked_input {
            checked_input = true;
            terminal.type_line("0");
            let screen = terminal.wait_for(&["is not a move here"], 1);
            assert!(screen.contains("Try again"), "{screen}");
            terminal.type_line("hint");
            terminal.wait_for(&["(best)"], 1);
            prompts += 2;
        }
        let moves = game.legal_moves(&position);
        let mv = &moves[rng.gen_range(0..moves.len())];
        terminal.type_line(&game.render_move(&position, mv));
        position = game.play(&position, mv);
    }
}

#[test]
fn whole_games_against_the_perfect_player_in_a_terminal() {
    if !tmux_available() {
        return;
    }
    let tic_tac_toe = play_game(&TicTacToe, "tic-tac-toe", "first", 1);
    assert!(tic_tac_toe.contains("I win.") || tic_tac_toe.contains("draw"), "{tic_tac_toe}");
    play_game(&TicTacToe, "tic-tac-toe", "second", 2);
    let small = ConnectFour::new(5, 4).expect("5 x 4");
    play_game(&small, "connect-four:width=5,height=4", "first", 3);
    play_game(&small, "connect-four:width=5,height=4", "second", 4);
}

#[test]
fn undo_takes_back_the_person_s_move_and_the_reply() {
    if !tmux_available() {
        return;
    }
    let command = format!("{} play tic-tac-toe --side first", env!("CARGO_BIN_EXE_ludus"));
    let terminal = Terminal::start("ludus-undo", &command);
    terminal.wait_for(&["your move>"], 1);
    terminal.type_line("5");
    terminal.wait_for(&["your move>"], 2);
    terminal.type_line("undo");
    let screen = terminal.wait_for(&["your move>"], 3);
    // The last board shown is the empty one again.
    let last = screen.rsplit("your move>").nth(1).unwrap_or_default();
    assert!(last.contains("...\n...\n...\nX to move"), "{screen}");
    terminal.type_line("undo");
    let screen = terminal.wait_for(&["Nothing to take back."], 1);
    assert!(screen.contains("Nothing to take back."));
    terminal.type_line("quit");
}

#[test]
fn whole_games_against_a_solved_database_in_a_terminal() {
    if !tmux_available() {
        return;
    }
    let directory = std::env::temp_dir().join(format!("ludus-play-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let spec = "connect-four:width=4,height=4";
    let solved = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", spec, "--db", directory.to_str().unwrap()])
        .output()
        .expect("ludus runs");
    assert!(solved.status.success(), "{}", String::from_utf8_lossy(&solved.stderr));
    // The perfect player's moves come from the files: judged by the test's own engine as before.
    let game = ConnectFour::new(4, 4).expect("4 x 4");
    let with_database = format!("{spec} --db {}", directory.display());
    play_game(&game, &with_database, "first", 5);
    play_game(&game, &with_database, "second", 6);
    // Without a database there is nothing to play from: a clear error.
    let missing = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["play", spec, "--side", "first", "--db", directory.join("nothing").to_str().unwrap()])
        .output()
        .expect("ludus runs");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("not solved"), "{missing:?}");
    std::fs::remove_dir_all(&directory).unwrap();
}

/// Plays Kalah in a terminal, the person choosing random pits: the perfect player's every move keeps the value
/// of its position (judged by the test's own scored engine, extra moves included: a player may move twice), and
/// the person ends with at most the margin the start gives his side.
fn play_kalah(pits: usize, seeds: u32, side: &str, seed: u64) {
    use ludus_framework::engines::scored::ScoredAlphaBeta;
    use ludus_framework::playable::TextForm;
    use ludus_framework::scored::{Player, ScoredGame};
    use ludus_framework::Engine;
    use ludus_games::kalah::Kalah;
    let game = Kalah::new(pits, seeds).unwrap();
    let spec = format!("kalah:pits={pits},seeds={seeds}");
    let terminal = Terminal::start(
        &format!("ludus-kalah-{seed}"),
        &format!("{} play {spec} --side {side}", env!("CARGO_BIN_EXE_ludus")),
    );
    let person = if side == "first" { Player::First } else { Player::Second };
    let mut judge = ScoredAlphaBeta::new(Mode::Exact);
    let mut rng = seeded_rng(seed);
    let mut position = game.start();
    let start_value = person.score_for(
        game.mover(&position).score_for(judge.search(&game, &position).unwrap(), Player::First),
        Player::First,
    );
    let (mut prompts, mut replies, mut extra_moves) = (0, 0, 0);
    loop {
        let screen = terminal.wait_for(&["your move>", END[0], END[1], END[2]], prompts + 1);
        let mine: Vec<&str> = screen.lines().filter_map(|line| line.strip_prefix("I play ")).collect();
        for reply in &mine[replies..] {
            let before = judge.search(&game, &position).unwrap();
            let mv = game.parse_move(&position, reply.trim_end_matches('.')).expect("a legal move");
            let child = game.play(&position, &mv);
            extra_moves += usize::from(game.mover(&child) == game.mover(&position));
            let after = game.score_seen_from(&position, &child, judge.search(&game, &child).unwrap());
            assert_eq!(after, before, "{spec}: the perfect player's {reply} lost score:\n{screen}");
            position = child;
        }
        replies = mine.len();
        if END.iter().any(|end| screen.contains(end)) {
            let final_score = person.score_for(
                game.mover(&position).score_for(game.outcome(&position).expect("over"), Player::First),
                Player::First,
            );
            assert!(final_score <= start_value, "{spec}: the person got {final_score}, more than {start_value}");
            break;
        }
        prompts += 1;
        assert_eq!(game.mover(&position), person, "the prompt comes on the person's turn");
        let moves = game.legal_moves(&position);
        let mv = moves[rng.gen_range(0..moves.len())];
        terminal.type_line(&game.render_move(&position, &mv));
        let child = game.play(&position, &mv);
        extra_moves += usize::from(game.mover(&child) == game.mover(&position));
        position = child;
    }
    assert!(extra_moves > 0 || seeds == 1, "extra moves were played");
}

#[test]
fn kalah_games_with_extra_moves_in_a_terminal() {
    if !tmux_available() {
        return;
    }
    play_kalah(4, 3, "first", 11);
    play_kalah(4, 3, "second", 12);
    play_kalah(3, 3, "second", 13);
}

#[test]
fn pig_in_a_terminal_with_rolled_and_asked_dice() {
    if !tmux_available() {
        return;
    }
    // Rolled dice: the game goes to its end, the same with the same seed.
    let command = format!("{} play pig:goal=12 --side first --seed 7", env!("CARGO_BIN_EXE_ludus"));
    let mut endings = Vec::new();
    for run in 0..2 {
        let terminal = Terminal::start(&format!("ludus-pig-{run}"), &command);
        let mut prompts = 0;
        let screen = loop {
            let screen = terminal.wait_for(&["your move>", END[0], END[1]], prompts + 1);
            if screen.contains(END[0]) || screen.contains(END[1]) {
                break screen;
            }
            prompts += 1;
            // Hold once the turn total is 6 or more, else roll.
            let last = screen.rsplit("your move>").nth(1).unwrap_or_default();
            let total: u32 = last
                .rsplit("turn total ")
                .next()
                .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|digits| digits.parse().ok())
                .unwrap_or(0);
            terminal.type_line(if total >= 6 { "hold" } else { "roll" });
        };
        assert!(screen.contains("Chance: "), "{screen}");
        endings
            .push(screen.lines().filter(|line| line.starts_with("Chance: ")).map(str::to_string).collect::<Vec<_>>());
    }
    assert_eq!(endings[0], endings[1], "the same seed, the same rolls");
    // Asked dice: the person types what the die shows; a wrong outcome is refused.
    let command = format!("{} play pig:goal=4 --side first --ask-dice", env!("CARGO_BIN_EXE_ludus"));
    let terminal = Terminal::start("ludus-pig-ask", &command);
    terminal.wait_for(&["your move>"], 1);
    terminal.type_line("roll");
    terminal.wait_for(&["outcome? ["], 1);
    terminal.type_line("9");
    let screen = terminal.wait_for(&["is not an outcome here"], 1);
    assert!(screen.contains("1 (1/6)"), "the outcomes are offered with their probabilities:\n{screen}");
    terminal.type_line("4");
    let screen = terminal.wait_for(&[END[0]], 1);
    assert!(screen.contains("Chance: 4."), "{screen}");
}

/// Waits for the progress line of a search (a test, the positions, the rate) on the screen of `command`.
fn progress_line_of(name: &str, command: &str) -> String {
    let terminal = Terminal::start(name, &format!("{} {command}", env!("CARGO_BIN_EXE_ludus")));
    let screen = terminal.wait_for(&["positions, "], 1);
    let line = screen.lines().find(|line| line.contains("positions, ")).unwrap_or_default().to_string();
    assert!(line.contains("searching at least a ") && line.contains("? ") && line.contains(" a second"), "{screen}");
    line
}

#[test]
fn a_long_search_shows_its_progress_in_a_terminal_only() {
    if !tmux_available() {
        return;
    }
    // One move played: the search takes minutes, its line shows after a second (the session ends it).
    let solve = progress_line_of("ludus-progress-solve", "solve connect-four --threads 1 <<< 4");
    assert!(solve.contains("connect-four: searching"), "{solve}");
    progress_line_of("ludus-progress-analyze", "analyze connect-four 4 --no-book");
    // Standard error to a pipe: no line, even for a search of several seconds.
    let piped = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "echo 4 | {} solve connect-four --threads 1 --max-positions 20000000",
            env!("CARGO_BIN_EXE_ludus")
        ))
        .output()
        .expect("ludus runs");
    let errors = String::from_utf8_lossy(&piped.stderr);
    assert!(errors.contains("budget of 20000000 positions") && !errors.contains("searching"), "{errors}");
}

/// Runs `ludus COMMAND` in a terminal until its progress line shows `what`, then presses Ctrl-C: the command ends
/// within about a second, with status 130. Returns the line.
fn progress_then_ctrl_c(name: &str, command: &str, what: &str) -> String {
    let command = format!("{} {command}; echo \"exit status $?\"", env!("CARGO_BIN_EXE_ludus"));
    let terminal = Terminal::start(name, &command);
    let screen = terminal.wait_for(&[what], 1);
    let line = screen.lines().find(|line| line.contains(what)).unwrap_or_default().to_string();
    assert!(line.contains(" positions, ") && line.contains(" a second ("), "{screen}");
    terminal.interrupt();
    let pressed = Instant::now();
    let screen = terminal.wait_for(&["exit status "], 1);
    let waited = pressed.elapsed();
    assert!(screen.contains("stopped\nexit status 130"), "{command}:\n{screen}");
    assert!(waited < Duration::from_millis(1500), "{command}: Ctrl-C took {waited:?} to end it");
    line
}

#[test]
fn long_analyses_and_the_perfect_player_show_progress_and_stop_at_ctrl_c() {
    if !tmux_available() {
        return;
    }
    // Each engine that can run long, with what it is doing: a scored test, the steps of value iteration and of
    // the retrograde engine, expectimax's positions; and the perfect player's first move on the empty board.
    progress_then_ctrl_c("ludus-ctrl-c-kalah", "analyze kalah", "searching a score of at least ");
    progress_then_ctrl_c("ludus-ctrl-c-pig", "analyze pig:goal=200", "value iteration, sweep ");
    progress_then_ctrl_c("ludus-ctrl-c-dodgem", "analyze dodgem:n=5", "enumerating the positions: ");
    let hog = "analyze hog:goal=1000,dice=20 --table-mb 4096 --memory-mb 4096";
    progress_then_ctrl_c("ludus-ctrl-c-hog", hog, "searching ");
    progress_then_ctrl_c("ludus-ctrl-c-play", "play connect-four --side second --no-book", "searching at least a ");
    // Standard error to a pipe: no line, from searches of seconds.
    for command in
        ["analyze kalah --max-positions 4000000", "play connect-four --side second --no-book --max-positions 4000000"]
    {
        let piped = Command::new("bash")
            .arg("-c")
            .arg(format!("{} {command} < /dev/null 2>&1 | cat", env!("CARGO_BIN_EXE_ludus")))
            .output()
            .expect("ludus runs");
        let output = String::from_utf8_lossy(&piped.stdout);
        assert!(output.contains("budget of 4000000 positions") && !output.contains(" a second"), "{output}");
    }
}
