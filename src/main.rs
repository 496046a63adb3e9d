//! The `ludus` command-line program: the library's CLI over every built-in plugin and game.

fn main() -> std::process::ExitCode {
    ludus::run(ludus::Registry::builtin())
}
