#!/usr/bin/env python3
"""The radio model's table from Benchmarks/radio-in-one-guest.sh's folder: python3 Benchmarks/radio-table.py OUT.

Reads OUT/RADIO-ROUND/bench.json and prints, per radio and write path, the medians over the rounds of the link
stage's p50 and p99, what was lost and the rate achieved, the rise over the bridge delivering at once (the
connection events' own share), and the checks of issue 36: an interval I's link p50 rises
over the immediate radio's by I/2 +- 1.5 ms, its p99 stays at most I + the immediate p99 + 2 ms, nothing is lost;
the bridge delivering at once adds at most 0.3 ms to the link p50. Exits 1 when a check fails, 2 on no data.
"""
import collections
import json
import pathlib
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from medians import median  # noqa: E402  (the one median of Benchmarks/)


def load(folder):
    runs = collections.defaultdict(list)  # radio -> [bench.json]
    for bench in sorted(pathlib.Path(folder).glob("*-*/bench.json")):
        radio = bench.parent.name.rsplit("-", 1)[0]
        runs[radio].append(json.loads(bench.read_text()))
    return runs


def medians(benches):
    rows = {}
    paths = sorted({path for bench in benches for path in bench["paths"]})
    for path in paths:
        found = [b["paths"][path] for b in benches if path in b["paths"]]
        link = [p["stagesMs"]["link"] for p in found]
        rows[path] = {
            "p50": median(s["p50"] for s in link),
            "p99": median(s["p99"] for s in link),
            "lost": sum(p["lost"] + p["unseen"] for p in found),
            "hz": median(p["achievedHz"] for p in found),
            "rounds": len(found),
        }
    return rows


def split(radio):
    """A radio's name without its bearer suffix, and the suffix: "15-att" → ("15", "-att"); -att one ATT bearer,
    -eatt EATT's three, none the rig's main.conf."""
    for suffix in ("-eatt", "-att"):
        if radio.endswith(suffix):
            return radio.removesuffix(suffix), suffix
    return radio, ""


def interval(radio):
    """The interval in ms of a radio's name (15, 15-att), None for immediate and bridged (with any suffix)."""
    base = split(radio)[0]
    return None if base in ("immediate", "bridged") else float(base)


def order(radio):
    base, suffix = split(radio)
    rank = {"immediate": -2, "bridged": -1}.get(base)
    return (suffix, rank if rank is not None else float(base))


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    runs = load(sys.argv[1])
    if not any(split(radio)[0] == "immediate" for radio in runs):
        print(f"radio-table: no immediate-*/bench.json in {sys.argv[1]}: nothing to compare with", file=sys.stderr)
        return 2
    table = {radio: medians(benches) for radio, benches in runs.items()}
    failed = []
    print("| radio | path | rounds | link p50 ms | rise ms | expected rise | over bridged ms | link p99 ms | p99 bound | lost | achieved Hz |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for radio in sorted(table, key=order):
        # Each radio against the immediate and bridged radios of its own bearers (-att: ATT alone, -eatt: EATT).
        suffix = split(radio)[1]
        base, bridged = table.get("immediate" + suffix, {}), table.get("bridged" + suffix, {})
        for path, row in table[radio].items():
            rise = row["p50"] - base[path]["p50"] if path in base else None
            expected, bound, own = "", "", ""
            if split(radio)[0] == "bridged" and rise is not None:
                expected = "≤ 0.3"
                if rise > 0.3:
                    failed.append(f"{radio} {path}: the bridge adds {rise:.2f} ms, over 0.3")
            elif interval(radio) is not None and rise is not None:
                ms = interval(radio)
                expected = f"{ms / 2:.2f} ± 1.5"
                limit = ms + base[path]["p99"] + 2
                bound = f"≤ {limit:.2f}"
                if abs(rise - ms / 2) > 1.5:
                    failed.append(f"{radio} ms {path}: rise {rise:.2f} ms, not {ms / 2:.2f} ± 1.5")
                if row["p99"] > limit:
                    failed.append(f"{radio} ms {path}: p99 {row['p99']:.2f} ms over {limit:.2f}")
                # The connection events' own share: the rise over the bridge delivering at once (the model alone).
                if path in bridged:
                    own = f"{row['p50'] - bridged[path]['p50']:+.2f}"
            if row["lost"]:
                failed.append(f"{radio} {path}: {row['lost']} lost or unseen")
            shown = "" if rise is None or split(radio)[0] == "immediate" else f"{rise:+.2f}"
            print(f"| {radio} | {path} | {row['rounds']} | {row['p50']:.2f} | {shown} | {expected} | {own} | {row['p99']:.2f} "
                  f"| {bound} | {row['lost']} | {row['hz']:.1f} |")
    for failure in failed:
        print(f"radio-table: {failure}")
    print("radio-table: every check holds" if not failed else f"radio-table: {len(failed)} check(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
