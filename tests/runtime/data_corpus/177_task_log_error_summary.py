# inputs: access.log
"""Agent task: summarise server errors per 15 minutes and write errors.csv and a JSON digest."""

import json
import re

import pandas as pd

pat = re.compile(r'^(\S+) \S+ \S+ \[([^\]]+)\] "(\w+) (\S+) \S+" (\d{3}) (\d+) ([\d.]+)ms$')
records = []
with open("/input/access.log") as f:
    for line in f:
        m = pat.match(line.rstrip("\n"))
        if m:
            ip, ts, method, path, status, size, ms = m.groups()
            records.append((ip, ts, method, path, int(status), int(size), float(ms)))
log = pd.DataFrame(records, columns=["ip", "ts", "method", "path", "status", "size", "ms"])
log["ts"] = pd.to_datetime(log["ts"], format="%d/%b/%Y:%H:%M:%S %z").dt.tz_convert("UTC")
errors = log[log["status"] >= 400]
per_window = (
    errors.set_index("ts").groupby("status").resample("15min").size().unstack(0, fill_value=0)
)
print(per_window)
per_window.to_csv("errors.csv")
digest = {
    "requests": len(log),
    "errors": len(errors),
    "error_rate": round(len(errors) / len(log), 4),
    "worst_path": errors["path"].value_counts().idxmax(),
    "slowest_request_ms": float(log["ms"].max()),
    "p99_ms": round(float(log["ms"].quantile(0.99)), 3),
}
with open("digest.json", "w") as f:
    json.dump(digest, f, indent=1)
print(digest)
