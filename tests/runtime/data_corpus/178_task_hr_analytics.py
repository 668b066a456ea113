# inputs: employees.csv
"""Agent task: tenure and pay analysis for HR, with outputs per department."""

import pandas as pd

emp = pd.read_csv("/input/employees.csv", parse_dates=["hire_date"])
emp["name"] = emp["name"].str.strip()
ref = pd.Timestamp("2024-12-31")
emp["tenure_y"] = ((ref - emp["hire_date"]).dt.days / 365.25).round(2)
emp["hire_year"] = emp["hire_date"].dt.year
emp["cohort"] = pd.cut(
    emp["hire_year"], [2011, 2015, 2019, 2023], labels=["2012-15", "2016-19", "2020-23"]
)

pay = (
    emp.groupby("department")
    .agg(
        staff=("emp_id", "count"),
        median_salary=("salary", "median"),
        mean_tenure=("tenure_y", "mean"),
        longest_serving=("tenure_y", "max"),
    )
    .round(2)
)
print(pay.sort_values("median_salary", ascending=False))
print()
print(pd.crosstab(emp["department"], emp["cohort"], margins=True))
corr = emp[["salary", "tenure_y"]].corr().iloc[0, 1]
print()
print("salary/tenure correlation:", round(corr, 5))
for dept, g in emp.groupby("department"):
    g.sort_values("tenure_y", ascending=False)[
        ["emp_id", "name", "title", "tenure_y", "salary"]
    ].to_csv(f"dept_{dept.lower()}.csv", index=False)
print("files written for", emp["department"].nunique(), "departments")
