"""Within-group normalisation with groupby().transform()."""
import pandas as pd

data = {
    "team": ["red", "red", "red", "blue", "blue", "green", "green", "green", "green"],
    "player": ["ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal", "ivy"],
    "points": [12, 30, 18, 25, 25, 8, 16, 4, 12],
}
df = pd.DataFrame(data)

df["team_total"] = df.groupby("team")["points"].transform("sum")
df["share"] = (df["points"] / df["team_total"]).round(3)
df["rank_in_team"] = df.groupby("team")["points"].rank(ascending=False, method="min").astype(int)
df["zscore"] = df.groupby("team")["points"].transform(lambda s: (s - s.mean()) / s.std(ddof=0))
df["zscore"] = df["zscore"].round(4)

print(df.sort_values(["team", "rank_in_team"]).to_string(index=False))
print()
print("MVP per team:")
for team, row in df.loc[df.groupby("team")["points"].idxmax()].set_index("team").iterrows():
    print(f"  {team:<6} {row['player']} ({row['points']} pts)")
