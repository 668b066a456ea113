import numpy as np

start = np.datetime64("2024-02-27")
days = np.arange(start, start + np.timedelta64(5, "D"))
print("days:", [str(d) for d in days])
print("leap day present:", np.datetime64("2024-02-29") in days)
print("business days in March 2024:", int(np.busday_count("2024-03-01", "2024-04-01")))
print(
    "next business day after 2024-03-29 (holiday):",
    np.busday_offset("2024-03-29", 0, roll="forward", holidays=["2024-03-29"]),
)
print("weekmask:", np.is_busday(days, weekmask="1111100").tolist())
ts = np.array(["2024-01-01T12:00", "2024-01-03T06:30"], dtype="datetime64[m]")
print("difference:", ts[1] - ts[0], "in hours:", (ts[1] - ts[0]) / np.timedelta64(1, "h"))
print("as month:", ts.astype("datetime64[M]").tolist())
print("epoch seconds:", ts.astype("datetime64[s]").astype(np.int64).tolist())
months = np.arange("2024-01", "2024-07", dtype="datetime64[M]")
print("months:", [str(m) for m in months])
print(
    "month lengths:",
    ((months + 1).astype("datetime64[D]") - months.astype("datetime64[D]")).astype(int).tolist(),
)
print(
    "nat:",
    np.datetime64("NaT"),
    np.isnat(np.array(["NaT", "2024-01-01"], dtype="datetime64[D]")).tolist(),
)
