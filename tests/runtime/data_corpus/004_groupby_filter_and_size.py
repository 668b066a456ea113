# inputs: employees.csv
import pandas as pd

emp = pd.read_csv("/input/employees.csv")
emp["name"] = emp["name"].str.strip()

sizes = emp.groupby("department").size().sort_values(ascending=False, kind="stable")
print("Headcount by department:")
print(sizes.to_string())

# Keep only departments with at least 8 people
big = emp.groupby("department").filter(lambda g: len(g) >= 8)
print()
print("Departments kept:", sorted(big["department"].unique()))
print("Employees kept:", len(big))

salary = big.groupby("department")["salary"].agg(["count", "median", "min", "max"])
print()
print(salary)
print()
missing = emp[emp["salary"].isna()][["emp_id", "name", "department"]]
print(f"{len(missing)} employees without a salary on file:")
print(missing.to_string(index=False))
