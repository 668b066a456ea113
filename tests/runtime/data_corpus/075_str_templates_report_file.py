# inputs: customers.csv
"""Render a plain-text customer report with string methods and write it out."""

import pandas as pd

c = pd.read_csv("/input/customers.csv", parse_dates=["signup_date"])
c["label"] = c["name"].str.upper().str.ljust(22, ".") + c["segment"].str.rjust(12)
c["since"] = c["signup_date"].dt.strftime("%b %Y")
lines = (c["customer_id"] + "  " + c["label"] + "  " + c["since"]).tolist()
header = f"{'ID':<6}{'NAME':<24}{'SEGMENT':>10}  SINCE"
report = "\n".join(
    [header, "-" * len(header), *lines[:12], "-" * len(header), f"{len(c)} customers"]
)
print(report)
with open("customers_report.txt", "w") as f:
    f.write(report + "\n")
by_country = c.groupby("country")["name"].agg(lambda s: "; ".join(sorted(s)))
by_country.to_csv("customers_by_country.csv", header=["names"])
print()
print(by_country.head(4).to_string())
