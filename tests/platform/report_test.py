#!/usr/bin/python3
"""scripts/report on a run of the built gpusoc program (argv[1]), rendered in headless Chromium.

Against the statistics file: the page shows the run's command line, each kernel's IPC and each
launch; with a trace-event file it counts its spans and counters. Chromium (Debian's chromium,
which scripts/test installs) loads the page and every embedded plot decodes (the page's own
check writes "loaded: N plots"). A file that is not a statistics file is one clear error.
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GPUSOC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build/platform/gpusoc")
REPORT = os.path.join(ROOT, "scripts/report")
CHROMIUM = shutil.which("chromium")


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.stats = os.path.join(cls.dir.name, "run.json")
        done = subprocess.run([GPUSOC, "run", "two_streams", "--config",
                               os.path.join(ROOT, "configs/small.json"), "--set",
                               "sm.model=cycle", "--stats-out", cls.stats],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        with open(cls.stats) as f:
            cls.data = json.load(f)
        cls.trace = os.path.join(cls.dir.name, "timeline.json")
        with open(cls.trace, "w") as f:
            json.dump({"traceEvents": [
                {"name": "k", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 5},
                {"name": "k", "ph": "X", "pid": 1, "tid": 2, "ts": 3, "dur": 4},
                {"name": "bw", "ph": "C", "pid": 1, "ts": 2, "args": {"GB/s": 10}}]}, f)
        cls.page = os.path.join(cls.dir.name, "run.html")
        done = subprocess.run([REPORT, cls.stats, cls.trace, "--out", cls.page],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        with open(cls.page) as f:
            cls.html = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_the_page_shows_the_runs_own_figures(self):
        self.assertIn(html.escape(self.data["provenance"]["command_line"]), self.html)
        for name, kernel in self.data["gpu"]["kernels"].items():
            ipc = kernel["ipc"]["value"]
            self.assertRegex(self.html, rf"<code>{name}</code>(</td><td>[^<]*){{2}}</td>"
                                        rf"<td>{ipc:.3g}</td>")
        grids = [k for k in self.data["gpu"]["cta_dispatcher"]["launches"] if k.startswith("grid")]
        self.assertEqual(len(grids), 4)
        self.assertEqual(len(re.findall(r"<td><code>vector_add</code></td><td>[12]</td>",
                                        self.html)), 4)
        self.assertIn("2 spans and 1 counter samples", self.html)

    @unittest.skipIf(CHROMIUM is None, "chromium is not installed (scripts/test installs it)")
    def test_chromium_loads_the_page_and_every_plot(self):
        done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                               "--dump-dom", "file://" + self.page],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        plots = self.html.count('src="data:image/png;base64,')
        self.assertGreaterEqual(plots, 4)  # stalls, hit rates, partitions, launches, timeline
        self.assertIn(f'<p id="status">loaded: {plots} plots</p>', done.stdout)

    def test_a_file_that_is_not_statistics_is_one_error(self):
        bad = os.path.join(self.dir.name, "bad.json")
        with open(bad, "w") as f:
            json.dump({"hello": 1}, f)
        done = subprocess.run([REPORT, bad], capture_output=True, text=True)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stderr.count("\n"), 1)
        self.assertIn("not a gpusoc statistics file", done.stderr)


if __name__ == "__main__":
    unittest.main()
