# inputs: customers.csv
import io

import pandas as pd

c = pd.read_csv("/input/customers.csv", parse_dates=["signup_date"])
buf = io.StringIO()
c.info(buf=buf, memory_usage=False)
print(buf.getvalue())
print(c.dtypes.value_counts().to_string())
c["segment"] = c["segment"].astype("category")
c["customer_num"] = c["customer_id"].str[1:].astype(int)
print(c.select_dtypes(include="number").columns.tolist())
print(c.select_dtypes(include=["category"]).columns.tolist())
print(c.select_dtypes(include="datetime").columns.tolist())
print("nunique:", c.nunique().to_dict())
print(c.memory_usage(deep=False, index=False).index.tolist())
