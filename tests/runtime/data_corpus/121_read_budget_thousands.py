# inputs: budget.csv
import pandas as pd

b = pd.read_csv("/input/budget.csv", thousands=",")
print(b.dtypes.to_string())
b["variance"] = (b["actual"] - b["planned"]).round(2)
b["variance_pct"] = (100 * b["variance"] / b["planned"]).round(2)
b[["year", "q"]] = b["quarter"].str.split("-", expand=True)
pivot = b.pivot(index="department", columns="q", values="variance_pct")
print(pivot)
over = b[b["variance_pct"] > 10]
print()
print("over budget by >10%:")
print(over[["department", "quarter", "planned", "actual", "variance_pct"]].to_string(index=False))
annual = b.groupby("department")[["planned", "actual"]].sum()
annual["status"] = (annual["actual"] > annual["planned"]).map({True: "over", False: "under"})
annual.to_csv("annual_budget.csv", float_format="%.2f")
with open("annual_budget.csv") as fh:
    print(fh.read())
