# inputs: survey.csv
"""Normalise free-text country names and income strings from a survey export."""
import pandas as pd

df = pd.read_csv("/input/survey.csv")
aliases = {"us": "United States", "usa": "United States", "united states": "United States",
           "uk": "United Kingdom", "u.k.": "United Kingdom", "germany": "Germany", "de": "Germany",
           "france": "France", "fr": "France"}
df["country_clean"] = df["country"].str.strip().str.lower().map(aliases).fillna(df["country"])
print(pd.crosstab(df["country"], df["country_clean"]).to_string())

df["income_num"] = pd.to_numeric(df["income"].str.replace(r"[$,]", "", regex=True), errors="coerce")
print()
print(df.groupby("country_clean")["income_num"].agg(["count", "median", "mean"]).round(1))
print()
print("income missing:", int(df["income_num"].isna().sum()))
print("recommend variants:", sorted(df["recommend"].unique()))
print("normalised:", df["recommend"].str.casefold().value_counts().to_dict())
