#!/usr/bin/python3
"""scripts/memsweep and scripts/memplot on the built gpusoc program (argv[1]).

A rate sweep of random reads into the 8800 GTX's partitions, checked against what the offered load
and the DRAM peak allow: at a rate far below the peak the memory system delivers all of it (the
last request is offered at (N - 1) * size / rate, so N * size over that plus one latency is the
bound); above the peak it delivers no more than the peak; and latency grows with the load. Then
the plots: PNG files, when matplotlib is there (CI installs it).
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
        cls.done = run(os.path.join(ROOT, "scripts/memsweep"), "--gpusoc", GPUSOC,
                       "--config", CONFIG, "--into", "partitions", "--pattern", "random",
                       "--requests", str(REQUESTS), "--vary", "rate=4,40,400", "--out", cls.out)
        with open(os.path.join(cls.out, "sweep.csv")) as f:
            cls.rows = list(csv.DictReader(f))

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_one_row_per_rate_in_order(self):
        self.assertEqual(self.done.returncode, 0, self.done.stderr)
        self.assertEqual([r["value"] for r in self.rows], ["4", "40", "400"])
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

    def test_an_overload_gets_no_more_than_the_peak_and_waits_longer(self):
        light, heavy = self.rows[0], self.rows[-1]
        peak = float(heavy["peak_bandwidth_gbps"])
        self.assertGreater(float(heavy["offered_gbps"]), peak)
        self.assertLessEqual(float(heavy["bandwidth_gbps"]), peak)
        self.assertGreater(float(heavy["latency_avg_ns"]), 1.2 * float(light["latency_avg_ns"]))

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
