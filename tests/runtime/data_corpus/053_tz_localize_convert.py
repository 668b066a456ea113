import pandas as pd

meetings = pd.DataFrame(
    {
        "title": ["standup", "design review", "1:1", "all hands"],
        "local_time": pd.to_datetime(
            ["2024-03-08 09:00", "2024-03-11 14:30", "2024-11-01 16:00", "2024-11-04 10:00"]
        ),
    }
)
meetings["ny"] = meetings["local_time"].dt.tz_localize("America/New_York")
meetings["utc"] = meetings["ny"].dt.tz_convert("UTC")
meetings["berlin"] = meetings["ny"].dt.tz_convert("Europe/Berlin")
meetings["tokyo"] = meetings["ny"].dt.tz_convert("Asia/Tokyo")
meetings["ny_offset"] = meetings["ny"].dt.strftime("%z")
print(meetings[["title", "utc", "berlin", "tokyo", "ny_offset"]].to_string(index=False))
print()
gap = meetings["utc"].diff().dt.total_seconds().div(3600)
print("hours between meetings (UTC):", gap.tolist())
kolkata = pd.Timestamp("2024-06-15 12:00", tz="UTC").tz_convert("Asia/Kolkata")
print("noon UTC in Kolkata:", kolkata, kolkata.tzname())
