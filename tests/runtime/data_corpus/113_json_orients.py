import io

import pandas as pd

df = pd.DataFrame({"city": ["Oslo", "Rome"], "pop_k": [709, 2873], "area": [454.0, 1285.0]},
                  index=pd.Index(["no", "it"], name="cc"))
for orient in ["records", "index", "columns", "split", "values", "table"]:
    text = df.to_json(orient=orient)
    print(f"{orient:>8}: {text}")
rec = pd.read_json(io.StringIO(df.to_json(orient="records")), orient="records")
print(rec)
split = pd.read_json(io.StringIO(df.to_json(orient="split")), orient="split")
print("split round trip equal:", split.equals(df))
table = pd.read_json(io.StringIO(df.to_json(orient="table")), orient="table")
print("table round trip equal:", table.equals(df), table.index.name)
