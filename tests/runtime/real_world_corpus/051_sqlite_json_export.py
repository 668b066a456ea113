# ruff: noqa
import json
import sqlite3
import unittest


def dict_factory(cursor, row):
    return {col[0]: value for col, value in zip(cursor.description, row)}


def seed(conn):
    conn.executescript(
        """
        CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, category TEXT, price REAL);
        INSERT INTO products (name, category, price) VALUES
            ('Laptop', 'electronics', 999.0), ('Mouse', 'electronics', 19.5),
            ('Desk', 'furniture', 250.0), ('Chair', 'furniture', 120.0), ('Pen', 'office', 1.2);
        """
    )


def export_json(conn, path, category=None):
    conn.row_factory = dict_factory
    sql = "SELECT * FROM products"
    params = ()
    if category:
        sql += " WHERE category = ?"
        params = (category,)
    rows = conn.execute(sql + " ORDER BY id", params).fetchall()
    with open(path, "w") as f:
        json.dump(rows, f, indent=2)
    return len(rows)


def import_json(conn, path):
    with open(path) as f:
        rows = json.load(f)
    conn.executemany("INSERT INTO products (id, name, category, price) VALUES (:id, :name, :category, :price)", rows)
    return len(rows)


class ExportTest(unittest.TestCase):
    def test_round_trip(self):
        src = sqlite3.connect(":memory:")
        seed(src)
        self.assertEqual(export_json(src, "furniture.json", "furniture"), 2)
        dst = sqlite3.connect(":memory:")
        dst.execute("CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, category TEXT, price REAL)")
        self.assertEqual(import_json(dst, "furniture.json"), 2)
        self.assertEqual(dst.execute("SELECT name FROM products ORDER BY price").fetchall(), [("Chair",), ("Desk",)])

    def test_all(self):
        conn = sqlite3.connect(":memory:")
        seed(conn)
        self.assertEqual(export_json(conn, "all.json"), 5)
        with open("all.json") as f:
            self.assertEqual(json.load(f)[1], {"id": 2, "name": "Mouse", "category": "electronics", "price": 19.5})


if __name__ == "__main__":
    c = sqlite3.connect(":memory:")
    seed(c)
    export_json(c, "office.json", "office")
    print(open("office.json").read())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
