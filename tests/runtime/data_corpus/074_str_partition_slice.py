import pandas as pd

paths = pd.Series([
    "/data/raw/2024/sales_q1.csv",
    "/data/raw/2024/sales_q2.CSV",
    "/data/clean/customers.parquet",
    "/tmp/notes.txt",
    "/data/raw/2023/archive.tar.gz",
])
df = pd.DataFrame({"path": paths})
df["dir"] = paths.str.rpartition("/")[0]
df["file"] = paths.str.rpartition("/")[2]
df["stem"] = df["file"].str.split(".", n=1).str[0]
df["ext"] = df["file"].str.partition(".")[2].str.lower()
df["depth"] = paths.str.count("/")
df["year"] = paths.str.extract(r"/(\d{4})/", expand=False)
print(df.to_string(index=False))
print()
print("csv files:", df.loc[df["ext"] == "csv", "file"].tolist())
print("slice [6:9]:", paths.str.slice(6, 9).tolist())
print("slice_replace:", paths.str.slice_replace(0, 5, "~").tolist()[:2])
print("endswith gz:", paths.str.endswith(".gz").sum())
print("wrap:", paths.iloc[0:1].str.wrap(12).iloc[0].split("\n"))
