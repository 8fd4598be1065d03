#!/usr/bin/env python3
"""Benchmarks of the Python package and of the Spark job, on
../shared/corpus (figures in the README).

1. One core, bytes in memory, best of RUNS with the contenders
   interleaved: ``uriscan.scan`` against the Rust library on the same
   bytes (``python/examples/baseline.rs``, built with the extension's own
   release profile), and against ``re.findall`` with a URL regex. Plain
   text over the whole corpus concatenated; mail mode over each file of
   corpus/mail.
2. A sample (every 80th corpus file, about 2 MB): ``uriscan.scan``,
   ``re.findall`` and ``urlextract`` (far slower: it cannot take the
   whole corpus).
3. The Spark job in ``local[2]`` against ``uriscan -j2 --json`` over the
   whole corpus: end to end, then where the time goes (phases timed in
   one session).

Run from the repository root, with the package installed beside pyspark,
pyarrow, pandas and urlextract, e.g.::

    python3 -m venv target/bench-venv
    target/bench-venv/bin/pip install ./python pyspark pyarrow "pandas<3" urlextract
    target/bench-venv/bin/python benches/python.py [--runs N] [--no-spark]
"""

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import uriscan

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
URL_RE = re.compile(rb"""(?:https?|ftp|mailto|file|news|urn):[^\s<>"]+""")


def files_under(directory):
    return sorted(Path(d) / f for d, _, names in os.walk(directory) for f in names)


def cargo_executable(args, cwd):
    """Builds with cargo; returns the path of the executable it names."""
    out = subprocess.run(
        ["cargo", "build", "--release", "--message-format=json", *args],
        cwd=cwd, capture_output=True, check=True,
    )
    for line in out.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            exe = msg["executable"]
    return exe


def best(fn, runs):
    """The best wall time of ``runs`` calls of ``fn``, and its last result."""
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def row(name, seconds, size, count, base=None):
    speed = size / seconds / 1e6
    ratio = f" | {base / seconds:.0%} of Rust" if base else ""
    print(f"| {name} | {seconds * 1000:,.0f} ms | {speed:,.0f} MB/s | {count:,} URIs{ratio} |")


def library(runs):
    baseline = cargo_executable(["--example", "baseline"], ROOT / "python")
    all_files = [str(p) for p in files_under(CORPUS)]
    mail_files = [str(p) for p in files_under(CORPUS / "mail")]
    data = b"".join(Path(f).read_bytes() for f in all_files)
    mails = [Path(f).read_bytes() for f in mail_files]
    mail_size = sum(map(len, mails))

    def rust(mode, files):
        out = subprocess.run([baseline, mode, "1", *files], capture_output=True, check=True)
        r = json.loads(out.stdout)
        return r["seconds"], r["uris"]

    plain = {"rust": [], "py": [], "re": []}
    mail = {"rust": [], "py": []}
    for _ in range(runs):
        plain["rust"].append(rust("plain", all_files))
        plain["py"].append(best(lambda: len(uriscan.scan(data, mail=False)), 1))
        plain["re"].append(best(lambda: len(URL_RE.findall(data)), 1))
        mail["rust"].append(rust("mail", mail_files))
        mail["py"].append(best(lambda: sum(len(uriscan.scan(m, mail=True)) for m in mails), 1))
    print(f"\n## one core, in memory: whole corpus ({len(data):,} bytes) as plain text; "
          f"corpus/mail ({mail_size:,} bytes, {len(mails)} files) in mail mode\n")
    print("| what | best time | throughput | found |")
    print("|---|---|---|---|")
    rust_plain = min(plain["rust"])
    row("Rust `find_iter` (plain)", *rust_plain[:1], len(data), rust_plain[1])
    row("`uriscan.scan(mail=False)`", *min(plain["py"])[:1], len(data), min(plain["py"])[1], rust_plain[0])
    row("`re.findall` URL regex", *min(plain["re"])[:1], len(data), min(plain["re"])[1])
    rust_mail = min(mail["rust"])
    row("Rust `mail::scan_mail` (mail)", rust_mail[0], mail_size, rust_mail[1])
    row("`uriscan.scan(mail=True)` per file", *min(mail["py"])[:1], mail_size, min(mail["py"])[1], rust_mail[0])


