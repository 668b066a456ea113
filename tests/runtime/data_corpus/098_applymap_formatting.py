import pandas as pd

fin = pd.DataFrame({
    "revenue": [1234567.891, 98765.4, 5500000.0],
    "margin": [0.1834, -0.0421, 0.25],
    "growth": [0.052, None, -0.13],
}, index=["north", "south", "online"])

fmt = fin.copy().astype(object)
fmt["revenue"] = fin["revenue"].map("${:,.0f}".format)
fmt["margin"] = fin["margin"].map("{:+.1%}".format)
fmt["growth"] = fin["growth"].map(lambda v: "n/a" if pd.isna(v) else f"{v:.1%}")
print(fmt)
print()
print(fin.to_string(float_format=lambda v: f"{v:,.3f}"))
print()
print(fin.round({"revenue": -3, "margin": 2}).to_string())
text = fin.map(lambda v: "-" if pd.isna(v) else ("neg" if v < 0 else "pos"))
print(text)
