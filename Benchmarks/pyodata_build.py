"""Times pyodata's V2 metadata build in-process, the peer of ImportBenchmarks' V2 row.

    python3 Benchmarks/pyodata_build.py FILE [RUNS]

Prints one line of JSON: {"median_ms": ..., "min_ms": ..., "runs": N, "entity_sets": N,
"pyodata": "version"}. The file is read once; each run is MetadataBuilder(xml).build().
pyodata's logging is switched off, so its "Unsupported Annotation" lines cost nothing and the
run measures parsing and model building only.
"""
import json
import logging
import statistics
import sys
import time
from importlib.metadata import version

from pyodata.v2.model import MetadataBuilder


def main() -> None:
    path = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    logging.disable(logging.CRITICAL)
    with open(path, "rb") as handle:
        xml = handle.read()
    schema = MetadataBuilder(xml).build()  # warm up imports and caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        schema = MetadataBuilder(xml).build()
        times.append((time.perf_counter() - start) * 1000)
    print(json.dumps({
        "median_ms": statistics.median(times),
        "min_ms": min(times),
        "runs": runs,
        "entity_sets": len(schema.entity_sets),
        "pyodata": version("pyodata"),
    }))


if __name__ == "__main__":
    main()
