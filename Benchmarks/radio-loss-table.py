#!/usr/bin/env python3
"""The lossy radio's table from radio-loss-in-one-guest.sh's folder: per packet error rate and path, the medians over
the rounds of the link p50/p95/p99 (bench.json's stagesMs.link), the model's prediction beside each (the lossless
rate's measured value plus what the model adds at that rate: ConnectionEventScheduler's retransmissions at 15 ms),
lost commands and keys held at the streams' ends.

    python3 Benchmarks/radio-loss-table.py OUT/guest
"""
import glob
import json
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from medians import median, columns  # noqa: E402  (the one median of Benchmarks/)

EXCHANGE_MS = 0.676  # RadioModel.exchangeNanoseconds


def model_cdf(t, interval, p):
    """The delay's CDF of the model (PacketErrorTests.predictedCDF): the wait for the next event, uniform over the
    interval; an event sends the packet at once (1 - P), one exchange later (P(1 - P)), or closes (P²)."""
    closed = p * p
    second = p * (1 - p) / (1 - closed) if closed < 1 else 0
    uniform = lambda x: min(1.0, max(0.0, x / interval))
    total, weight = 0.0, 1 - closed
    for k in range(60):
        base = t - k * interval
        total += weight * ((1 - second) * uniform(base) + second * uniform(base - EXCHANGE_MS))
        weight *= closed
    return total


def model_quantile(q, interval, p):
    low, high = 0.0, 40 * interval
    for _ in range(80):
        middle = (low + high) / 2
        if model_cdf(middle, interval, p) < q:
            low = middle
        else:
            high = middle
    return high


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    runs = {}
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*-*", "bench.json"))):
        rate = float(os.path.basename(os.path.dirname(path)).rsplit("-", 1)[0])
        bench = json.load(open(path))
        interval = bench.get("radioIntervalMs") or 15
        for name, stream in bench["paths"].items():
            link = stream["stagesMs"]["link"]
            runs.setdefault((rate, name), []).append(
                (link["p50"], link["p95"], link["p99"], stream["lost"], len(stream.get("heldAtEnd", [])), interval))
    if not runs:
        print(f"radio-loss-table: no */bench.json in {sys.argv[1]}", file=sys.stderr)
        return 2
    print("| P | path | rounds | link p50 ms (model) | link p95 ms (model) | link p99 ms (model) | lost | held |")
    print("|---|---|---|---|---|---|---|---|")
    failed = []
    for (rate, name) in sorted(runs):
        rows = runs[(rate, name)]
        interval = rows[0][5]
        medians = columns(row[:3] for row in rows)
        base = runs.get((0.0, name))
        cells = []
        for i, q in enumerate([0.5, 0.95, 0.99]):
            if base is None:
                cells.append(f"{medians[i]:.2f}")
                continue
            lossless = median(row[i] for row in base)
            predicted = lossless + model_quantile(q, interval, rate) - model_quantile(q, interval, 0)
            cells.append(f"{medians[i]:.2f} ({predicted:.2f})")
        lost, held = sum(row[3] for row in rows), sum(row[4] for row in rows)
        if lost or held:
            failed.append(f"P {rate} {name}: {lost} lost, {held} held")
        print(f"| {rate:g} | {name} | {len(rows)} | " + " | ".join(cells) + f" | {lost} | {held} |")
    for failure in failed:
        print(f"radio-loss-table: {failure}")
    print("radio-loss-table: nothing lost, nothing held" if not failed else f"radio-loss-table: {len(failed)} check(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
