"""Times pyodata's V2 metadata build in-process, the peer of ImportBenchmarks' V2 row.

    python3 Benchmarks/pyodata_build.py FILE [RUNS]
    python3 Benchmarks/pyodata_build.py FILE --serve

Prints one line of JSON: {"median_ms": ..., "min_ms": ..., "runs": N, "entity_sets": N,
"pyodata": "version"}. The file is read once; each run is MetadataBuilder(xml).build().

With --serve it first prints {"entity_sets": N, "pyodata": "version"}, then reads a count from
each line of standard input, runs that many builds and answers with one line
{"times_ms": [...]}, until standard input ends. ImportBenchmarks drives it this way so its
batches and pyodata's alternate in time and a burst of load on the shared machine falls on both.
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


def timed_builds(xml: bytes, runs: int) -> list[float]:
    """Milliseconds each of `runs` builds takes."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        MetadataBuilder(xml).build()
        times.append((time.perf_counter() - start) * 1000)
    return times


def serve(xml: bytes, schema) -> None:
    print(json.dumps({"entity_sets": len(schema.entity_sets), "pyodata": version("pyodata")}), flush=True)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps({"times_ms": timed_builds(xml, int(line))}), flush=True)


def main() -> None:
    path = sys.argv[1]
    logging.disable(logging.CRITICAL)
    with open(path, "rb") as handle:
        xml = handle.read()
    schema = MetadataBuilder(xml).build()  # warm up imports and caches
    if len(sys.argv) > 2 and sys.argv[2] == "--serve":
        serve(xml, schema)
        return
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    times = timed_builds(xml, runs)
    print(json.dumps({
        "median_ms": statistics.median(times),
        "min_ms": min(times),
        "runs": runs,
        "entity_sets": len(schema.entity_sets),
        "pyodata": version("pyodata"),
    }))


if __name__ == "__main__":
    main()
