# ruff: noqa
import io
import logging
import unittest


class RequestAdapter(logging.LoggerAdapter):
    def process(self, msg, kwargs):
        return f"[req={self.extra['request_id']} user={self.extra.get('user', '-')}] {msg}", kwargs


def handle_request(request_id, user, path, logger):
    log = RequestAdapter(logger, {"request_id": request_id, "user": user})
    log.info("GET %s", path)
    if path.startswith("/admin") and user != "root":
        log.warning("forbidden")
        return 403
    log.debug("served")
    return 200


def capture(level=logging.DEBUG):
    stream = io.StringIO()
    logger = logging.getLogger("web")
    logger.handlers[:] = []
    logger.setLevel(level)
    logger.propagate = False
    h = logging.StreamHandler(stream)
    h.setFormatter(logging.Formatter("%(levelname).1s %(message)s"))
    logger.addHandler(h)
    return logger, stream


class AdapterTest(unittest.TestCase):
    def test_prefix(self):
        logger, stream = capture()
        self.assertEqual(handle_request(7, "ann", "/admin/users", logger), 403)
        self.assertEqual(handle_request(8, None, "/", logger), 200)
        self.assertEqual(stream.getvalue().splitlines(), [
            "I [req=7 user=ann] GET /admin/users",
            "W [req=7 user=ann] forbidden",
            "I [req=8 user=None] GET /",
            "D [req=8 user=None] served",
        ])


if __name__ == "__main__":
    logger, stream = capture(logging.INFO)
    for i, (user, path) in enumerate([("root", "/admin"), ("bob", "/home")], 1):
        handle_request(i, user, path, logger)
    print(stream.getvalue(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
