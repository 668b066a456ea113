import numpy as np
import pandas as pd


def iqr(s):
    return s.quantile(0.75) - s.quantile(0.25)


def make_data():
    rng = np.random.default_rng(7)
    n = 200
    return pd.DataFrame({
        "store": rng.choice(["S1", "S2", "S3", "S4"], size=n),
        "weekday": rng.choice(["Mon", "Tue", "Wed", "Thu", "Fri"], size=n),
        "basket": rng.gamma(shape=2.0, scale=15.0, size=n).round(2),
        "items": rng.integers(1, 12, size=n),
    })


def main():
    df = make_data()
    report = df.groupby("store").agg(
        visits=("basket", "size"),
        mean_basket=("basket", "mean"),
        median_basket=("basket", "median"),
        iqr_basket=("basket", iqr),
        total_items=("items", "sum"),
        big_baskets=("basket", lambda s: int((s > 50).sum())),
    )
    print(report.round(3))
    print()
    by_day = df.pivot_table(index="weekday", values="basket", aggfunc="mean")
    by_day = by_day.reindex(["Mon", "Tue", "Wed", "Thu", "Fri"]).round(2)
    print(by_day)


if __name__ == "__main__":
    main()
