# inputs: stocks.csv
import pandas as pd

pd.set_option("display.precision", 4)

px = pd.read_csv("/input/stocks.csv", parse_dates=["date"], index_col="date")
acme = px[px["ticker"] == "ACME"][["close", "volume"]].copy()
acme["sma_5"] = acme["close"].rolling(5).mean()
acme["sma_20"] = acme["close"].rolling(20).mean()
acme["signal"] = (acme["sma_5"] > acme["sma_20"]).astype(int)
acme["cross"] = acme["signal"].diff().fillna(0)

print(acme.iloc[18:26])
print()
crosses = acme[acme["cross"] != 0]
print("golden/death crosses:")
for day, row in crosses.iterrows():
    kind = "golden" if row["cross"] > 0 else "death"
    print(f"  {day:%Y-%m-%d} {kind:<6} close={row['close']:.2f}")
