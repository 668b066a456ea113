import pandas as pd

contacts = pd.DataFrame({
    "name": ["Ann Lee", "ann lee", "Bob Roy", "Cid Oz", "Bob Roy", "Dee Fox", "Cid  Oz"],
    "email": ["ann@x.io", "ANN@x.io", "bob@y.io", "cid@z.io", "bob@y.io", "dee@w.io", "cid@z.io"],
    "signup": pd.to_datetime(["2024-01-05", "2024-02-01", "2024-01-20", "2024-03-03", "2024-01-20",
                              "2024-02-14", "2024-04-01"]),
})
print("exact duplicates:", contacts.duplicated().tolist())
key = contacts["email"].str.lower()
print("duplicate emails (all):", contacts[key.duplicated(keep=False)]["email"].tolist())
contacts["name_key"] = contacts["name"].str.lower().str.split().str.join(" ")
dedup = contacts.sort_values("signup").drop_duplicates(subset=["name_key"], keep="first")
print(dedup.drop(columns="name_key").to_string(index=False))
print("kept", len(dedup), "of", len(contacts))
print("unique emails:", key.nunique(), "unique names:", contacts["name_key"].nunique())
