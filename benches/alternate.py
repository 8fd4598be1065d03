#!/usr/bin/env python3
"""Times commands against each other, alternating them run by run.

On a shared machine the speed drifts over seconds; hyperfine runs all of
one command, then all of the next, so the drift lands in their ratio.
Here every round runs each command once (starting with a different one
each round), so each command sees the same machine, and the medians
compare.

Usage: alternate.py RUNS OUT.json COMMAND...
Prints one line per command (median, min, mean user and system time) and
writes hyperfine's JSON shape (results[i].median, .min, .mean, in seconds).
"""

import json
import resource
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv):
    """Wall, user and system seconds of one run of argv."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def main():
    runs, out, commands = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    argvs = [shlex.split(c) for c in commands]
    for argv in argvs:  # warm up: page cache, binaries
        run_once(argv)
        run_once(argv)
    times = [[] for _ in commands]
    for r in range(runs):
        for i in range(len(commands)):
            j = (i + r) % len(commands)
            times[j].append(run_once(argvs[j]))
    results = []
    for command, ts in zip(commands, times):
        walls = [t[0] for t in ts]
        result = {
            "command": command,
            "median": statistics.median(walls),
            "min": min(walls),
            "mean": statistics.mean(walls),
            "user": statistics.mean(t[1] for t in ts),
            "system": statistics.mean(t[2] for t in ts),
        }
        results.append(result)
        print(
            f"{result['median'] * 1e3:8.1f} ms median, {result['min'] * 1e3:7.1f} min"
            f" (user {result['user'] * 1e3:.0f} ms, system {result['system'] * 1e3:.0f} ms): {command}"
        )
    with open(out, "w") as f:
        json.dump({"results": results}, f)


if __name__ == "__main__":
    main()
