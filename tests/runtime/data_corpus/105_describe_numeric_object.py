# inputs: employees.csv
import pandas as pd

emp = pd.read_csv("/input/employees.csv", parse_dates=["hire_date"])
pd.set_option("display.float_format", "{:.2f}".format)
print(emp.describe())
print()
print(emp.describe(include=["object", "string"]))
print()
print(emp["salary"].describe(percentiles=[0.1, 0.9]))
print()
print(emp["hire_date"].describe())