def sample(runs):
    from urlextract import URLExtract

    files = files_under(CORPUS)[::80]
    blobs = [p.read_bytes() for p in files]
    texts = [b.decode("utf-8", errors="replace") for b in blobs]
    size = sum(map(len, blobs))
    extractor = URLExtract()
    crashed = []

    def urlextract():
        # It raises on some inputs (a UnicodeDecodeError deep inside):
        # such a file counts as scanned, with nothing found.
        crashed.clear()
        n = 0
        for path, text in zip(files, texts):
            try:
                n += len(extractor.find_urls(text))
            except Exception as err:  # noqa: BLE001 - any failure of the contender
                crashed.append(f"{path.name}: {type(err).__name__}")
        return n

    print(f"\n## a sample: every 80th corpus file ({len(files)} files, {size:,} bytes), file by file\n")
    print("| what | best time | throughput | found |")
    print("|---|---|---|---|")
    for name, fn, n in [
        ("`uriscan.scan`", lambda: sum(len(uriscan.scan(b)) for b in blobs), runs),
        ("`re.findall` URL regex", lambda: sum(len(URL_RE.findall(b)) for b in blobs), runs),
        ("`urlextract` `find_urls` (on str)", urlextract, 1),
    ]:
        seconds, count = best(fn, n)
        row(name, seconds, size, count)
    if crashed:
        print(f"\nurlextract raised on {len(crashed)} file(s): {', '.join(crashed)}")


def spark(runs):
    cli = cargo_executable(["--bin", "uriscan"], ROOT)
    job = ROOT / "examples" / "spark" / "extract_links.py"
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    submit = Path(sys.executable).with_name("spark-submit")
    inputs = [str(CORPUS)]

    def run_cli():
        with open(os.devnull, "wb") as null:
            subprocess.run([cli, "-j2", "--json", *inputs], stdout=null, check=False)

    def run_job():
        out = Path(tempfile.mkdtemp()) / "links"
        subprocess.run([submit, "--master", "local[2]", job, *inputs, out],
                       env=env, capture_output=True, check=True)
        shutil.rmtree(out.parent)

    cli_s, _ = best(run_cli, runs)
    job_s, _ = best(run_job, max(1, runs // 3))
    print("\n## Spark job in local[2] against `uriscan -j2 --json`, whole corpus\n")
    print("| what | best time |")
    print("|---|---|")
    print(f"| `uriscan -j2 --json` | {cli_s:.2f} s |")
    print(f"| `spark-submit --master local[2] extract_links.py` | {job_s:.2f} s ({job_s / cli_s:.0f}x) |")
    phases(inputs, env, runs)


def phases(inputs, env, runs):
    """Where the job's time goes, phase by phase, in one session (each
    phase's best of its runs, after a first run that warms the JVM)."""
    os.environ.update({k: env[k] for k in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")})
    sys.path.insert(0, str(ROOT / "examples" / "spark"))
    import pyarrow as pa
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    import extract_links

    start = time.perf_counter()
    spark = SparkSession.builder.master("local[2]").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    # The workers unpickle functions of the job's module: ship it to them.
    spark.sparkContext.addPyFile(str(ROOT / "examples" / "spark" / "extract_links.py"))
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", extract_links.FILES_PER_BATCH)
    session_s = time.perf_counter() - start
    files = (spark.read.format("binaryFile").option("recursiveFileLookup", "true")
             .load(inputs).select("path", "content"))
    empty = pa.RecordBatch.from_pydict({n: [] for n in extract_links.ARROW_SCHEMA.names},
                                       schema=extract_links.ARROW_SCHEMA)

    def nothing(batches):
        for _ in batches:
            yield empty

    out = tempfile.mkdtemp()
    steps = [
        ("list and read the files in the JVM", lambda: files.agg(F.sum(F.length("content"))).collect()),
        ("… and send them to Python workers (Arrow, no scan)",
         lambda: files.mapInArrow(nothing, extract_links.SCHEMA).write.format("noop").mode("overwrite").save()),
        ("… and scan them with uriscan",
         lambda: extract_links.extract_links(spark, inputs).write.format("noop").mode("overwrite").save()),
        ("… and write Parquet (the whole job)",
         lambda: extract_links.extract_links(spark, inputs).write.mode("overwrite").parquet(out)),
    ]
    print(f"\nPhases, in one session (session start: {session_s:.1f} s):\n")
    print("| cumulative phase | best time |")
    print("|---|---|")
    for name, fn in steps:
        fn()
        seconds, _ = best(fn, max(1, runs // 2))
        print(f"| {name} | {seconds:.2f} s |")
    spark.stop()
    shutil.rmtree(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-spark", action="store_true")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"benches/python.py: {CORPUS} is missing")
    print(f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
          f"{platform.system()} {platform.release()}, Python {platform.python_version()}, "
          f"uriscan {uriscan.__version__}")
    library(args.runs)
    sample(args.runs)
    if not args.no_spark:
        spark(args.runs)


if __name__ == "__main__":
    main()
