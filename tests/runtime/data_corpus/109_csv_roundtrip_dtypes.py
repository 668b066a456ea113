import pandas as pd

df = pd.DataFrame({
    "id": [1, 2, 3],
    "when": pd.to_datetime(["2024-01-05 08:30", "2024-02-10 17:00", "2024-03-15 00:00"]),
    "amount": [10.5, -3.25, 1e6],
    "flag": [True, False, True],
    "label": ["a,b", 'quote "x"', "multi\nline"],
    "maybe": [None, 2.5, None],
})
df.to_csv("data.csv", index=False)
with open("data.csv") as fh:
    print(fh.read())
back = pd.read_csv("data.csv", parse_dates=["when"])
print(back.dtypes.to_string())
print(back)
print("labels survive:", back["label"].tolist() == df["label"].tolist())
print("frames equal:", back.equals(df.astype({"label": back["label"].dtype})))
