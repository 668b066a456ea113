"""Combine monthly exports, drop duplicate rows, and keep the latest version of each record."""

import io

import pandas as pd

jan = io.StringIO("""id,name,email,updated
1,Ann,ann@x.org,2024-01-03
2,Bob,bob@x.org,2024-01-09
3,Cid,cid@x.org,2024-01-15
""")
feb = io.StringIO("""id,name,email,updated
2,Bob,bob@newmail.org,2024-02-02
3,Cid,cid@x.org,2024-01-15
4,Dee,dee@x.org,2024-02-20
""")
mar = io.StringIO("""id,name,email,updated
1,Ann,ann@x.org,2024-01-03
5,Eve,eve@x.org,2024-03-01
2,Bob,bob@final.org,2024-03-05
""")

frames = {
    m: pd.read_csv(buf, parse_dates=["updated"])
    for m, buf in [("jan", jan), ("feb", feb), ("mar", mar)]
}
allrows = pd.concat(frames, names=["export", "row"]).reset_index(level="export")
print("rows loaded:", len(allrows))
print("exact duplicates:", int(allrows.duplicated(subset=["id", "name", "email", "updated"]).sum()))

latest = allrows.sort_values(["id", "updated"]).drop_duplicates("id", keep="last").set_index("id")
print(latest)
changed = allrows.groupby("id")["email"].nunique()
print("ids whose email changed:", changed[changed > 1].index.tolist())
latest.to_csv("contacts_latest.csv", date_format="%Y-%m-%d")
