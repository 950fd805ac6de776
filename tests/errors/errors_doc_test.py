#!/usr/bin/python3
"""docs/errors.md, row by row (argv[1]: the built gpusoc program).

A row whose "Try it" is a command runs from the repository root ("gpusoc" is the built program,
"scripts/..." a script of ours, NAME=VALUE words before it set the environment) and must exit
with the row's status and print the row's quoted text on standard error. A row whose "Try it"
names a test must name a GoogleTest test that exists in tests/.
"""
import os
import re
import shlex
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GPUSOC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build/platform/gpusoc")
DOC = os.path.join(ROOT, "docs/errors.md")
TIMEOUT_S = 120  # a row that hangs fails rather than stalling the suite


def rows():
    """(section, bad input, try it, exit, what the user sees) of every table row."""
    section = ""
    with open(DOC, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                section = line[3:].strip()
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not line.startswith("|") or len(cells) != 4 or cells[0] in ("Bad input", "---"):
                continue
            yield section, cells[0], cells[1], cells[2], cells[3]


def quoted(cell):
    """The text between the first pair of backticks."""
    match = re.search(r"`([^`]*)`", cell)
    return match.group(1) if match else None


def google_tests():
    """Suite.Name of every TEST and TEST_F under tests/."""
    names = set()
    pattern = re.compile(r"^TEST(?:_F|_P)?\((\w+),\s*(\w+)\)", re.M)
    for folder, _, files in os.walk(os.path.join(ROOT, "tests")):
        for name in files:
            if name.endswith(".cpp"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    names.update(f"{s}.{n}" for s, n in pattern.findall(f.read()))
    return names


class ErrorsDoc(unittest.TestCase):
    def test_every_row_behaves_as_documented(self):
        tests = google_tests()
        seen = 0
        for section, what, try_it, status, sees in rows():
            seen += 1
            with self.subTest(section=section, row=what):
                if try_it.startswith("test "):
                    self.assertIn(quoted(try_it), tests, "no such test")
                    continue
                words = shlex.split(quoted(try_it))
                env = dict(os.environ)
                while words and re.match(r"^[A-Z_]+=", words[0]):
                    key, value = words.pop(0).split("=", 1)
                    env[key] = value
                if words[0] == "gpusoc":
                    words[0] = GPUSOC
                elif words[0].startswith("scripts/"):
                    words[0] = os.path.join(ROOT, words[0])
                else:
                    self.fail(f"'{try_it}' is neither a gpusoc command, a script nor a test")
                done = subprocess.run(words, cwd=ROOT, env=env, capture_output=True, text=True,
                                      timeout=TIMEOUT_S)
                self.assertEqual(done.returncode, int(status), done.stderr)
                self.assertIn(quoted(sees), done.stderr)
                # One clear error, not a crash: no traceback, no sanitizer or abort report.
                self.assertNotIn("Traceback", done.stderr)
                self.assertNotIn("terminate called", done.stderr)
        self.assertGreater(seen, 30, "docs/errors.md lost its tables")


if __name__ == "__main__":
    unittest.main()
