"""Assign tax brackets to incomes with pd.cut and with merge_asof."""

import pandas as pd

brackets = pd.DataFrame(
    {"lower": [0, 11000, 44725, 95375, 182100], "rate": [0.10, 0.12, 0.22, 0.24, 0.32]}
)
people = pd.DataFrame(
    {
        "name": ["Ava", "Bo", "Cy", "Di", "Ed", "Flo"],
        "income": [9500, 38000, 44725, 120000, 250000, 0],
    }
)

by_asof = pd.merge_asof(people.sort_values("income"), brackets, left_on="income", right_on="lower")
print(by_asof.to_string(index=False))

edges = [*brackets["lower"].tolist(), float("inf")]
people["rate"] = pd.cut(people["income"], bins=edges, right=False, labels=brackets["rate"]).astype(
    float
)


def tax_owed(income):
    owed = 0.0
    for i, row in brackets.iterrows():
        upper = edges[i + 1]
        if income > row["lower"]:
            owed += (min(income, upper) - row["lower"]) * row["rate"]
    return round(owed, 2)


people["tax"] = people["income"].map(tax_owed)
people["effective_rate"] = (people["tax"] / people["income"].where(people["income"] > 0)).round(4)
print()
print(people.to_string(index=False))
