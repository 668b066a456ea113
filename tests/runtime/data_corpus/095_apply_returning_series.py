"""Parse a free-text 'dimensions' column into three numeric columns with apply."""
import re

import pandas as pd

items = pd.DataFrame({
    "item": ["crate", "box", "tube", "panel", "unknown"],
    "dims": ["40x30x25 cm", "12 x 12 x 8cm", "5x5x120 CM", "200 x 100 x 2 cm", "n/a"],
})


def parse_dims(text):
    m = re.match(r"\s*(\d+)\s*x\s*(\d+)\s*x\s*(\d+)\s*cm", text, flags=re.I)
    if not m:
        return pd.Series({"w": None, "h": None, "d": None}, dtype="float64")
    w, h, d = (float(g) for g in m.groups())
    return pd.Series({"w": w, "h": h, "d": d})


dims = items["dims"].apply(parse_dims)
out = pd.concat([items, dims], axis=1)
out["volume_l"] = (out["w"] * out["h"] * out["d"] / 1000).round(3)
out["longest"] = out[["w", "h", "d"]].max(axis=1)
print(out.to_string(index=False))
print("parsed:", int(out["w"].notna().sum()), "of", len(out))
