import io

import pandas as pd

text = """# exported by legacy system
# units: kg
ID|Name|Weight|Joined|Status
001|alpha|1,250.5|2023-01-02|A
002|beta|980|2023-02-30|I
003|gamma|-|2023-03-04|A
004|delta|2,000|2023-04-05|X
"""
df = pd.read_csv(
    io.StringIO(text),
    sep="|",
    comment="#",
    thousands=",",
    na_values=["-"],
    dtype={"ID": "string"},
    converters={"Status": lambda s: {"A": "active", "I": "inactive"}.get(s, "?")},
)
print(df)
print(df.dtypes.to_string())
df["Joined"] = pd.to_datetime(df["Joined"], errors="coerce")
print("invalid dates:", df.loc[df["Joined"].isna(), "ID"].tolist())
sub = pd.read_csv(
    io.StringIO(text), sep="|", comment="#", usecols=["ID", "Name"], nrows=2, dtype=str
)
print(sub)
skipped = pd.read_csv(
    io.StringIO(text), sep="|", skiprows=3, header=None, names=["id", "name", "w", "j", "s"]
)
print(skipped.shape, list(skipped["name"]))
