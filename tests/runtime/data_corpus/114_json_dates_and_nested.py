import io
import json

import pandas as pd

df = pd.DataFrame({
    "ts": pd.to_datetime(["2024-05-01 12:00:00", "2024-05-02 08:15:30"]),
    "value": [1.25, None],
    "meta": [{"src": "a", "tags": ["x"]}, {"src": "b", "tags": []}],
})
iso = df.to_json(orient="records", date_format="iso")
epoch = df.to_json(orient="records", date_format="iso", date_unit="s")
print(iso)
print(epoch)
back = pd.read_json(io.StringIO(iso), orient="records", convert_dates=["ts"])
print(back.dtypes.to_string())
print(back["ts"].dt.strftime("%Y-%m-%d %H:%M:%S").tolist())
print(back["meta"].tolist())
flat = pd.json_normalize(json.loads(iso))
print(flat.columns.tolist())
with open("events.json", "w") as f:
    f.write(df.to_json(orient="records", date_format="iso", indent=2))
with open("events.json") as fh:
    print(len(json.load(fh)), "records written")
