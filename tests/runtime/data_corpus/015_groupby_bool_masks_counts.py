# inputs: access.log
"""Parse an access log and count status classes per endpoint."""

import re

import pandas as pd

LINE = re.compile(
    r'(?P<ip>\S+) - - \[(?P<ts>[^\]]+)\] "(?P<method>\w+) (?P<path>\S+) [^"]+" '
    r"(?P<status>\d{3}) (?P<size>\d+) (?P<ms>[\d.]+)ms"
)

rows = []
with open("/input/access.log") as fh:
    for line in fh:
        m = LINE.match(line)
        if m:
            rows.append(m.groupdict())

log = pd.DataFrame(rows)
log["status"] = log["status"].astype(int)
log["size"] = log["size"].astype(int)
log["ms"] = log["ms"].astype(float)
log["ts"] = pd.to_datetime(log["ts"], format="%d/%b/%Y:%H:%M:%S %z")
print(len(log), "requests from", log["ip"].nunique(), "clients")
print("time span:", log["ts"].min(), "->", log["ts"].max())

log["class"] = (log["status"] // 100).astype(str) + "xx"
per_path = log.groupby(["path", "class"]).size().unstack(fill_value=0)
per_path["error_rate"] = (
    (per_path.get("4xx", 0) + per_path.get("5xx", 0)) / per_path.sum(axis=1)
).round(3)
print(per_path.sort_values("error_rate", ascending=False, kind="stable"))
print()
slow = log.groupby("path")["ms"].quantile(0.9).round(1).sort_values(ascending=False)
print("p90 latency (ms):")
print(slow.to_string())
