"""Predict a target with scikit-learn: a pipeline, cross-validation and metrics."""
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.metrics import mean_absolute_error, r2_score
from sklearn.model_selection import cross_val_score, train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

rng = np.random.default_rng(0)
n = 1000
df = pd.DataFrame({
    "size": rng.uniform(30, 200, n),
    "rooms": rng.integers(1, 6, n),
    "city": rng.choice(["Paris", "Lyon", "Nice"], n),
})
city_effect = df["city"].map({"Paris": 3000.0, "Lyon": 1500.0, "Nice": 2000.0})
df["price"] = df["size"] * city_effect + df["rooms"] * 5000 + rng.normal(0, 10000, n)

X, y = df[["size", "rooms", "city"]], df["price"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=42)
pre = ColumnTransformer([("num", StandardScaler(), ["size", "rooms"]),
                         ("cat", OneHotEncoder(handle_unknown="ignore"), ["city"])])
model = Pipeline([("pre", pre), ("reg", LinearRegression())])
model.fit(X_train, y_train)
pred = model.predict(X_test)
print("train/test sizes:", len(X_train), len(X_test))
print(f"R^2: {r2_score(y_test, pred):.4f}")
print(f"MAE: {mean_absolute_error(y_test, pred):.1f}")
scores = cross_val_score(Pipeline([("pre", pre), ("reg", Ridge(alpha=1.0))]), X, y, cv=5,
                         scoring="r2")
print("5-fold R^2:", np.round(scores, 4).tolist())
plain = LinearRegression().fit(df[["size", "rooms"]], y)
print("plain coefficients:", np.round(plain.coef_, 2).tolist(), round(plain.intercept_, 2))
