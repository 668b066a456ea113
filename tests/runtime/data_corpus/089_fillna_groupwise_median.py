# inputs: employees.csv
"""Impute missing salaries with the median of the same department and title."""

import pandas as pd

emp = pd.read_csv("/input/employees.csv")
missing = emp["salary"].isna()
by_title = emp.groupby(["department", "title"])["salary"].transform("median")
by_dept = emp.groupby("department")["salary"].transform("median")
emp["salary_filled"] = emp["salary"].fillna(by_title).fillna(by_dept)
emp["imputed_from"] = "actual"
emp.loc[missing & by_title.notna(), "imputed_from"] = "title median"
emp.loc[missing & by_title.isna(), "imputed_from"] = "department median"

print(
    emp.loc[missing, ["emp_id", "department", "title", "salary_filled", "imputed_from"]].to_string(
        index=False
    )
)
print()
print("payroll before:", emp["salary"].sum())
print("payroll after:", emp["salary_filled"].sum())
emp[["emp_id", "salary_filled", "imputed_from"]].to_csv("salaries_imputed.csv", index=False)
