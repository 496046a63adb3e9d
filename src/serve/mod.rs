//! `ludus serve`: the game explorer, a local HTTP server with a JSON API and one page. Files: `http.rs` (HTTP/1.1
//! on a connection, every read and write bounded), `connection.rs` (a connection's requests served in turn,
//! within its time and count), `queue.rs` (the connections waiting for a worker), `routes.rs` (the page's
//! files, `GET /api/games`, `POST /api/position`), `shapes.rs` (the JSON shapes), `budget.rs` (the budgets, the
//! search slots), `answers.rs` (the answers by request: kept, or shared by the identical requests waiting for
//! one search), `databases.rs` (the `--db` directories, opened at start), `page.rs` and `page/` (the page,
//! embedded), `desks.rs` (one engine kept per game explored, its table reused from one request to the next),
//! `partial.rs` (what a search under way found so far, for a request that streams). The values are the
//! framework's analyses; the server only bounds, routes and writes them.
//!
//! One thread accepts connections and hands them to `--connections` workers through a short queue (a
//! connection past it, or waiting in it too long, is answered 503); a worker serves one connection at a time,
//! kept alive between requests while no other waits. Searches run on threads of their own, at most
//! `--searches` at once. Ctrl-C stops the accepting, lets the requests under way finish, and ends with status
//! 0 (a second Ctrl-C ends at once).

mod answers;
mod budget;
mod connection;
mod databases;
mod desks;
mod http;
mod page;
mod partial;
mod queue;
mod routes;
mod shapes;

use crate::cli::ServeArgs;
use crate::registry::Registry;
use anyhow::{bail, Context, Result};
use budget::{Limits, SearchSlots, MAX_MOVES, MAX_POSITION_BYTES};
use connection::{ClientTimes, Worker};
use http::MAX_BODY_BYTES;
use ludus_framework::playable::find_registration;
use queue::Queue;
use routes::State;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Runs the server until Ctrl-C.
pub fn run(registry: &Registry, options: &ServeArgs) -> Result<()> {
    if options.table_mb > options.memory_mb {
        bail!(
            "--table-mb ({}) is more than --memory-mb ({}): raise --memory-mb, or lower --table-mb",
            options.table_mb,
            options.memory_mb
        );
    }
    let games = registry.games().to_vec();
    let start_game = match &options.game {
        Some(spec) => find_registration(&games, spec)?.make(spec)?.playable.name(),
        None => match games.first() {
            Some(first) => first.make_default()?.playable.name(),
            None => bail!("the registry has no game to explore"),
        },
    };
    let databases = databases::open(registry, &options.databases)?;
    let limits = Limits {
        max_positions: options.max_positions,
        max_seconds: options.max_seconds,
        table_mb: options.table_mb,
        memory_mb: options.memory_mb,
        searches: options.searches,
        threads: ludus_framework::plugin::thread_count(options.threads),
        connections: options.connections,
        max_body_bytes: MAX_BODY_BYTES,
        max_position_bytes: MAX_POSITION_BYTES,
        max_moves: MAX_MOVES,
    };
    let games_answer = State::games_answer(&games, &databases, &start_game, limits)?;
    let listener = TcpListener::bind(SocketAddr::new(options.bind, options.port))
        .with_context(|| format!("cannot listen on {}:{}", options.bind, options.port))?;
    let address = listener.local_addr().context("cannot read the address listened on")?;
    let served: Vec<String> = databases.iter().map(|served| served.game.name()).collect();
    let state = Arc::new(State {
        games,
        databases,
        limits,
        slots: SearchSlots::new(options.searches),
        answers: Arc::default(),
        games_answer,
        desks: desks::Desks::new(
            options.searches,
            routes::analysis_options(&limits, options.book.place(), options.endgame.place()),
        ),
    });
    let stopping = Arc::new(AtomicBool::new(false));
    install_stop(&stopping, address)?;
    if !options.bind.to_canonical().is_loopback() {
        let reach = if options.bind.is_unspecified() { "every network this machine is on" } else { "its network" };
        note!(
            "ludus serve: warning: --bind {} serves {reach}: whoever can reach it may use the explorer and its \
             searches (there is no password); --bind 127.0.0.1 serves this machine only",
            options.bind
        );
    }
    // One write: a reader that takes the first line and leaves does not make a later write fail.
    let databases = if served.is_empty() { String::new() } else { format!("\ndatabases: {}", served.join(", ")) };
    say!("ludus serve: the explorer is at http://{address}/ (Ctrl-C stops it){databases}");
    crate::output::finish()?;
    let times = ClientTimes {
        response: Duration::from_secs(options.response_seconds),
        connection: Duration::from_secs(options.connection_seconds),
    };
    serve(&listener, &state, &stopping, options.connections, times);
    note!("ludus serve: stopped");
    Ok(())
}

/// Ctrl-C sets `stopping` and wakes the accepting thread by connecting to `address`; a second one ends the
/// process at once.
fn install_stop(stopping: &Arc<AtomicBool>, address: SocketAddr) -> Result<()> {
    let flag = Arc::clone(stopping);
    let wake = match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => SocketAddr::new(Ipv4Addr::LOCALHOST.into(), address.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => SocketAddr::new(Ipv6Addr::LOCALHOST.into(), address.port()),
        _ => address,
    };
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        note!("\nludus serve: stopping after the requests under way (Ctrl-C again to stop at once)");
        let _ = TcpStream::connect_timeout(&wake, Duration::from_secs(1));
    })
    .context("cannot install the Ctrl-C handler")
}

/// Accepts connections until `stopping`, each served by one of `workers` threads.
fn serve(listener: &TcpListener, state: &Arc<State>, stopping: &AtomicBool, workers: usize, times: ClientTimes) {
    let queue = Queue::default();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let worker = Worker { state, queue: &queue, stopping, times };
            scope.spawn(move || {
                while let Some(stream) = worker.queue.pop() {
                    worker.serve(stream);
                }
            });
        }
        scope.spawn(|| queue.keep());
        for stream in listener.incoming() {
            if stopping.load(Ordering::SeqCst) {
                break;
            }
            match stream {
                Ok(stream) => queue.push(stream),
                // Out of descriptors, say: wait a little rather than spin on the error.
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        queue.close();
    });
}
