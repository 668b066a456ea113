# inputs: access.log
import pandas as pd

with open("/input/access.log") as fh:
    lines = pd.Series(fh.read().splitlines(), name="line")
pattern = (
    r'^(?P<ip>[\d.]+) .*?\[(?P<when>[^\]]+)\] "(?P<method>[A-Z]+) (?P<path>\S+)[^"]*" '
    r"(?P<status>\d+) (?P<bytes>\d+) (?P<ms>[\d.]+)ms$"
)
log = lines.str.extract(pattern)
print("unparsed lines:", int(log["ip"].isna().sum()))
log = log.astype({"status": "int64", "bytes": "int64", "ms": "float64"})
log["subnet"] = log["ip"].str.rsplit(".", n=1).str[0]
log["is_api"] = log["path"].str.startswith("/api")
log["resource"] = log["path"].str.replace(r"/\d+$", "/{id}", regex=True)

print(log.head(4).to_string())
print()
print(
    log.groupby("subnet")
    .agg(requests=("ip", "size"), clients=("ip", "nunique"), mb=("bytes", "sum"))
    .assign(mb=lambda d: (d["mb"] / 1e6).round(3))
)
print()
print(log["resource"].value_counts().to_string())
print("api share:", round(log["is_api"].mean(), 3))
print("methods:", log["method"].str.cat(sep="").count("POST"), "POSTs")
