#!/usr/bin/python3
"""scripts/memsweep and scripts/memplot on the built gpusoc program (argv[1]).

A rate sweep of random reads into the 8800 GTX's partitions, checked against what the offered
load allows: at a rate far below the peak the memory system delivers all of it (the last request
is offered at (N - 1) * size / rate, so N * size over that plus one latency is the bound); past
saturation it delivers what the same requests unpaced get; and latency grows with the load. Then
the plots: PNG files, when matplotlib is there (scripts/test installs it).
"""
import csv
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GPUSOC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build/platform/gpusoc")
CONFIG = os.path.join(ROOT, "configs/tesla-8800gtx.json")
REQUESTS, SIZE = 4000, 32
HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True)


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


class RateSweep(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.out = os.path.join(cls.dir.name, "sweep")
        args = ["--config", CONFIG, "--into", "partitions", "--pattern", "random",
                "--requests", str(REQUESTS)]
        cls.done = run(os.path.join(ROOT, "scripts/memsweep"), "--gpusoc", GPUSOC, *args,
                       "--vary", "rate=4,80,400", "--out", cls.out)
        if cls.done.returncode != 0:
            raise AssertionError(f"memsweep failed:\n{cls.done.stderr}")
        with open(os.path.join(cls.out, "sweep.csv")) as f:
            cls.rows = list(csv.DictReader(f))
        # The same requests unpaced: what the memory system sustains.
        unpaced = os.path.join(cls.dir.name, "unpaced.json")
        done = run(GPUSOC, "memtrace", *args, "--stats-out", unpaced)
        if done.returncode != 0:
            raise AssertionError(f"memtrace failed:\n{done.stderr}")
        with open(unpaced) as f:
            cls.sustained = json.load(f)["bandwidth_gbps"]

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_one_row_per_rate_in_order(self):
        self.assertEqual([r["value"] for r in self.rows], ["4", "80", "400"])
        for r in self.rows:
            self.assertEqual(float(r["offered_gbps"]), float(r["value"]))
            self.assertEqual(int(r["requests"]), REQUESTS)

    def test_a_light_load_is_delivered_in_full(self):
        light = self.rows[0]
        offered, achieved = float(light["offered_gbps"]), float(light["bandwidth_gbps"])
        interval_ns = SIZE / offered
        with open(os.path.join(self.out, "point-0.json")) as f:
            elapsed = json.load(f)["elapsed_ns"]
        # The last request is offered at (N - 1) * interval and answered within a few hundred ns.
        self.assertGreaterEqual(elapsed, (REQUESTS - 1) * interval_ns)
        self.assertLessEqual(elapsed, (REQUESTS - 1) * interval_ns + 2000)
        self.assertLessEqual(achieved, offered * REQUESTS / (REQUESTS - 1))
        self.assertGreater(achieved, 0.95 * offered)

    def test_loads_past_saturation_get_what_an_unpaced_run_sustains_and_wait_longer(self):
        light = self.rows[0]
        self.assertLess(self.sustained, 40)  # random reads: a third of the 86.4 GB/s peak
        for loaded in self.rows[1:]:
            self.assertAlmostEqual(float(loaded["bandwidth_gbps"]) / self.sustained, 1, delta=0.02)
            self.assertGreater(float(loaded["latency_avg_ns"]),
                               1.2 * float(light["latency_avg_ns"]))

    @unittest.skipUnless(HAS_MATPLOTLIB, "no matplotlib")
    def test_plots_are_pngs(self):
        self.assertTrue(is_png(os.path.join(self.out, "sweep.png")))
        figure = os.path.join(self.dir.name, "point.png")
        done = run(os.path.join(ROOT, "scripts/memplot"), os.path.join(self.out, "point-1.json"),
                   "--out", figure)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(is_png(figure))


class BadInput(unittest.TestCase):
    def test_a_bad_vary_names_itself(self):
        done = run(os.path.join(ROOT, "scripts/memsweep"), "--gpusoc", GPUSOC, "--vary", "rate")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("--vary 'rate'", done.stderr)

    def test_a_knob_both_given_and_swept_is_refused(self):
        done = run(os.path.join(ROOT, "scripts/memsweep"), "--gpusoc", GPUSOC, "--rate", "5",
                   "--vary", "rate=1,2")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("--rate is given and also swept", done.stderr)

    def test_a_failing_point_names_the_value_and_the_error(self):
        with tempfile.TemporaryDirectory() as d:
            done = run(os.path.join(ROOT, "scripts/memsweep"), "--gpusoc", GPUSOC, "--config",
                       CONFIG, "--requests", "10", "--vary", "pattern=stream,zigzag", "--out", d)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("pattern=zigzag", done.stderr)
        self.assertIn("--pattern 'zigzag'", done.stderr)

    def test_memplot_refuses_a_file_that_is_not_a_report(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.json")
            with open(path, "w") as f:
                json.dump({"hello": 1}, f)
            done = run(os.path.join(ROOT, "scripts/memplot"), path)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("not a gpusoc memtrace report", done.stderr)


if __name__ == "__main__":
    unittest.main()
