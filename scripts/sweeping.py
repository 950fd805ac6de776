"""The sweep engine of scripts/sweep and scripts/memsweep.

Every point of a grid of values runs `gpusoc COMMAND... --set KEY=VALUE... --stats-out FILE` as
its own process, on Dask distributed: a local cluster, or any running Dask scheduler (a cluster
started with dask-ssh or under Slurm) whose workers see the same files (the gpusoc program, the
configurations, the output folder) at the same paths.

A point's statistics file is named by a hash of the program's version and commit, the command
and the point's values, and written only when the run succeeded: a sweep run again (after an
interruption, or with more values) reuses every point it finds. A point that fails is tried once
more; if it fails again it is recorded with its error and the sweep goes on.
"""
import hashlib
import itertools
import json
import os
import subprocess
import sys


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build_gpusoc():
    """The program of the default build, built (incrementally) first, as scripts/run does;
    None when the build failed (its errors are on the terminal)."""
    done = subprocess.run(["bash", "-c", f'source "{ROOT}/scripts/common.sh"; gpusoc_build'])
    if done.returncode != 0:
        return None
    build = os.environ.get("GPUSOC_BUILD", os.path.join(ROOT, "build"))
    return os.path.join(build, "platform", "gpusoc")


def numeric(values):
    """The values as numbers, or None when one is not."""
    try:
        return [float(v) for v in values]
    except (TypeError, ValueError):
        return None


class Axis:
    """One swept knob: `name` is set:PARAMETER (a configuration parameter, given as --set) or the
    name of one of the command's options (rate, pattern, ...), with the values it takes."""

    def __init__(self, name, values):
        self.name = name
        self.values = list(values)

    def arguments(self, value):
        if self.name.startswith("set:"):
            return ["--set", f"{self.name[4:]}={value}"]
        return [f"--{self.name}", str(value)]

    def label(self):
        return self.name[4:] if self.name.startswith("set:") else self.name


def grid(axes):
    """Every combination of the axes' values, the last axis varying fastest: dicts label -> value."""
    return [dict(zip([a.label() for a in axes], values))
            for values in itertools.product(*[a.values for a in axes])]


def file_digest(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def program_identity(gpusoc, command):
    """What the results depend on besides the swept values: the program itself (its bytes: a
    rebuild of a changed tree says -dirty either way) and the files the command names (a
    configuration, a trace, a module), by content. Results of another build or of edited inputs
    are not reused."""
    identity = [file_digest(gpusoc)]
    for arg in command:
        for candidate in (arg, arg.partition("=")[2]):
            if candidate and os.path.isfile(candidate):
                identity.append(file_digest(candidate))
    return identity


def point_key(identity, command, arguments):
    text = json.dumps([identity, command, arguments])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class PointFailed(Exception):
    pass


def run_point(argv, stats, cwd):
    """Runs one point in `cwd` (the client's directory, for relative paths in the command); its
    statistics go to a temporary name first, so that only a finished run leaves `stats` behind.
    Raises PointFailed with the program's error."""
    partial = stats + ".partial.json"
    done = subprocess.run([*argv, "--stats-out", partial], capture_output=True, text=True,
                          cwd=cwd)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        raise PointFailed(f"exit {done.returncode}: " + (lines[-1] if lines else "no message"))
    os.replace(partial, stats)
    return stats


def cached(stats):
    try:
        with open(stats) as f:
            json.load(f)
        return True
    except (OSError, ValueError):
        return False


def client_for(workers, scheduler):
    """A Dask client: of the scheduler at `scheduler` (tcp://HOST:PORT), else of a local cluster
    of `workers` workers, one point at a time each."""
    import cloudpickle
    from distributed import Client, LocalCluster
    # Workers elsewhere need not have this file on their path: the task travels by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    if scheduler:
        return Client(scheduler, timeout="30s"), None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                           dashboard_address=None)
    return Client(cluster), cluster


def sweep(gpusoc, command, axes, out, workers=2, scheduler=None, progress=None):
    """Runs every point; returns one row per point, in grid order:
    {"point": {label: value}, "status": "ran"|"cached"|"failed", "stats": path or None,
     "error": text or None}."""
    gpusoc, out = os.path.abspath(gpusoc), os.path.abspath(out)  # workers elsewhere see these
    points_dir = os.path.join(out, "points")
    os.makedirs(points_dir, exist_ok=True)
    identity = program_identity(gpusoc, command)
    rows, todo = [], []
    for point in grid(axes):
        arguments = [arg for a in axes for arg in a.arguments(point[a.label()])]
        stats = os.path.join(points_dir, point_key(identity, command, arguments) + ".json")
        row = {"point": point, "status": "cached", "stats": stats, "error": None}
        rows.append(row)
        if not cached(stats):
            todo.append((row, [gpusoc, *command, *arguments]))
    report = progress or (lambda done, total, row: None)
    total, done = len(rows), len(rows) - len(todo)
    report(done, total, None)
    if not todo:
        return rows
    from distributed import as_completed
    client, cluster = client_for(workers, scheduler)
    try:
        cwd = os.getcwd()
        futures = {client.submit(run_point, argv, row["stats"], cwd, retries=1, pure=False): row
                   for row, argv in todo}
        for future in as_completed(futures):
            row = futures[future]
            try:
                future.result()
                row["status"] = "ran"
            except Exception as e:  # the point's own failure, after its retry
                row.update(status="failed", stats=None, error=str(e))
            done += 1
            report(done, total, row)
    finally:
        client.close()
        if cluster:
            cluster.close()
    return rows


def statistic(stats, name):
    """The value of a dotted name in a statistics file ("gpu.memory_system.dram_row_hit_rate",
    "latency_ns.avg"): a statistic's value, or a report's number; None where there is none."""
    node = stats
    for part in name.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    if isinstance(node, dict):
        node = node.get("value")
    return node if isinstance(node, (int, float, str)) or node is None else None
