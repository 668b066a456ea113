# inputs: employees.csv
import pandas as pd

emp = pd.read_csv("/input/employees.csv")
emp["name"] = emp["name"].str.strip()
emp["email_norm"] = emp["email"].str.lower().str.strip()
parts = emp["name"].str.split(" ", n=1, expand=True)
emp["first"], emp["last"] = parts[0], parts[1]
emp["initials"] = emp["first"].str[0] + emp["last"].str[0]
emp["domain"] = emp["email_norm"].str.extract(r"@(.+)$", expand=False)
emp["has_apostrophe"] = emp["last"].str.contains("'", regex=False)

print(emp[["name", "initials", "email_norm", "domain"]].head(8).to_string(index=False))
print()
print("needed stripping:", int((pd.read_csv("/input/employees.csv")["name"] != emp["name"]).sum()))
print("mixed-case emails:", int((emp["email"] != emp["email_norm"]).sum()))
print("apostrophes:", emp.loc[emp["has_apostrophe"], "name"].tolist())
print("longest last name:", emp.loc[emp["last"].str.len().idxmax(), "last"])
print("last names by first letter:", emp["last"].str[0].value_counts().sort_index().to_dict())
