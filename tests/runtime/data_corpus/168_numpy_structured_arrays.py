import numpy as np

dtype = [("name", "U10"), ("age", "i8"), ("score", "f8")]
people = np.array(
    [("ann", 31, 88.5), ("bob", 25, 92.0), ("cid", 41, 79.25), ("dee", 25, 95.5)], dtype=dtype
)
print(people)
print("names:", people["name"].tolist())
print("mean score:", people["score"].mean())
print("sorted by age, score:", np.sort(people, order=["age", "score"])["name"].tolist())
young = people[people["age"] < 30]
print("under 30:", young.tolist())
rec = people.view(np.recarray)
print("recarray access:", rec.name[0], rec.score.max())
print("fields:", people.dtype.names, "itemsize:", people.dtype.itemsize)
print(np.rec.fromarrays([np.array([1, 2]), np.array(["x", "y"])], names="id,tag"))
