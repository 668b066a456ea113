"""Files in and out without a host directory: a CSV goes in as /input/sales.csv, the guest
analyses it with csv and statistics, and the report it writes to /output/report.md comes
back as `result.files`. Nothing is mounted: the files live in the sandbox's in-memory tree.

    .venv/bin/python examples/csv_report.py [examples/data/sales.csv]
"""

from __future__ import annotations

import sys
from pathlib import Path

import sandbox_wasm as sw

ANALYSIS = """
import csv, statistics
from collections import defaultdict

with open('/input/sales.csv', newline='') as f:
    rows = list(csv.DictReader(f))
revenue = defaultdict(float)
for row in rows:
    revenue[row['region']] += int(row['units']) * float(row['unit_price'])
best = max(revenue, key=revenue.get)
lines = ['# Sales report', '', f'{len(rows)} rows, {len(revenue)} regions', '',
         '| region | revenue |', '|---|---|']
lines += [f'| {region} | {total:.2f} |' for region, total in sorted(revenue.items())]
lines += ['', f'mean revenue per region: {statistics.mean(revenue.values()):.2f}',
          f'best region: {best}']
with open('/output/report.md', 'w') as f:
    f.write('\\n'.join(lines) + '\\n')
print(f'report written: best region {best}')
"""


def main() -> int:
    default = Path(__file__).parent / "data" / "sales.csv"
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    result = sw.execute(ANALYSIS, files={"sales.csv": source.read_bytes()})
    if not result.ok:
        print(f"{result.status}: {result.error}", file=sys.stderr)
        return 1
    print(result.stdout, end="")
    print(result.files["report.md"].decode(), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
