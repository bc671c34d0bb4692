"""The one median of Benchmarks/: every table takes its medians over rounds from here.

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))   # from a script in Benchmarks/
    from medians import median, columns, bench_json
"""
import json
import os
import statistics


def median(values):
    """The median of a non-empty sequence of numbers (the mean of the middle two for an even count)."""
    values = list(values)
    if not values:
        raise ValueError("the median of nothing")
    return statistics.median(values)


def columns(rows):
    """Column-wise medians of rows of equal length: the medians over rounds of each of a table's columns."""
    rows = [list(row) for row in rows]
    if not rows:
        raise ValueError("the medians of no rows")
    return [median(column) for column in zip(*rows)]


def bench_json(folder):
    """The bench.json a `hil bench --output FOLDER` wrote, or None when that bench wrote none."""
    path = os.path.join(folder, "bench.json")
    if not os.path.exists(path):
        return None
    with open(path) as file:
        return json.load(file)


if __name__ == "__main__":
    assert median([3, 1, 2]) == 2 and median([1, 2, 3, 4]) == 2.5
    assert columns([[1, 10], [3, 30], [2, 20]]) == [2, 20]
    print("medians: ok")
