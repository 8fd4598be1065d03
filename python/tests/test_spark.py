"""The Spark job (examples/spark/extract_links.py) in ``local[2]``: run by
``spark-submit`` over ../shared/corpus/logs and one mail folder, its rows
equal what ``uriscan --json`` prints for the same files, as a multiset.
And ``extract_uris`` over the lines of a log equals the command on the
whole log.

Needs pyspark and Java: without them the tests skip with a notice, unless
``URISCAN_REQUIRE_SPARK`` is set (``.ci/run`` sets it), which makes their
absence a failure.
"""

import importlib.util
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from conftest import ROOT, cli_json, shared

sys.path.insert(0, str(ROOT / "examples" / "spark"))

JOB = ROOT / "examples" / "spark" / "extract_links.py"


def require_spark():
    """Skips (or, under ``URISCAN_REQUIRE_SPARK``, fails) unless pyspark,
    pyarrow, pandas and Java are there."""
    missing = [m for m in ("pyspark", "pyarrow", "pandas") if importlib.util.find_spec(m) is None]
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        missing.append("Java (java on PATH or JAVA_HOME)")
    if not missing:
        return
    reason = "the Spark tests need " + ", ".join(missing)
    if os.environ.get("URISCAN_REQUIRE_SPARK"):
        pytest.fail(reason + " and URISCAN_REQUIRE_SPARK is set")
    print(f"note: skipping, {reason}", file=sys.stderr)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def spark_env():
    """The environment for Spark: its Python workers run this Python."""
    require_spark()
    env = dict(os.environ)
    env["PYSPARK_PYTHON"] = env["PYSPARK_DRIVER_PYTHON"] = sys.executable
    return env


def local_path(spark_path):
    """A local file's path from Spark's name for it (``file:/a%20b``)."""
    return unquote(urlparse(spark_path).path)


def test_the_job_equals_the_command(cli, spark_env, tmp_path):
    inputs = [shared("corpus/logs"), shared("corpus/mail/usrp-users")]
    output = tmp_path / "links"
    submit = Path(sys.executable).with_name("spark-submit")
    run = subprocess.run(
        [submit if submit.exists() else "spark-submit", "--master", "local[2]",
         JOB, *inputs, output],
        env=spark_env, capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr[-4000:]

    import pyarrow.parquet as pq

    rows = pq.read_table(output).to_pylist()
    got = Counter(
        (local_path(r["path"]), r["line"], r["column"], r["uri"], r["delimiter"],
         r["wrapped"], r["message_id"], r["part"])
        for r in rows
    )
    want = Counter(
        (path, r["line"], r["column"], r["uri"], r["delimiter"], r["wrapped"],
         r.get("message_id"), r.get("part"))
        for path, records in cli_json(cli, inputs).items()
        for r in records
    )
    assert sum(want.values()) > 10_000
    assert {p for p, *_ in want} == {local_path(r["path"]) for r in rows}
    assert got == want, (list((got - want).items())[:5], list((want - got).items())[:5])


def test_extract_uris_over_log_lines_equals_the_command(cli, spark_env, monkeypatch):
    for name in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON"):
        monkeypatch.setenv(name, spark_env[name])
    from pyspark.sql import SparkSession
    from pyspark.sql.functions import explode

    log = shared("corpus/logs") / "apache_logs"
    spark = SparkSession.builder.master("local[2]").appName("uriscan test").getOrCreate()
    try:
        spark.sparkContext.addPyFile(str(JOB))
        from extract_links import extract_uris

        lines = spark.read.text(str(log))
        uris = lines.select(explode(extract_uris("value")).alias("uri"))
        got = Counter(row.uri for row in uris.collect())
        nulls = spark.createDataFrame([(None,), ("see <http://a.org/>",)], "value string")
        assert [r.u for r in nulls.select(extract_uris(nulls.value).alias("u")).collect()] == [
            None, ["http://a.org/"],
        ]
    finally:
        spark.stop()
    want = Counter(r["uri"] for r in cli_json(cli, ["--no-mail", log])[str(log)])
    assert sum(want.values()) > 1_000
    assert got == want
