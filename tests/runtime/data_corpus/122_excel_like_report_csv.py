# inputs: sales.csv
"""Build a multi-section CSV report (like an analyst's spreadsheet export)."""
import csv

import pandas as pd

s = pd.read_csv("/input/sales.csv", parse_dates=["date"])
s["revenue"] = s["units"] * s["unit_price"]
s["month"] = s["date"].dt.strftime("%Y-%m")
monthly = s.groupby("month")["revenue"].sum().round(2)
by_prod = s.groupby("product").agg(units=("units", "sum"), revenue=("revenue", "sum")).round(2)

with open("report.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["Sales report", "H1 2024"])
    w.writerow([])
    w.writerow(["Month", "Revenue"])
    for month, rev in monthly.items():
        w.writerow([month, f"{rev:.2f}"])
    w.writerow([])
    w.writerow(["Product", "Units", "Revenue"])
    for prod, row in by_prod.iterrows():
        w.writerow([prod, int(row["units"]), f"{row['revenue']:.2f}"])
    w.writerow(["Total", int(by_prod["units"].sum()), f"{by_prod['revenue'].sum():.2f}"])

with open("report.csv") as fh:
    text = fh.read()
print(text)
section = pd.read_csv("report.csv", skiprows=2, nrows=len(monthly))
print(section.describe().round(2))
