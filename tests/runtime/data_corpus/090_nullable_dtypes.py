import pandas as pd

df = pd.DataFrame({
    "qty": pd.array([3, None, 7, 0], dtype="Int64"),
    "flag": pd.array([True, None, False, True], dtype="boolean"),
    "label": pd.array(["a", None, "c", "d"], dtype="string"),
    "score": pd.array([1.5, 2.0, None, 4.25], dtype="Float64"),
})
print(df)
print(df.dtypes.to_string())
print()
print("qty sum:", df["qty"].sum(), "mean:", df["qty"].mean())
print("qty + 1:", (df["qty"] + 1).tolist())
print("flag & True:", (df["flag"] & True).tolist())
print("flag | True:", (df["flag"] | True).tolist())
print("label upper:", df["label"].str.upper().tolist())
print("score * 2:", (df["score"] * 2).tolist())
conv = pd.DataFrame({"x": [1, 2, None], "y": ["p", None, "r"]}).convert_dtypes()
print(conv.dtypes.to_string())
print("fillna Int64:", df["qty"].fillna(-1).tolist())
