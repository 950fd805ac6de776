#!/usr/bin/python3
"""scripts/speed-ab on the built gpusoc program (argv[1]).

Against a known answer: a wrapper that runs the same command twice costs twice the user time,
so the plain program comes out about twice as fast, with the default workload and with a command
line given after `--`; and bad input (a missing program, CPUs that are not two, a memtrace option
the program refuses, memtrace options beside `--`, nothing after it) is one clear error and exit
status 2.
"""
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GPUSOC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build/platform/gpusoc")
SCRIPT = os.path.join(ROOT, "scripts/speed-ab")


def speed_ab(*args):
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True)


def speed_ab_against_twice(order, *args):
    """speed-ab with the plain program and a wrapper running it twice, in `order` ("twice
    first" or "plain first"), and `args`."""
    with tempfile.TemporaryDirectory() as d:
        twice = os.path.join(d, "twice")
        with open(twice, "w") as f:
            f.write(f'#!/bin/sh\n"{GPUSOC}" "$@" && exec "{GPUSOC}" "$@"\n')
        os.chmod(twice, stat.S_IRWXU)
        pair = (twice, GPUSOC) if order == "twice first" else (GPUSOC, twice)
        return speed_ab(*pair, *args)


class SpeedAb(unittest.TestCase):
    @unittest.skipIf(len(os.sched_getaffinity(0)) < 2, "needs two CPUs")
    def test_twice_the_work_is_half_the_speed(self):
        r = speed_ab_against_twice("twice first", "--pairs", "6", "--requests", "80000")
        self.assertEqual(r.returncode, 0, r.stderr)
        result = json.loads(r.stdout)
        self.assertEqual(result["pairs"], 6)
        self.assertGreater(result["speedup"], 1.5)
        self.assertLess(result["speedup"], 2.7)
        self.assertLessEqual(result["speedup_q1"], result["speedup"])
        self.assertLessEqual(result["speedup"], result["speedup_q3"])
        self.assertGreater(result["old_user_s"], result["new_user_s"])

    @unittest.skipIf(len(os.sched_getaffinity(0)) < 2, "needs two CPUs")
    def test_any_command_line_after_a_double_dash(self):
        r = speed_ab_against_twice("plain first", "--pairs", "6", "--", "memtrace", "--requests",
                                   "80000", "--config",
                                   os.path.join(ROOT, "configs/tesla-8800gtx.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        result = json.loads(r.stdout)
        self.assertGreater(result["speedup"], 1 / 2.7)
        self.assertLess(result["speedup"], 1 / 1.5)

    def test_bad_input_is_one_clear_error(self):
        r = speed_ab("/nonexistent/gpusoc", GPUSOC)
        self.assertEqual(r.returncode, 2)
        self.assertIn("/nonexistent/gpusoc: not an executable file", r.stderr)
        r = speed_ab(GPUSOC, GPUSOC, "--cpus", "0")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--cpus 0: two different CPU numbers", r.stderr)
        r = speed_ab(GPUSOC, GPUSOC, "--pairs", "1", "--requests", "10", "--pattern", "nonsense")
        self.assertEqual(r.returncode, 2)
        self.assertIn(f"{GPUSOC} failed", r.stderr)
        self.assertIn("nonsense", r.stderr)
        r = speed_ab(GPUSOC, GPUSOC, "--pattern", "stream", "--", "info")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--pattern stream: memtrace options, beside a whole command line", r.stderr)
        r = speed_ab(GPUSOC, GPUSOC, "--")
        self.assertEqual(r.returncode, 2)
        self.assertIn("nothing after `--`", r.stderr)


if __name__ == "__main__":
    unittest.main()
