#!/usr/bin/env python3
"""The one table compare.sh ends with: the headline medians and ratios of every part.

Usage: summary.py SUMMARY.jsonl PLIST-TABLE.md (the JSON lines inspect_bench.py and transfer.py
append, and PlistBenchmark's markdown output, whose speed rows are taken as they are)."""

import json
import sys


def number(value, unit):
    if value is None:
        return "–"
    if unit == "s":
        return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"
    return f"{value:.2f} {unit.split()[0]}" if unit.startswith("GB") else f"{value:.1f} {unit.split()[0]}"


def main():
    rows = []
    with open(sys.argv[1]) as f:
        for line in f:
            r = json.loads(line)
            ratio = f"{r['ratio']:.2f}×" if r.get("ratio") else "–"
            verdict = "" if r.get("met") is None else (" met" if r["met"] else " **missed**")
            rows.append((r["case"], number(r["ours"], r["unit"]), number(r.get("theirs"), r["unit"]), ratio,
                         r["goal"] + verdict))
    with open(sys.argv[2]) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            # | case | format | ours | Foundation | speed-up | goal |
            if len(cells) == 6 and cells[4].endswith("×") and cells[0].startswith("("):
                rows.append((f"plist {cells[0]} ({cells[1]}) vs Foundation", cells[2], cells[3], cells[4],
                             cells[5].replace("≥", "≥")))
    print("\n### Summary (medians; a time ratio below 1, or a speed ratio above 1, means resumetool is better)\n")
    print("| case | resumetool | other | ratio | goal |")
    print("| --- | ---: | ---: | ---: | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
