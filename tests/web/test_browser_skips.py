"""A run on a machine without Chromium: the browser tests are skipped, the run stays green (a
skip is no failure), and its end says loudly that they did not run and how to install Chromium;
unless the run must test the browser, as CI's must, when it stops before anything runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def without_chromium(missing: Path, *, required: bool) -> subprocess.CompletedProcess[str]:
    """The browser tests run where Chromium is `missing`, required or not."""
    env = {**os.environ, "SCOREKEEPER_CHROMIUM": str(missing), "PYTHONPATH": str(ROOT)}
    env.pop("SCOREKEEPER_REQUIRE_CHROMIUM", None)
    if required:
        env["SCOREKEEPER_REQUIRE_CHROMIUM"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "tests/browser", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_run_without_chromium_ends_saying_the_browser_tests_did_not_run(tmp_path: Path) -> None:
    missing = tmp_path / "no-chromium-here"
    run = without_chromium(missing, required=False)
    said = run.stdout
    assert run.returncode == 0, said + run.stderr
    # The run's last line counts the skips: the block says that many did not run.
    found = re.search(r"(\d+) skipped", said.splitlines()[-1])
    assert found is not None, said
    skipped = int(found.group(1))
    assert skipped > 1
    assert f" {skipped} browser tests did not run " in said
    assert f"Chromium was not found at {missing}" in said
    assert "Install it (Debian, as root): apt-get install chromium-headless-shell" in said


def test_a_run_that_must_test_the_browser_stops_without_chromium(tmp_path: Path) -> None:
    missing = tmp_path / "no-chromium-here"
    run = without_chromium(missing, required=True)
    said = run.stdout + run.stderr
    assert run.returncode != 0, said
    assert "passed" not in said and "skipped" not in said, said
    assert f"Chromium not found at {missing}, and SCOREKEEPER_REQUIRE_CHROMIUM is set" in said
    assert "apt-get install chromium-headless-shell" in said
