# inputs: employees.csv
import pandas as pd

emp = pd.read_csv("/input/employees.csv", parse_dates=["hire_date"])
emp["name"] = emp["name"].str.strip()
ordered = emp.sort_values(
    ["department", "salary", "hire_date"], ascending=[True, False, True], na_position="last"
)
print(ordered[["department", "name", "salary", "hire_date"]].head(12).to_string(index=False))
print()
by_len = emp.sort_values("name", key=lambda s: s.str.len(), kind="stable")
print("shortest names:", by_len["name"].head(3).tolist())
print("longest names:", by_len["name"].tail(2).tolist())
print("sorted index desc:", emp.set_index("emp_id").sort_index(ascending=False).index[:5].tolist())
case_insensitive = emp.sort_values("email", key=lambda s: s.str.lower())["email"].head(4).tolist()
print(case_insensitive)
