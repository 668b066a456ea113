import pandas as pd

df = pd.DataFrame({
    "date": pd.to_datetime(["2024-07-01", "2024-07-02", "2024-07-03"]),
    "price": [1234.5, 0.000123, None],
    "qty": [1, 20, 300],
    "note": ["ok", "has;semicolon", ""],
}).set_index("date")
df.to_csv("out_default.csv")
df.to_csv("out_custom.csv", sep=";", float_format="%.2f", na_rep="NULL", date_format="%d/%m/%Y",
          columns=["qty", "price", "note"], header=["Quantity", "Price", "Note"])
df.to_csv("out_tab.tsv", sep="\t", index=False, quoting=1)
for name in ["out_default.csv", "out_custom.csv", "out_tab.tsv"]:
    print(f"== {name}")
    with open(name) as fh:
        print(fh.read(), end="")
print(df.to_csv(None, lineterminator="|"))
