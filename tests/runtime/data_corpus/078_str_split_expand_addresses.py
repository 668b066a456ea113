import pandas as pd

addresses = pd.Series([
    "12 Baker Street, London, NW1 6XE, UK",
    "350 Fifth Avenue, New York, NY 10118, USA",
    "1 Rue de Rivoli, Paris, 75001, France",
    "Hauptstr. 5, Berlin, 10115, Germany",
    "Unknown",
])
parts = addresses.str.split(",", expand=True).apply(lambda col: col.str.strip())
parts.columns = ["street", "city", "postal", "country"]
parts["house_no"] = parts["street"].str.extract(r"(\d+)", expand=False)
parts["street_name"] = parts["street"].str.replace(r"^\d+\s+|\s+\d+$", "", regex=True)
print(parts.to_string())
print()
print("complete rows:", int(parts.notna().all(axis=1).sum()))
print("countries:", parts["country"].dropna().str.upper().tolist())
print("postal digits only:", parts["postal"].str.replace(r"\D", "", regex=True).tolist())
