# inputs: employees.csv
"""Salary regression on department dummies and tenure with numpy lstsq; coefficients to JSON."""
import json

import numpy as np
import pandas as pd

emp = pd.read_csv("/input/employees.csv", parse_dates=["hire_date"]).dropna(subset=["salary"])
emp["tenure"] = (pd.Timestamp("2025-01-01") - emp["hire_date"]).dt.days / 365.25
X = pd.get_dummies(emp["department"], drop_first=True, dtype=float)
X.insert(0, "tenure", emp["tenure"])
X.insert(0, "intercept", 1.0)
y = emp["salary"].to_numpy() / 1000
beta, *_ = np.linalg.lstsq(X.to_numpy(), y, rcond=None)
pred = X.to_numpy() @ beta
r2 = 1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum()
coefs = dict(zip(X.columns, np.round(beta, 4).tolist(), strict=True))
for k, v in coefs.items():
    print(f"{k:<12} {v:>10.4f}")
print("R^2:", round(float(r2), 6), "n:", len(y))
with open("salary_model.json", "w") as f:
    json.dump({"target": "salary_k", "coefficients": coefs, "r2": round(float(r2), 6)}, f, indent=2)
