#!/usr/bin/env python3
"""Reads a ZIP with Python's zipfile, a real unzipper independent of Fieldwork's writer, and
prints what it found as JSON: each entry's name, size, CRC-32 and first bytes (hex), and the
rows of manifest.csv. Exits 1 when the archive does not read: a bad CRC-32, sizes that do not
add up, a name that would land outside the folder it is unpacked into.

    python3 scripts/check_zip.py ARCHIVE.zip

The in-process tests (Tests/FormWebTests/ExportTests.swift) run it on the attachments export
and on an archive written with every Zip64 record.
"""
import csv
import io
import json
import sys
import zipfile


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with zipfile.ZipFile(sys.argv[1]) as archive:
            bad = archive.testzip()  # reads every entry and checks its CRC-32
            if bad is not None:
                print(f"bad CRC-32 in {bad}", file=sys.stderr)
                return 1
            entries = []
            for info in archive.infolist():
                name = info.filename
                if name.startswith("/") or ".." in name.split("/") or "\\" in name:
                    print(f"unsafe name {name!r}", file=sys.stderr)
                    return 1
                data = archive.read(info)
                if len(data) != info.file_size:
                    print(f"{name}: read {len(data)} bytes, the directory says {info.file_size}", file=sys.stderr)
                    return 1
                entries.append({"name": name, "size": info.file_size, "crc": info.CRC, "head": data[:16].hex(),
                                "utf8": bool(info.flag_bits & 0x800)})
            manifest = []
            if "manifest.csv" in archive.namelist():
                text = archive.read("manifest.csv").decode("utf-8")
                manifest = list(csv.reader(io.StringIO(text, newline="")))
    except zipfile.BadZipFile as error:
        print(f"not a ZIP archive: {error}", file=sys.stderr)
        return 1
    print(json.dumps({"entries": entries, "manifest": manifest}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
