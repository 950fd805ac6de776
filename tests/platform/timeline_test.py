#!/usr/bin/python3
"""--timeline on the built gpusoc program (argv[1]): the trace-event file against the run's own
statistics file.

Each launch is one kernel span with the start and end its per-launch record has; the SMs' CTA
spans are the CTAs the distributor placed, each inside its launch; the command processor's
packet spans are the packets it counted; the copy engines' spans carry the bytes they counted;
the host's API calls include each launch; counters sample DRAM bandwidth per partition, the L2
and the SMs. With timeline.max_events the file keeps that many events and says how many it
dropped. The file is what Perfetto and chrome://tracing read: a traceEvents list of complete
(X), counter (C) and metadata (M) events with microsecond timestamps.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GPUSOC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build/platform/gpusoc")
RUN = ["run", "two_streams", "--config", os.path.join(ROOT, "configs/small.json"), "--set",
       "sm.model=cycle"]


def value(node):
    return node["value"] if isinstance(node, dict) else node


class Timeline(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        timeline, stats = (os.path.join(cls.dir.name, n) for n in ("t.json", "s.json"))
        done = subprocess.run([GPUSOC, *RUN, "--timeline", timeline, "--stats-out", stats],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        cls.out = done.stdout
        with open(timeline) as f:
            cls.trace = json.load(f)
        with open(stats) as f:
            cls.stats = json.load(f)["gpu"]
        events = cls.trace["traceEvents"]
        cls.groups = {e["pid"]: e["args"]["name"] for e in events
                      if e["ph"] == "M" and e["name"] == "process_name"}
        cls.spans = {}
        for e in events:
            if e["ph"] == "X":
                cls.spans.setdefault(cls.groups[e["pid"]], []).append(e)
        cls.counters = [e for e in events if e["ph"] == "C"]

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_every_event_is_of_the_trace_event_format(self):
        for e in self.trace["traceEvents"]:
            self.assertIn(e["ph"], ("X", "C", "M"))
            self.assertIsInstance(e["pid"], int)
            if e["ph"] != "M":
                self.assertGreaterEqual(e["ts"], 0)
            if e["ph"] == "X":
                self.assertGreaterEqual(e["dur"], 0)
        self.assertEqual(self.trace["otherData"]["dropped_events"], 0)
        self.assertIn(f"timeline {self.trace['otherData']['events']} events written", self.out)

    def test_each_launch_is_a_kernel_span_as_its_record_says(self):
        records = {value(g["grid_id"]): g for name, g in
                   self.stats["cta_dispatcher"]["launches"].items() if name.startswith("grid")}
        kernels = self.spans["kernels"]
        self.assertEqual(len(kernels), len(records))
        for span in kernels:
            grid = int(re.match(r"grid (\d+):", span["args"]["detail"]).group(1))
            record = records[grid]
            self.assertEqual(span["name"], value(record["kernel"]))
            self.assertAlmostEqual(span["ts"], value(record["start_ns"]) / 1e3, places=6)
            self.assertAlmostEqual(span["ts"] + span["dur"], value(record["end_ns"]) / 1e3,
                                   places=6)

    def test_cta_spans_are_the_placed_ctas_inside_their_launch(self):
        ctas = self.spans["SMs"]
        self.assertEqual(len(ctas), value(self.stats["cta_dispatcher"]["ctas"]))
        kernel = {int(re.match(r"grid (\d+):", k["args"]["detail"]).group(1)): k
                  for k in self.spans["kernels"]}
        for c in ctas:
            grid = kernel[int(re.match(r"grid (\d+),", c["args"]["detail"]).group(1))]
            self.assertGreaterEqual(c["ts"], grid["ts"] - 1e-6)
            self.assertLessEqual(c["ts"] + c["dur"], grid["ts"] + grid["dur"] + 1e-6)

    def test_packets_copies_and_api_calls_match_the_counts(self):
        self.assertEqual(len(self.spans["command processor"]),
                         value(self.stats["command_processor"]["packets"]))
        copied = sum(value(g[k]) for name, g in self.stats.items()
                     if name.startswith("copy_engine")
                     for k in ("host_to_device_bytes", "device_to_host_bytes",
                               "device_to_device_bytes", "filled_bytes"))
        spans = sum(int(s["args"]["detail"].split()[0]) for s in self.spans["copy engines"])
        self.assertEqual(spans, copied)
        launches = [s for s in self.spans["host"] if s["name"] == "launch"]
        self.assertEqual(len(launches), len(self.spans["kernels"]))
        for s in launches:  # a launch call returns before its kernel ends
            self.assertLess(s["ts"], max(k["ts"] + k["dur"] for k in self.spans["kernels"]))

    def test_counters_sample_dram_l2_and_sms(self):
        names = {(self.groups[c["pid"]], c["name"]) for c in self.counters}
        self.assertIn(("DRAM GB/s", "partition 0"), names)
        self.assertIn(("SMs", "achieved occupancy"), names)
        self.assertIn(("SMs", "issued IPC per SM"), names)
        occupancy = [c["args"]["value"] for c in self.counters if c["name"] == "achieved occupancy"]
        self.assertTrue(all(0 <= v <= 1 for v in occupancy))
        self.assertGreater(max(occupancy), 0.5)

    def test_the_cap_keeps_that_many_events_and_counts_the_rest(self):
        path = os.path.join(self.dir.name, "capped.json")
        done = subprocess.run([GPUSOC, *RUN, "--timeline", path, "--set",
                               "timeline.max_events=100"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(path) as f:
            trace = json.load(f)
        self.assertEqual(trace["otherData"]["events"], 100)
        self.assertGreater(trace["otherData"]["dropped_events"], 0)
        self.assertEqual(sum(e["ph"] != "M" for e in trace["traceEvents"]), 100)
        self.assertIn("past timeline.max_events dropped", done.stdout)


if __name__ == "__main__":
    unittest.main()
