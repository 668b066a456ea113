"""Accent-insensitive matching of customer names."""

import unicodedata

import pandas as pd

names = pd.Series(
    ["José Álvarez", "Zoë Brontë", "Ångström Ltd", "Renée Faÿ", "Jose Alvarez", "Søren Kierkegård"]
)
ascii_names = names.str.normalize("NFKD").str.encode("ascii", errors="ignore").str.decode("ascii")
print(pd.DataFrame({"name": names, "ascii": ascii_names}).to_string(index=False))
print("duplicates after folding:", ascii_names.str.lower().duplicated(keep=False).sum())
print("casefold ß:", pd.Series(["Straße", "STRASSE"]).str.casefold().tolist())
print("lengths (code points):", names.str.len().tolist())
print("NFD lengths:", names.str.normalize("NFD").str.len().tolist())
print("categories of 'é':", [unicodedata.category(ch) for ch in unicodedata.normalize("NFD", "é")])
upper = names.str.upper()
print(upper.tolist())
with open("names_ascii.txt", "w", encoding="utf-8") as f:
    for orig, plain in zip(names, ascii_names, strict=True):
        f.write(f"{orig}\t{plain}\n")
with open("names_ascii.txt", encoding="utf-8") as fh:
    print(fh.read().count("\n"), "lines written")
