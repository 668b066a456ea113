import pandas as pd

phones = pd.Series(
    ["(555) 010-2030", "555.010.2031", "+1 555 010 2032", "5550102033", "010-2034", "n/a"]
)
digits = phones.str.replace(r"\D", "", regex=True)
norm = digits.where(digits.str.len() >= 10).str[-10:]
fmt = norm.str.replace(r"(\d{3})(\d{3})(\d{4})", r"(\1) \2-\3", regex=True)
print(pd.DataFrame({"raw": phones, "digits": digits, "formatted": fmt}).to_string(index=False))

dates = pd.Series(
    ["due 2024-05-01", "paid on 2024-06-15 late", "no date", "2024-07-04 and 2024-07-05"]
)
print(dates.str.findall(r"\d{4}-\d{2}-\d{2}").tolist())
all_matches = dates.str.extractall(r"(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})")
print(all_matches)
swapped = dates.str.replace(
    r"(\d{4})-(\d{2})-(\d{2})", lambda m: f"{m.group(3)}/{m.group(2)}/{m.group(1)}", regex=True
)
print(swapped.tolist())
