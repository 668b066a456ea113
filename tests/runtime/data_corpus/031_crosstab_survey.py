# inputs: survey.csv
import pandas as pd

s = pd.read_csv("/input/survey.csv")
s["recommend"] = s["recommend"].str.strip().str.capitalize()

counts = pd.crosstab(s["satisfaction"], s["recommend"], margins=True)
print(counts)
print()
rates = pd.crosstab(s["gender"], s["recommend"], normalize="index").round(3)
print(rates)
print()
mean_sat = pd.crosstab(s["gender"], s["recommend"], values=s["satisfaction"], aggfunc="mean").round(
    2
)
print(mean_sat)
