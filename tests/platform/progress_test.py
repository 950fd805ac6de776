#!/usr/bin/python3
"""Progress on stderr (--progress, --quiet) from the built gpusoc program (argv[1]).

Against what the run itself reports: the last progress line counts the kernels the run's summary
counts, and memtrace's the requests it was asked for. On a terminal (a pseudo-terminal here) the
line is rewritten in place and cleared at the end; where stderr is not a terminal nothing is
written unless --progress asks; --quiet silences a terminal too; both at once is a usage error.
"""
import os
import pty
import re
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GPUSOC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build/platform/gpusoc")
SMALL = os.path.join(ROOT, "configs/small.json")
V100 = os.path.join(ROOT, "configs/volta-v100.json")
# A memtrace run of a few seconds: long enough for the first line on a terminal (after a second).
LONG = ["memtrace", "--config", V100, "--pattern", "stream", "--requests", "6000000"]


def run(*args):
    return subprocess.run([GPUSOC, *args], capture_output=True, text=True)


def run_on_terminal(*args):
    """Runs with stderr on a pseudo-terminal; returns (status, what the terminal got)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([GPUSOC, *args], stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    got = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed with the program
            break
        if not chunk:
            break
        got += chunk
    os.close(master)
    return proc.wait(), got.decode()


class Progress(unittest.TestCase):
    def test_not_a_terminal_gets_nothing_unless_asked(self):
        r = run("run", "vecadd", "--config", SMALL)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")

    def test_forced_progress_ends_with_the_runs_own_kernel_count(self):
        r = run("run", "scan", "--config", SMALL, "--progress")
        self.assertEqual(r.returncode, 0, r.stderr)
        launches = int(re.search(r"kernels\s+(\d+) launches", r.stdout).group(1))
        last = r.stderr.splitlines()[-1]
        m = re.fullmatch(r"gpusoc: [\d.]+ [mun]?s simulated \([\d.]+ [mun]?s/s\) \| "
                         r"kernels: (\d+) done in [\d.]+ [mun]?s of wall time", last)
        self.assertIsNotNone(m, last)
        self.assertEqual(int(m.group(1)), launches)
        self.assertGreater(launches, 1)

    def test_memtrace_counts_the_requests_asked_for(self):
        r = run("memtrace", "--config", SMALL, "--requests", "1234", "--progress")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("| requests: 1234 of 1234 done in ", r.stderr.splitlines()[-1])

    def test_a_terminal_sees_the_line_rewritten_and_cleared(self):
        status, got = run_on_terminal(*LONG)
        self.assertEqual(status, 0, got)
        lines = got.split("\r")
        shown = [l for l in lines if l.startswith("gpusoc: ")]
        self.assertTrue(shown, repr(got))
        for line in shown:
            self.assertRegex(line, r"^gpusoc: .* simulated .*\| requests: \d+ of 6000000 done")
            self.assertTrue(line.endswith("\x1b[K"), repr(line))  # rest of the old line erased
        self.assertTrue(got.endswith("\r\x1b[K"), repr(got[-80:]))  # cleared at the end

    def test_quiet_silences_a_terminal(self):
        status, got = run_on_terminal(*LONG, "--quiet")
        self.assertEqual(status, 0, got)
        self.assertEqual(got, "")

    def test_progress_and_quiet_together_is_a_usage_error(self):
        r = run("run", "vecadd", "--config", SMALL, "--progress", "--quiet")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
        self.assertIn("--progress and --quiet", r.stderr)


if __name__ == "__main__":
    unittest.main()
