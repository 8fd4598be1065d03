"""Extract the URIs of whole files with Spark, with the answers of the
``uriscan`` command.

    spark-submit --master local[2] examples/spark/extract_links.py INPUT... OUTPUT

Reads every file under the INPUT paths (files or directories, local or on
any file system Spark reads: ``hdfs://``, ``s3a://``, ...) with Spark's
``binaryFile`` source, one row per whole file, so that an mbox is split
into its messages and a URI wrapped over lines is found whole, as on one
machine. Each file is scanned by the ``uriscan`` Python package inside
``mapInArrow``, exactly as ``uriscan --json FILE`` scans it (HTML,
Markdown and man pages read as documents by their names; mail or plain
text decided from its first 8 KiB; files that look binary skipped), and
the URIs are written to OUTPUT as Parquet, one row each::

    path STRING       the file, as Spark names it (file:/..., hdfs://...)
    line BIGINT       the line and column of the file where the URI is
    column BIGINT     written (in mail too: encoded, as uriscan --json)
    uri STRING
    delimiter STRING  angle, quote or none
    wrapped BOOLEAN
    message_id STRING in mail mode, else null
    part STRING       in mail mode (text/plain, header:List-Id, ...), else null

The workers need the ``uriscan`` package (``pip install ./python`` on each,
or a packed environment given with ``--archives``). A file must be
smaller than 2 GiB, Spark's limit for one ``binaryFile`` row.

For tables of text, one log line per row, ``extract_uris(col)`` is a
column function giving the URIs of each value as ``array<string>``::

    from extract_links import extract_uris   # --py-files extract_links.py
    logs = spark.read.text("logs/")
    logs.select(extract_uris("value").alias("uris"))
"""

import sys

import pandas as pd
import pyarrow as pa
from pyspark.sql import Column, SparkSession
from pyspark.sql.functions import col as column_named
from pyspark.sql.functions import pandas_udf
from pyspark.sql.types import (
    ArrayType,
    BooleanType,
    LongType,
    StringType,
    StructField,
    StructType,
)

#: The rows written, as Spark and as Arrow see them.
SCHEMA = StructType(
    [
        StructField("path", StringType(), False),
        StructField("line", LongType(), False),
        StructField("column", LongType(), False),
        StructField("uri", StringType(), False),
        StructField("delimiter", StringType(), False),
        StructField("wrapped", BooleanType(), False),
        StructField("message_id", StringType(), True),
        StructField("part", StringType(), True),
    ]
)
ARROW_SCHEMA = pa.schema(
    [
        pa.field("path", pa.string(), False),
        pa.field("line", pa.int64(), False),
        pa.field("column", pa.int64(), False),
        pa.field("uri", pa.string(), False),
        pa.field("delimiter", pa.string(), False),
        pa.field("wrapped", pa.bool_(), False),
        pa.field("message_id", pa.string(), True),
        pa.field("part", pa.string(), True),
    ]
)

#: How many whole files travel to a Python worker in one Arrow batch,
#: unless the job is given spark.sql.execution.arrow.maxRecordsPerBatch
#: (Spark's default, 10,000 rows, is meant for rows much smaller than
#: files).
FILES_PER_BATCH = 64


def scan_batches(batches):
    """``mapInArrow`` function: each (path, content) row of each batch
    gives one output row per URI found in the content."""
    import uriscan

    for batch in batches:
        out = {name: [] for name in ARROW_SCHEMA.names}
        paths = batch.column("path").to_pylist()
        contents = batch.column("content")
        for i, path in enumerate(paths):
            doc = uriscan.doc_kind(path)
            for f in uriscan.scan(contents[i].as_py(), doc=doc, skip_binary=True):
                out["path"].append(path)
                out["line"].append(f.line)
                out["column"].append(f.column)
                out["uri"].append(f.uri)
                out["delimiter"].append(f.delimiter)
                out["wrapped"].append(f.wrapped)
                out["message_id"].append(f.message_id)
                out["part"].append(f.part)
        yield pa.RecordBatch.from_pydict(out, schema=ARROW_SCHEMA)


def extract_links(spark, inputs):
    """The URIs of every file under ``inputs``, as a DataFrame of
    ``SCHEMA``."""
    files = (
        spark.read.format("binaryFile")
        .option("recursiveFileLookup", "true")
        .load(inputs)
        .select("path", "content")
    )
    return files.mapInArrow(scan_batches, SCHEMA)


def extract_uris(text, *, any_scheme=False, hyphen="keep"):
    """Column function: the URIs of each value of ``text`` (a column or a
    column name, of strings or binary), as ``array<string>``, in order.

    Each value is scanned as plain text, never as mail (a line of a log is
    not a message); null gives null. ``any_scheme`` and ``hyphen`` are
    those of ``uriscan.scan``.
    """

    @pandas_udf(ArrayType(StringType()))
    def uris(values: pd.Series) -> pd.Series:
        import uriscan

        def one(value):
            # A null is None, or NaN in pandas' string columns.
            if value is None or (isinstance(value, float) and pd.isna(value)):
                return None
            found = uriscan.scan(value, mail=False, any_scheme=any_scheme, hyphen=hyphen)
            return [f.uri for f in found]

        return values.map(one)

    return uris(text if isinstance(text, Column) else column_named(text))


def main(argv):
    if len(argv) < 3:
        sys.exit(f"usage: {argv[0]} INPUT... OUTPUT")
    *inputs, output = argv[1:]
    spark = SparkSession.builder.appName("uriscan extract_links").getOrCreate()
    batch_key = "spark.sql.execution.arrow.maxRecordsPerBatch"
    if not spark.sparkContext.getConf().contains(batch_key):
        spark.conf.set(batch_key, FILES_PER_BATCH)
    extract_links(spark, inputs).write.parquet(output)
    spark.stop()


if __name__ == "__main__":
    main(sys.argv)
