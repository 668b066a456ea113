import pandas as pd

pets = pd.DataFrame({"owner": ["ann", "bob", "cat", "dan", "eli"],
                     "pet": ["dog", "cat", "dog", "fish", "cat"],
                     "size": ["L", "S", "M", "S", "S"]})
dummies = pd.get_dummies(pets, columns=["pet", "size"], prefix_sep="=", dtype=int)
print(dummies)
print()
print("column sums:", dummies.drop(columns="owner").sum().to_dict())

back = pd.from_dummies(dummies[[c for c in dummies if c.startswith("pet=")]], sep="=")
print(back.assign(owner=pets["owner"]))

tags = pd.Series(["red|blue", "blue", "green|red|blue", "", "green"])
print()
print(tags.str.get_dummies(sep="|"))
