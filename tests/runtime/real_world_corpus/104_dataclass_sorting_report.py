# ruff: noqa
import json
from dataclasses import dataclass, asdict
from operator import attrgetter


@dataclass
class Movie:
    title: str
    year: int
    rating: float
    genre: str


MOVIES = [
    Movie("Alien", 1979, 8.5, "scifi"), Movie("Heat", 1995, 8.3, "crime"), Movie("Up", 2009, 8.3, "animation"),
    Movie("Arrival", 2016, 7.9, "scifi"), Movie("Fargo", 1996, 8.1, "crime"),
]


def sort_by(movies, spec):
    """Sort by comma-separated attribute names, '-' for descending.

    >>> [m.title for m in sort_by(MOVIES, "-rating,title")]
    ['Alien', 'Heat', 'Up', 'Fargo', 'Arrival']
    >>> [m.title for m in sort_by(MOVIES, "genre,-year")]
    ['Up', 'Fargo', 'Heat', 'Arrival', 'Alien']
    """
    result = list(movies)
    for key in reversed(spec.split(",")):
        desc = key.startswith("-")
        result.sort(key=attrgetter(key.lstrip("-")), reverse=desc)
    return result


def best_per_genre(movies):
    """
    >>> best_per_genre(MOVIES)
    {'animation': 'Up', 'crime': 'Heat', 'scifi': 'Alien'}
    """
    best = {}
    for m in movies:
        if m.genre not in best or m.rating > best[m.genre].rating:
            best[m.genre] = m
    return {g: best[g].title for g in sorted(best)}


def dump(movies, path):
    """
    >>> dump(MOVIES[:2], "movies.json")
    >>> [Movie(**d) for d in json.load(open("movies.json"))] == MOVIES[:2]
    True
    """
    with open(path, "w") as f:
        json.dump([asdict(m) for m in movies], f)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
