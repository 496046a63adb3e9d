//! `ludus serve`: the game explorer, a local HTTP server with a JSON API and one page. Files: `http.rs` (HTTP/1.1
//! on a connection, every read bounded), `routes.rs` (the page's files, `GET /api/games`, `POST
//! /api/position`), `shapes.rs` (the JSON shapes), `budget.rs` (the budgets, the search slots), `answers.rs`
//! (the answers by request: kept, or shared by the identical requests waiting for one search), `databases.rs`
//! (the `--db` directories, opened at start), `page.rs` and `page/` (the page, embedded). The values are the framework's analyses; the server only bounds, routes and writes them.
//!
//! One thread accepts connections and hands them to `--connections` workers through a short queue (a
//! connection past them is answered 503 at once); a worker serves one connection at a time, kept alive
//! between requests. Searches run on threads of their own, at most `--searches` at once. Ctrl-C stops the
//! accepting, lets the requests under way finish, and ends with status 0 (a second Ctrl-C ends at once).

mod answers;
mod budget;
mod databases;
mod http;
mod page;
mod routes;
mod shapes;

use crate::cli::ServeArgs;
use crate::registry::Registry;
use anyhow::{bail, Context, Result};
use budget::{Limits, SearchSlots, MAX_MOVES, MAX_POSITION_BYTES};
use http::{Connection, ReadEnd, Response, MAX_BODY_BYTES};
use ludus_framework::playable::find_registration;
use routes::State;
use shapes::ApiError;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, TrySendError};
use std::sync::{Arc, Mutex};

/// Connections accepted and waiting for a worker, at most.
const QUEUED_CONNECTIONS: usize = 64;
/// Requests served on one kept-alive connection before it is closed.
const REQUESTS_PER_CONNECTION: usize = 1000;

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
    serve(&listener, &state, &stopping, options.connections);
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
        let _ = TcpStream::connect_timeout(&wake, std::time::Duration::from_secs(1));
    })
    .context("cannot install the Ctrl-C handler")
}

/// Accepts connections until `stopping`, each served by one of `workers` threads.
fn serve(listener: &TcpListener, state: &Arc<State>, stopping: &Arc<AtomicBool>, workers: usize) {
    let (sender, receiver) = sync_channel::<TcpStream>(QUEUED_CONNECTIONS);
    let receiver = Arc::new(Mutex::new(receiver));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (receiver, state, stopping) = (Arc::clone(&receiver), Arc::clone(state), Arc::clone(stopping));
            scope.spawn(move || work(&receiver, &state, &stopping));
        }
        for stream in listener.incoming() {
            if stopping.load(Ordering::SeqCst) {
                break;
            }
            let Ok(stream) = stream else {
                // Out of descriptors, say: wait a little rather than spin on the error.
                std::thread::sleep(std::time::Duration::from_millis(20));
                continue;
            };
            if let Err(TrySendError::Full(stream)) = sender.try_send(stream) {
                refuse_busy(stream);
            }
        }
        drop(sender);
    });
}

/// A worker: serves the connections handed to it, one at a time, until the queue closes.
fn work(receiver: &Mutex<Receiver<TcpStream>>, state: &Arc<State>, stopping: &AtomicBool) {
    loop {
        let next = match receiver.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => return,
        };
        let Ok(stream) = next else { return };
        serve_connection(stream, state, stopping);
    }
}

/// Serves the requests of one connection, in order, until it closes, idles, breaks a bound, or the server
/// stops.
fn serve_connection(stream: TcpStream, state: &Arc<State>, stopping: &AtomicBool) {
    let local = stream.local_addr().ok();
    let Ok(mut connection) = Connection::new(stream) else { return };
    let is_stopping = || stopping.load(Ordering::SeqCst);
    for served in 1..=REQUESTS_PER_CONNECTION {
        let request = match connection.read_request(&is_stopping) {
            Ok(request) => request,
            Err(ReadEnd::Closed) => return,
            Err(ReadEnd::Refused(error)) => {
                let _ = connection.write_response(&Response::error(&error), true);
                return;
            }
        };
        let response = match check_host(&request.host, local) {
            Ok(()) => answer(state, &request),
            Err(error) => Response::error(&error),
        };
        let close = request.close || is_stopping() || served == REQUESTS_PER_CONNECTION;
        if connection.write_response(&response, close).is_err() || close {
            return;
        }
    }
}

/// The response to `request`; a panic in the routes (a bug) is a 500, and the worker goes on.
fn answer(state: &Arc<State>, request: &http::Request) -> Response {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| routes::respond(state, request))).unwrap_or_else(|_| {
        note!("ludus serve: internal error answering {} {}", request.method, request.path);
        Response::error(&ApiError::new(500, "internal", "internal error (a bug: see the server's log)"))
    })
}

/// A server listening on a loopback address answers only requests addressed to it by a loopback name, so
/// that a page of another site cannot reach it through a name of its own that resolves here (DNS rebinding).
fn check_host(host: &str, local: Option<SocketAddr>) -> Result<(), ApiError> {
    // A client of 127.0.0.1 reaching a server that listens on `::` arrives at `::ffff:127.0.0.1`.
    let Some(local) = local.filter(|local| local.ip().to_canonical().is_loopback()) else { return Ok(()) };
    let name = host.rsplit_once(':').filter(|(_, port)| port.parse::<u16>().is_ok()).map_or(host, |(name, _)| name);
    let address = name.strip_prefix('[').and_then(|name| name.strip_suffix(']')).unwrap_or(name);
    let loopback = address.parse::<IpAddr>().is_ok_and(|ip| ip.to_canonical().is_loopback());
    if loopback || name.eq_ignore_ascii_case("localhost") {
        Ok(())
    } else {
        Err(ApiError::new(
            403,
            "host",
            format!("this server answers requests to 127.0.0.1:{0} or localhost:{0} only", local.port()),
        ))
    }
}

/// Answers a connection that found every worker and the queue busy, and closes it.
fn refuse_busy(stream: TcpStream) {
    let error = ApiError::new(503, "busy", "every connection is taken (--connections): retry");
    if let Ok(mut connection) = Connection::new(stream) {
        let _ = connection.write_response(&Response::error(&error), true);
    }
}
