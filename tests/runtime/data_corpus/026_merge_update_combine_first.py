import numpy as np
import pandas as pd

master = pd.DataFrame(
    {"phone": ["555-0100", np.nan, "555-0102", np.nan], "city": ["Oslo", "Rome", np.nan, "Lima"]},
    index=pd.Index([101, 102, 103, 104], name="cust"),
)
patch = pd.DataFrame(
    {"phone": [np.nan, "555-0199", "555-0103"], "city": ["Bergen", np.nan, "Turin"]},
    index=pd.Index([101, 102, 105], name="cust"),
)

print("combine_first (master wins):")
print(master.combine_first(patch))
print()
upd = master.copy()
upd.update(patch)
print("update (patch wins where not null):")
print(upd)
print()
print("still missing:", upd.isna().sum().to_dict())
