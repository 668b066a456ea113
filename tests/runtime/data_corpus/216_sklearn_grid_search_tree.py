"""Tune a model: grid search over a decision tree and k-nearest neighbours."""
import numpy as np
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier, export_text

iris = load_iris()
X, y = iris.data, iris.target
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
tree = GridSearchCV(DecisionTreeClassifier(random_state=0),
                    {"max_depth": [2, 3, 4], "min_samples_leaf": [1, 5]}, cv=cv)
tree.fit(X, y)
print("best tree params:", tree.best_params_)
print(f"best tree score: {tree.best_score_:.4f}")
print(export_text(tree.best_estimator_, feature_names=list(iris.feature_names)))
knn = GridSearchCV(make_pipeline(StandardScaler(), KNeighborsClassifier()),
                   {"kneighborsclassifier__n_neighbors": [3, 5, 7, 9]}, cv=cv)
knn.fit(X, y)
print("best k:", knn.best_params_["kneighborsclassifier__n_neighbors"])
print(f"best knn score: {knn.best_score_:.4f}")
print("mean test scores:", np.round(knn.cv_results_["mean_test_score"], 4).tolist())
