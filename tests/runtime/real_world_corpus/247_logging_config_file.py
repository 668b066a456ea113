# ruff: noqa
import io
import logging
import logging.config
import unittest

INI = """
[loggers]
keys=root,billing

[handlers]
keys=file

[formatters]
keys=plain

[logger_root]
level=WARNING
handlers=

[logger_billing]
level=INFO
handlers=file
qualname=billing
propagate=0

[handler_file]
class=FileHandler
level=INFO
formatter=plain
args=('billing.log', 'w')

[formatter_plain]
format=%(name)s:%(levelname)s:%(message)s
"""


class FileConfigTest(unittest.TestCase):
    def test_file_config(self):
        with open("logging.ini", "w") as f:
            f.write(INI)
        logging.config.fileConfig("logging.ini", disable_existing_loggers=False)
        log = logging.getLogger("billing")
        log.info("invoice %s sent", "INV-1")
        log.debug("hidden")
        for h in log.handlers:
            h.close()
        with open("billing.log") as f:
            self.assertEqual(f.read(), "billing:INFO:invoice INV-1 sent\n")


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
