# inputs: measurements.csv
"""Read a semicolon-separated CSV with decimal commas; fit a line; write it back US-style."""
import numpy as np
import pandas as pd

m = pd.read_csv("/input/measurements.csv", sep=";", decimal=",")
print(m.head().to_string(index=False))
print(m.dtypes.to_string())
slope, intercept = np.polyfit(m["temperature_C"], m["resistance_ohm"], 1)
print(f"R(T) = {intercept:.4f} + {slope:.5f} * T")
print(f"alpha = {slope / intercept:.6f} per degree")
m["fit"] = (intercept + slope * m["temperature_C"]).round(3)
m["resid"] = (m["resistance_ohm"] - m["fit"]).round(3)
print("max |residual|:", m["resid"].abs().max())
print("notes:", m["note"].value_counts(dropna=False).to_dict())
m.to_csv("measurements_us.csv", index=False, float_format="%.3f")
m.to_csv("measurements_eu.csv", index=False, sep=";", decimal=",")
with open("measurements_eu.csv") as fh:
    print(fh.read().splitlines()[1])
