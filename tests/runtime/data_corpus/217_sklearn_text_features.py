"""Text classification: TF-IDF features and a naive Bayes model."""
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.naive_bayes import MultinomialNB
from sklearn.pipeline import make_pipeline

docs = [
    "the match ended in a late goal", "the striker scored twice", "a great save by the keeper",
    "the market fell on rate fears", "stocks rallied after earnings", "bond yields rose again",
    "the coach praised the defence", "investors sold tech shares",
]
labels = ["sport", "sport", "sport", "finance", "finance", "finance", "sport", "finance"]
counts = CountVectorizer().fit(docs)
print("vocabulary size:", len(counts.vocabulary_))
tfidf = TfidfVectorizer(stop_words="english").fit(docs)
print("first terms:", sorted(tfidf.vocabulary_)[:8])
model = make_pipeline(TfidfVectorizer(), MultinomialNB()).fit(docs, labels)
tests = ["the keeper scored a goal", "shares and bonds fell", "a rally in stocks"]
for text, label in zip(tests, model.predict(tests)):
    print(f"{text!r}: {label}")
proba = model.predict_proba(["late goal by the striker"])[0]
print("P(sport):", round(float(proba[list(model.classes_).index("sport")]), 4))
