# inputs: employees.csv
import pandas as pd

emp = pd.read_csv("/input/employees.csv", parse_dates=["hire_date"]).dropna(subset=["salary"])
emp["band"] = pd.cut(emp["salary"], bins=[0, 60000, 100000, 140000, 200000],
                     labels=["junior", "mid", "senior", "principal"])
emp["quartile"] = pd.qcut(emp["salary"], q=4, labels=["Q1", "Q2", "Q3", "Q4"])
emp["tenure_years"] = ((pd.Timestamp("2025-01-01") - emp["hire_date"]).dt.days / 365.25).round(1)
emp["tenure_bin"] = pd.cut(emp["tenure_years"], bins=[0, 2, 5, 10, 20], right=False)

print(emp["band"].value_counts().sort_index().to_string())
print()
edges = pd.qcut(emp["salary"], q=4, retbins=True)[1]
print("quartile edges:", [round(e, 2) for e in edges])
print()
print(pd.crosstab(emp["tenure_bin"], emp["band"]))
print()
print(emp.groupby("quartile", observed=True)["tenure_years"].mean().round(3).to_string())
