# inputs: employees.csv
import pandas as pd

emp = pd.read_csv("/input/employees.csv", index_col="emp_id")
emp["name"] = emp["name"].str.strip()

# Self-join to attach the manager's name
managers = emp[["name", "title"]].add_prefix("manager_")
with_mgr = emp.join(managers, on="manager_id")
print(with_mgr[["name", "department", "manager_id", "manager_name"]].head(12).to_string())

# Team sizes per manager
team = with_mgr.dropna(subset=["manager_name"]).groupby("manager_name").size().rename("reports")
print()
print(team.sort_index().to_string())

targets = pd.DataFrame(
    {"budget_k": [900, 350, 420, 260, 300]},
    index=pd.Index(["Engineering", "Sales", "Marketing", "Finance", "Support"], name="department"),
)
cost = (
    emp.groupby("department")["salary"].sum().div(1000).rename("payroll_k").to_frame().join(targets)
)
cost["headroom_k"] = cost["budget_k"] - cost["payroll_k"]
print()
print(cost)
