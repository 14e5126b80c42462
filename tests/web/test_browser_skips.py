"""A run on a machine without Chromium: the browser tests are skipped, the run stays green (a
skip is no failure), and its end says loudly that they did not run and how to install Chromium."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_run_without_chromium_ends_saying_the_browser_tests_did_not_run(tmp_path: Path) -> None:
    missing = tmp_path / "no-chromium-here"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/browser", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env={**os.environ, "SCOREKEEPER_CHROMIUM": str(missing), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    said = run.stdout
    assert run.returncode == 0, said + run.stderr
    # The run's last line counts the skips: the block says that many did not run.
    found = re.search(r"(\d+) skipped", said.splitlines()[-1])
    assert found is not None, said
    skipped = int(found.group(1))
    assert skipped > 1
    assert f" {skipped} browser tests did not run " in said
    assert f"Chromium was not found at {missing}" in said
    assert "Install it (Debian, as root): apt-get install chromium" in said
