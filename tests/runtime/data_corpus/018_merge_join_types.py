"""Show how inner, left, right and outer joins differ on a toy example."""
import pandas as pd

left = pd.DataFrame({"key": ["a", "b", "c", "d"], "left_val": [1, 2, 3, 4]})
right = pd.DataFrame({"key": ["b", "d", "e", "d"], "right_val": [20, 40, 50, 41]})

for how in ["inner", "left", "right", "outer"]:
    out = pd.merge(left, right, on="key", how=how)
    print(f"--- {how} join: {len(out)} rows")
    print(out.to_string(index=False))

cross = left.head(2).merge(right.head(2), how="cross")
print("--- cross join")
print(cross)
