# ruff: noqa
import unittest


class Api:
    """Routes 'GET /users/3' style requests to get_users(id) etc."""

    def __init__(self):
        self.users = {1: "ann", 2: "bob"}

    def dispatch(self, request):
        method, path = request.split()
        parts = [p for p in path.split("/") if p]
        handler = getattr(self, f"{method.lower()}_{parts[0]}", None) if parts else None
        if handler is None:
            return 404, "not found"
        try:
            return handler(*parts[1:])
        except TypeError:
            return 400, "bad request"

    def get_users(self, user_id=None):
        if user_id is None:
            return 200, sorted(self.users.values())
        uid = int(user_id)
        return (200, self.users[uid]) if uid in self.users else (404, "no such user")

    def delete_users(self, user_id):
        return (204, None) if self.users.pop(int(user_id), None) else (404, "no such user")

    def get_health(self):
        return 200, "ok"


class RouterTest(unittest.TestCase):
    def test_routes(self):
        api = Api()
        cases = [("GET /users", (200, ["ann", "bob"])), ("GET /users/2", (200, "bob")), ("DELETE /users/2", (204, None)),
                 ("GET /users/2", (404, "no such user")), ("GET /health", (200, "ok")), ("GET /health/x", (400, "bad request")),
                 ("POST /users", (404, "not found")), ("GET /", (404, "not found"))]
        for req, expected in cases:
            with self.subTest(req=req):
                self.assertEqual(api.dispatch(req), expected)


if __name__ == "__main__":
    api = Api()
    for req in ["GET /users", "GET /users/1", "PATCH /users/1"]:
        print(req, "->", api.dispatch(req))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
