import pandas as pd

trades = pd.DataFrame(
    {
        "time": pd.to_datetime(
            [
                "2024-01-02 09:30:00.023",
                "2024-01-02 09:30:00.038",
                "2024-01-02 09:30:00.048",
                "2024-01-02 09:30:00.048",
                "2024-01-02 09:30:00.048",
            ]
        ),
        "ticker": ["MSFT", "MSFT", "GOOG", "GOOG", "AAPL"],
        "price": [51.95, 51.95, 720.77, 720.92, 98.00],
        "quantity": [75, 155, 100, 100, 100],
    }
)
quotes = pd.DataFrame(
    {
        "time": pd.to_datetime(
            [
                "2024-01-02 09:30:00.023",
                "2024-01-02 09:30:00.023",
                "2024-01-02 09:30:00.030",
                "2024-01-02 09:30:00.041",
                "2024-01-02 09:30:00.048",
                "2024-01-02 09:30:00.049",
                "2024-01-02 09:30:00.072",
                "2024-01-02 09:30:00.075",
            ]
        ),
        "ticker": ["GOOG", "MSFT", "MSFT", "MSFT", "GOOG", "AAPL", "GOOG", "MSFT"],
        "bid": [720.50, 51.95, 51.97, 51.99, 720.50, 97.99, 720.50, 52.01],
        "ask": [720.93, 51.96, 51.98, 52.00, 720.93, 98.01, 720.88, 52.03],
    }
)

joined = pd.merge_asof(trades, quotes, on="time", by="ticker")
print(joined)
print()
tight = pd.merge_asof(trades, quotes, on="time", by="ticker", tolerance=pd.Timedelta("2ms"))
print(tight)
print()
strict = pd.merge_asof(trades, quotes, on="time", by="ticker", allow_exact_matches=False)
print(strict[["time", "ticker", "bid", "ask"]])
