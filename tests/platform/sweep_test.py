#!/usr/bin/python3
"""scripts/sweep on the built gpusoc program (argv[1]), on a local Dask cluster of two workers.

Against direct runs: each point of a 2x2 sweep reports what `gpusoc memtrace` reports for the
same values run by hand. A sweep run again with one more value reuses the points it has and runs
only the new ones. A point whose first attempt fails is retried and lands; one that always fails
is recorded with its error while the others land, and the exit status says so. Bad input is one
clear error.
"""
import csv
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GPUSOC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build/platform/gpusoc")
SWEEP = os.path.join(ROOT, "scripts/sweep")
CONFIG = os.path.join(ROOT, "configs/small.json")
MEMTRACE = ["memtrace", "--config", CONFIG, "--pattern", "random", "--requests", "3000"]


def sweep(*args, gpusoc=GPUSOC):
    return subprocess.run([SWEEP, "--gpusoc", gpusoc, "--workers", "2", "--quiet", *args],
                          capture_output=True, text=True)


def rows(out):
    with open(os.path.join(out, "results.csv")) as f:
        return list(csv.DictReader(f))


class Sweep(unittest.TestCase):
    def test_each_point_reports_what_a_direct_run_reports(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            r = sweep("--out", out, "--set", "memory.controller.scheduler=fcfs,frfcfs",
                      "--option", "rate=2,8", "--plot", "bandwidth_gbps", "--x", "rate",
                      "--group", "scheduler", "--", *MEMTRACE)
            self.assertEqual(r.returncode, 0, r.stderr)
            table = rows(out)
            self.assertEqual([(t["memory.controller.scheduler"], t["rate"]) for t in table],
                             [("fcfs", "2"), ("fcfs", "8"), ("frfcfs", "2"), ("frfcfs", "8")])
            for t in table:
                self.assertEqual(t["status"], "ran")
                direct = os.path.join(d, "direct.json")
                done = subprocess.run(
                    [GPUSOC, *MEMTRACE, "--set",
                     f"memory.controller.scheduler={t['memory.controller.scheduler']}",
                     "--rate", t["rate"], "--stats-out", direct], capture_output=True)
                self.assertEqual(done.returncode, 0)
                with open(direct) as f:
                    report = json.load(f)
                self.assertEqual(float(t["bandwidth_gbps"]), report["bandwidth_gbps"])
                self.assertEqual(float(t["latency_ns.avg"]), report["latency_ns"]["avg"])
            with open(os.path.join(out, "results.json")) as f:
                result = json.load(f)
            self.assertEqual(result["swept"], ["memory.controller.scheduler", "rate"])
            self.assertEqual(len(result["rows"]), 4)
            try:
                import matplotlib  # noqa: F401
                with open(os.path.join(out, "bandwidth_gbps.png"), "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            except ImportError:
                pass

            # Again with one more rate: the four points are reused, the two new ones run.
            r = sweep("--out", out, "--set", "memory.controller.scheduler=fcfs,frfcfs",
                      "--option", "rate=2,8,16", "--", *MEMTRACE)
            self.assertEqual(r.returncode, 0, r.stderr)
            status = {(t["memory.controller.scheduler"], t["rate"]): t["status"]
                      for t in rows(out)}
            self.assertEqual(sorted(k for k, v in status.items() if v == "ran"),
                             [("fcfs", "16"), ("frfcfs", "16")])
            self.assertEqual(sum(v == "cached" for v in status.values()), 4)

    def test_a_point_that_fails_once_is_retried(self):
        with tempfile.TemporaryDirectory() as d:
            flaky = os.path.join(d, "flaky")
            with open(flaky, "w") as f:  # fails the first attempt of each point, by its file
                f.write('#!/bin/sh\nfor a; do out="$a"; done\n'
                        '[ "$1" = --version ] && exec "%s" "$@"\n'
                        'if [ ! -e "$out.tried" ]; then touch "$out.tried"; exit 3; fi\n'
                        'exec "%s" "$@"\n' % (GPUSOC, GPUSOC))
            os.chmod(flaky, stat.S_IRWXU)
            out = os.path.join(d, "s")
            r = sweep("--out", out, "--option", "rate=2,8", "--", *MEMTRACE, gpusoc=flaky)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual([t["status"] for t in rows(out)], ["ran", "ran"])

    def test_a_point_that_always_fails_is_recorded_and_the_rest_run(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            r = sweep("--out", out, "--set", "memory.controller.scheduler=fcfs,nonsense",
                      "--", *MEMTRACE)
            self.assertEqual(r.returncode, 1)
            table = rows(out)
            self.assertEqual([t["status"] for t in table], ["ran", "failed"])
            self.assertIn("is not one of fcfs", table[1]["error"])
            self.assertEqual(table[1]["bandwidth_gbps"], "")
            self.assertGreater(float(table[0]["bandwidth_gbps"]), 0)

    def test_bad_input_is_one_clear_error(self):
        cases = [
            (["--out", "x", "--set", "a=1"], "expected -- and the gpusoc command"),
            (["--out", "x", "--set", "a", "--", "memtrace"], "--set 'a': expected NAME=V1,V2"),
            (["--out", "x", "--", "memtrace"], "nothing to sweep"),
            (["--out", "x", "--option", "rate=1,2", "--", "memtrace", "--rate", "3"],
             "--rate is in the command and also swept"),
            (["--out", "x", "--set", "a=1,2", "--plot", "s", "--x", "b", "--", "memtrace"],
             "'b' is not swept"),
            (["--out", "x", "--set", "a=1", "--", "memtrace", "--stats-out", "y.json"],
             "--stats-out: the sweep writes"),
        ]
        for args, message in cases:
            r = sweep(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(message, r.stderr, args)


if __name__ == "__main__":
    unittest.main()
