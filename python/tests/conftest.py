"""What the Python tests share: the repository's paths and the `ludus` binary the README's test command built
(`cargo test --release` builds `target/release/ludus`), against which the module's reports are compared."""

import os
import pathlib
import subprocess

import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = REPOSITORY / "samples"


@pytest.fixture(scope="session")
def cli():
    """Runs the `ludus` command line (LUDUS_BIN, or the release build of this checkout) and returns its
    standard output."""
    binary = pathlib.Path(os.environ.get("LUDUS_BIN", REPOSITORY / "target" / "release" / "ludus"))
    if not binary.exists():
        pytest.fail(f"{binary} is missing: build it with `cargo build --release` (or set LUDUS_BIN)")

    def run(*arguments: str) -> str:
        done = subprocess.run([str(binary), *arguments], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run
