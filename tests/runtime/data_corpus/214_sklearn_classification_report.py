"""Classify with scikit-learn: logistic regression, a random forest, and their reports."""
import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, classification_report, confusion_matrix, roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

X, y = make_classification(n_samples=600, n_features=8, n_informative=5, n_redundant=1,
                           random_state=7)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=7,
                                                    stratify=y)
scaler = StandardScaler().fit(X_train)
logit = LogisticRegression(max_iter=1000).fit(scaler.transform(X_train), y_train)
proba = logit.predict_proba(scaler.transform(X_test))[:, 1]
print(f"logistic accuracy: {accuracy_score(y_test, proba > 0.5):.4f}")
print(f"logistic ROC AUC: {roc_auc_score(y_test, proba):.4f}")
forest = RandomForestClassifier(n_estimators=50, max_depth=6, random_state=0, n_jobs=1)
forest.fit(X_train, y_train)
pred = forest.predict(X_test)
print("confusion matrix:", confusion_matrix(y_test, pred).tolist())
print(classification_report(y_test, pred, digits=3))
top = np.argsort(forest.feature_importances_)[::-1][:3]
print("top features:", top.tolist())
