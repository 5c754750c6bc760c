#!/usr/bin/env python3
"""Writes derived-15.0.0.txt, an extract of the Unicode Character Database
file DerivedCoreProperties.txt: for each property below, its code points as
merged hex ranges (LO-HI, or one code point), several per line, each line
starting with the property name. Only the form changes: the code points are
exactly the file's. Usage: extract.py /usr/share/unicode/DerivedCoreProperties.txt"""
import sys

PROPS = ("Alphabetic", "Cased", "Grapheme_Base", "Grapheme_Extend", "ID_Continue",
         "ID_Start", "Lowercase", "Math", "Uppercase")

ranges = {p: [] for p in PROPS}
header = []
for line in open(sys.argv[1], encoding="utf-8"):
    if len(header) < 3:
        header.append(line.rstrip("\n"))
    data = line.split("#")[0].strip()
    if not data:
        continue
    cps, prop = (x.strip() for x in data.split(";"))
    if prop in ranges:
        lo, _, hi = cps.partition("..")
        ranges[prop].append((int(lo, 16), int(hi or lo, 16)))

out = header + ["# Extract: the code points of " + ", ".join(PROPS) + ",",
                "# as merged ranges, written by extract.py (see PROVENANCE.md)."]
for prop in PROPS:
    merged = []
    for lo, hi in sorted(ranges[prop]):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1][1] = max(hi, merged[-1][1])
        else:
            merged.append([lo, hi])
    items = ["%X" % lo if lo == hi else "%X-%X" % (lo, hi) for lo, hi in merged]
    for i in range(0, len(items), 12):
        out.append(prop + " " + " ".join(items[i:i + 12]))
print("\n".join(out))
