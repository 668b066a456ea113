import pandas as pd

s = pd.Series([88, 92, 75, 92, 60, 88, 100, 75], index=list("abcdefgh"), name="score")
ranks = pd.DataFrame(
    {
        "score": s,
        "average": s.rank(),
        "min": s.rank(method="min"),
        "max": s.rank(method="max"),
        "first": s.rank(method="first"),
        "dense": s.rank(method="dense"),
        "desc_dense": s.rank(method="dense", ascending=False),
        "pct": s.rank(pct=True).round(4),
    }
)
print(ranks)
groups = pd.DataFrame({"team": list("xxxyyyyx"), "score": s.values})
groups["team_rank"] = (
    groups.groupby("team")["score"].rank(method="dense", ascending=False).astype(int)
)
print(groups.sort_values(["team", "team_rank"]).to_string(index=False))
