#!/usr/bin/python3
"""scripts/validate on the built gpusoc program (argv[1]).

Two quick figures of the V100 run for real and land within their class's target of the published
value (the L1 hit latency, calibrated, and the FP32 FMA throughput, which the SM's lanes set);
--json gives one line per figure with its source; --markdown writes the table with the MAPE
summary; the references file checks out (every figure cites a known source and configuration);
bad input (an unknown configuration, a missing program, a figure no app reports) is one clear
error; the footprint sweep on the 8800 GTX, which caches no global loads, is flat.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GPUSOC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build/platform/gpusoc")
SCRIPT = os.path.join(ROOT, "scripts/validate")


def validate(*args):
    return subprocess.run([SCRIPT, "--gpusoc", GPUSOC, *args], capture_output=True, text=True)


class ValidateTest(unittest.TestCase):
    def test_figures_meet_their_targets_with_sources(self):
        with tempfile.TemporaryDirectory() as d:
            md = os.path.join(d, "table.md")
            r = validate("--config", "volta-v100", "--only", "L1 hit latency", "--json",
                         "--markdown", md)
            self.assertEqual(r.returncode, 0, r.stderr)
            rows = [json.loads(line) for line in r.stdout.splitlines()]
            self.assertEqual(len(rows), 1)
            row = rows[0]
            self.assertEqual(row["config"], "volta-v100")
            self.assertEqual(row["reference"], 28)
            self.assertLess(abs(row["simulated"] / 28 - 1), 0.15)
            self.assertAlmostEqual(row["ratio"], row["simulated"] / 28)
            self.assertIn("Jia", row["source"])
            self.assertTrue(row["within_target"])
            with open(md, encoding="utf-8") as f:
                text = f.read()
            self.assertIn("| volta-v100 | L1 hit latency |", text)
            self.assertIn("volta-v100: MAPE", text)
        r = validate("--config", "volta-v100", "--only", "FP32 FMA throughput")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("FP32 FMA throughput", r.stdout)
        self.assertIn("met", r.stdout)

    def test_the_footprint_sweep_plots_latency_flat_without_a_cache(self):
        # The 8800 GTX caches no global loads: every footprint is a DRAM access.
        with tempfile.TemporaryDirectory() as d:
            png = os.path.join(d, "sweep.png")
            r = validate("--config", "tesla-8800gtx", "--sweep", png)
            self.assertEqual(r.returncode, 0, r.stderr)
            rows = [line.split() for line in r.stdout.splitlines()[1:]]
            self.assertEqual([row[0] for row in rows], [str(8 << k) for k in range(14)])
            latencies = [float(row[2]) for row in rows]
            self.assertLess(max(latencies) / min(latencies), 1.05)
            self.assertGreater(min(latencies), 400)
            self.assertGreater(os.path.getsize(png), 1000)

    def test_the_references_cite_known_sources(self):
        with open(os.path.join(ROOT, "scripts/validation/references.json"), encoding="utf-8") as f:
            data = json.load(f)
        for fig in data["figures"]:
            self.assertIn(fig["source"], data["sources"], fig["metric"])
            self.assertIn(fig["config"], data["configs"], fig["metric"])
            self.assertTrue(os.path.exists(os.path.join(ROOT, data["configs"][fig["config"]])))
            self.assertTrue(fig["where"], fig["metric"])

    def test_bad_input_is_one_clear_error(self):
        r = validate("--config", "geforce-9999")
        self.assertEqual(r.returncode, 1)
        self.assertIn("unknown configuration 'geforce-9999'", r.stderr)
        r = subprocess.run([SCRIPT, "--gpusoc", "/nonexistent/gpusoc"], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("/nonexistent/gpusoc: not found", r.stderr)
        with tempfile.TemporaryDirectory() as d:
            refs = os.path.join(d, "refs.json")
            with open(refs, "w", encoding="utf-8") as f:
                json.dump({"sources": {"s": "a source"}, "configs": {"c": "configs/small.json"},
                           "figures": [{"config": "c", "metric": "m", "class": "latency",
                                        "run": ["latency", 4096], "figure": "no_such_figure",
                                        "reference": 1, "unit": "cycles", "source": "s",
                                        "where": "p. 1"}]}, f)
            r = validate("--references", refs)
            self.assertEqual(r.returncode, 1)
            self.assertIn("latency reports no figure 'no_such_figure'", r.stderr)


if __name__ == "__main__":
    unittest.main()
