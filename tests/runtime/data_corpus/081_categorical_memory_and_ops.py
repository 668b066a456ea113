import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
colors = rng.choice(["red", "green", "blue", "yellow"], size=1000, p=[0.4, 0.3, 0.2, 0.1])
s_obj = pd.Series(colors)
s_cat = s_obj.astype("category")

print("categories:", list(s_cat.cat.categories))
print(
    "same counts:",
    s_obj.value_counts().equals(s_cat.value_counts().rename(None).astype("int64").rename_axis(None))
    or s_obj.value_counts().to_dict() == s_cat.value_counts().to_dict(),
)
print(s_cat.value_counts().to_string())
s_cat = s_cat.cat.rename_categories(str.upper)
s_cat = s_cat.cat.add_categories(["PURPLE"])
s_cat = s_cat.cat.reorder_categories(["RED", "GREEN", "BLUE", "YELLOW", "PURPLE"], ordered=True)
print("renamed + ordered:", list(s_cat.cat.categories), s_cat.cat.ordered)
print("first 10 codes:", s_cat.cat.codes.head(10).tolist())
merged = s_cat.cat.set_categories(["RED", "GREEN", "BLUE"])
print("dropped to NaN:", int(merged.isna().sum()))
print("describe:")
print(s_cat.describe().to_string())
