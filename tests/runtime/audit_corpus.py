"""A corpus of benign, model-style Python scripts for the audit tests.

Each `Case` is a script of the kind an LLM agent writes to answer a user's question (parse a
CSV held in a string, summarise numbers, compute dates, run a seeded simulation, format a
report, ...), with the exact stdout it prints under CPython 3.13. The scripts use only the
allowlisted standard library and none of the constructs the audit exists to refuse (no open,
eval, exec, dunder attribute walks, non-literal getattr, ...), so a precise audit must judge
every one of them safe, and each must then print exactly `stdout`. Some use constructs that
the strict preset refuses but a more precise preset must allow: `sys.stdout.write`,
`sys.version_info`, `sys.setrecursionlimit`, `sys.exit(main())`, getattr/hasattr/setattr with
a literal, non-dunder attribute name, and a few modules beyond the strict allowlist
(argparse, logging, tomllib, warnings, traceback, shlex, errno, reprlib, sched, ...).

The output is deterministic: random generators are seeded, dates are fixed, sets are sorted
before printing, and floats from transcendental functions are rounded before printing.
"""

import textwrap
from dataclasses import dataclass

CATEGORIES = (
    "parsing",
    "text",
    "dates",
    "dataclasses",
    "algorithms",
    "simulation",
    "typing",
    "syntax-312",
    "data",
    "math",
    "json",
    "regex",
    "functional",
    "oop",
    "errors",
    "output",
)


@dataclass(frozen=True)
class Case:
    """One script and the exact stdout it prints (exit status 0, nothing on stderr)."""

    id: str  # short unique kebab-case id
    category: str  # one of CATEGORIES
    code: str  # the script, as a model would write it
    stdout: str  # the exact expected stdout


def _src(text: str) -> str:
    """A script written indented inside a triple-quoted string, as the model wrote it."""
    return textwrap.dedent(text).lstrip("\n")


CORPUS: list[Case] = [
    Case(
        id="csv-sum-columns",
        category="parsing",
        code=_src(r'''
            import csv
            import io

            DATA = """product,q1,q2,q3,q4
            widget,120,135,150,160
            gadget,80,95,70,110
            doohickey,45,50,65,40
            """

            reader = csv.DictReader(io.StringIO(DATA))
            quarters = ["q1", "q2", "q3", "q4"]
            totals = {q: 0 for q in quarters}
            for row in reader:
                yearly = sum(int(row[q]) for q in quarters)
                print(f"{row['product']:<10} {yearly:>5}")
                for q in quarters:
                    totals[q] += int(row[q])

            print("-" * 16)
            for q, value in totals.items():
                print(f"{q.upper():<10} {value:>5}")
            print(f"{'TOTAL':<10} {sum(totals.values()):>5}")
        '''),
        stdout=(
            "widget       565\n"
            "gadget       355\n"
            "doohickey    200\n"
            "----------------\n"
            "Q1           245\n"
            "Q2           280\n"
            "Q3           285\n"
            "Q4           310\n"
            "TOTAL       1120\n"
        ),
    ),
    Case(
        id="csv-group-by-region",
        category="parsing",
        code=_src(r'''
            import csv
            import io
            from collections import defaultdict

            csv_text = """date,region,rep,amount
            2024-01-03,North,Alice,1200.50
            2024-01-04,South,Bob,830.00
            2024-01-04,North,Carol,455.25
            2024-01-05,East,Dan,990.00
            2024-01-06,South,Erin,1310.75
            2024-01-07,North,Alice,610.00
            """



            def load(text):
                by_region = defaultdict(list)
                for record in csv.DictReader(io.StringIO(text)):
                    by_region[record["region"]].append(float(record["amount"]))
                return by_region


            def main():
                by_region = load(csv_text)
                print("Sales by region")
                for region in sorted(by_region, key=lambda r: -sum(by_region[r])):
                    amounts = by_region[region]
                    print(f"  {region:<6} n={len(amounts)} total={sum(amounts):>9,.2f} "
                          f"avg={sum(amounts) / len(amounts):,.2f}")


            if __name__ == "__main__":
                main()
        '''),
        stdout=(
            "Sales by region\n"
            "  North  n=3 total= 2,265.75 avg=755.25\n"
            "  South  n=2 total= 2,140.75 avg=1,070.38\n"
            "  East   n=1 total=   990.00 avg=990.00\n"
        ),
    ),
    Case(
        id="csv-semicolon-sniffer",
        category="parsing",
        code=_src(r'''
            import csv
            import io

            raw = """name;city;score
            Ana;Lisbon;88
            Bruno;Porto;92
            Clara;Faro;79
            """

            dialect = csv.Sniffer().sniff(raw)
            print("delimiter:", repr(dialect.delimiter))
            print("has header:", csv.Sniffer().has_header(raw))

            rows = list(csv.reader(io.StringIO(raw), dialect))
            header, body = rows[0], rows[1:]
            print("columns:", header)
            best = max(body, key=lambda r: int(r[2]))
            print(f"top scorer: {best[0]} from {best[1]} with {best[2]}")

            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(sorted(body, key=lambda r: r[0], reverse=True))
            print(out.getvalue(), end="")
        '''),
        stdout=(
            "delimiter: ';'\n"
            "has header: True\n"
            "columns: ['name', 'city', 'score']\n"
            "top scorer: Bruno from Porto with 92\n"
            "name,city,score\n"
            "Clara,Faro,79\n"
            "Bruno,Porto,92\n"
            "Ana,Lisbon,88\n"
        ),
    ),
    Case(
        id="ini-config-manual-parse",
        category="parsing",
        code=_src(r'''
            CONFIG = """
            ; application settings
            [server]
            host = 0.0.0.0
            port = 8080
            debug = false

            [database]
            url = postgres://db.internal:5432/app
            pool_size = 10
            # trailing comment
            timeout = 2.5
            """


            def parse_ini(text):
                sections = {}
                current = None
                for lineno, line in enumerate(text.splitlines(), start=1):
                    line = line.strip()
                    if not line or line.startswith((";", "#")):
                        continue
                    if line.startswith("[") and line.endswith("]"):
                        current = sections.setdefault(line[1:-1], {})
                    elif "=" in line and current is not None:
                        key, value = (part.strip() for part in line.split("=", 1))
                        current[key] = value
                    else:
                        raise ValueError(f"line {lineno}: cannot parse {line!r}")
                return sections


            def coerce(value):
                if value.lower() in {"true", "false"}:
                    return value.lower() == "true"
                for kind in (int, float):
                    try:
                        return kind(value)
                    except ValueError:
                        pass
                return value


            config = {
                name: {key: coerce(value) for key, value in body.items()}
                for name, body in parse_ini(CONFIG).items()
            }
            for section, values in config.items():
                print(f"[{section}]")
                for key, value in values.items():
                    print(f"  {key} = {value!r} {type(value)}")
        '''),
        stdout=(
            "[server]\n"
            "  host = '0.0.0.0' <class 'str'>\n"
            "  port = 8080 <class 'int'>\n"
            "  debug = False <class 'bool'>\n"
            "[database]\n"
            "  url = 'postgres://db.internal:5432/app' <class 'str'>\n"
            "  pool_size = 10 <class 'int'>\n"
            "  timeout = 2.5 <class 'float'>\n"
        ),
    ),
    Case(
        id="html-parser-links",
        category="parsing",
        code=_src(r'''
            from html.parser import HTMLParser

            PAGE = """
            <html><head><title>Release notes</title></head>
            <body>
              <h1>Downloads</h1>
              <p>Get the <a href="https://example.com/dl/v2.1.tar.gz">source tarball</a> or the
              <a href="/docs/install.html" class="doc">install guide</a>.</p>
              <img src="/static/logo.png" alt="logo">
              <a href="mailto:team@example.com">Contact us</a>
            </body></html>
            """


            class LinkCollector(HTMLParser):
                def reset(self):
                    super().reset()
                    self.links = []
                    self.title = ""
                    self._in_title = False
                    self._current = None

                def handle_starttag(self, tag, attrs):
                    attributes = dict(attrs)
                    if tag == "a" and "href" in attributes:
                        self._current = [attributes["href"], ""]
                    elif tag == "title":
                        self._in_title = True

                def handle_endtag(self, tag):
                    if tag == "a" and self._current:
                        self.links.append((self._current[0], " ".join(self._current[1].split())))
                        self._current = None
                    elif tag == "title":
                        self._in_title = False

                def handle_data(self, data):
                    if self._in_title:
                        self.title += data
                    if self._current is not None:
                        self._current[1] += data


            parser = LinkCollector()
            parser.feed(PAGE)
            print(f"Title: {parser.title}")
            for href, text in parser.links:
                if href.startswith("http"):
                    kind = "external"
                elif href.startswith("mailto:"):
                    kind = "mail"
                else:
                    kind = "local"
                print(f"- [{kind:8}] {text!r} -> {href}")
        '''),
        stdout=(
            "Title: Release notes\n"
            "- [external] 'source tarball' -> https://example.com/dl/v2.1.tar.gz\n"
            "- [local   ] 'install guide' -> /docs/install.html\n"
            "- [mail    ] 'Contact us' -> mailto:team@example.com\n"
        ),
    ),
    Case(
        id="xml-inventory-totals",
        category="parsing",
        code=_src(r'''
            import xml.etree.ElementTree as ET

            XML = """<?xml version="1.0"?>
            <inventory warehouse="WH-7">
              <item sku="A-100" category="tools">
                <name>Hammer</name><qty>14</qty><price>12.50</price>
              </item>
              <item sku="B-220" category="garden">
                <name>Hose 20m</name><qty>6</qty><price>24.99</price>
              </item>
              <item sku="A-105" category="tools">
                <name>Screwdriver set</name><qty>30</qty><price>8.75</price>
              </item>
              <item sku="C-001" category="paint">
                <name>Primer 1L</name><qty>0</qty><price>15.00</price>
              </item>
            </inventory>
            """

            root = ET.fromstring(XML)
            print(f"Warehouse {root.get('warehouse')}: {len(root)} SKUs")
            value_by_category = {}
            for item in root.iter("item"):
                qty = int(item.findtext("qty"))
                price = float(item.findtext("price"))
                category = item.get("category")
                value_by_category[category] = value_by_category.get(category, 0.0) + qty * price
                flag = "  OUT OF STOCK" if qty == 0 else ""
                name = item.findtext("name")
                print(f"  {item.get('sku')}  {name:<16} {qty:>3} x {price:>6.2f}{flag}")

            for category, value in sorted(value_by_category.items()):
                print(f"{category:>8}: {value:8.2f}")

            low = [i.findtext("name") for i in root.findall("item") if int(i.findtext("qty")) < 10]
            print("Reorder:", ", ".join(low))
        '''),
        stdout=(
            "Warehouse WH-7: 4 SKUs\n"
            "  A-100  Hammer            14 x  12.50\n"
            "  B-220  Hose 20m           6 x  24.99\n"
            "  A-105  Screwdriver set   30 x   8.75\n"
            "  C-001  Primer 1L          0 x  15.00  OUT OF STOCK\n"
            "  garden:   149.94\n"
            "   paint:     0.00\n"
            "   tools:   437.50\n"
            "Reorder: Hose 20m, Primer 1L\n"
        ),
    ),
    Case(
        id="url-query-parsing",
        category="parsing",
        code=_src(r"""
            from urllib.parse import parse_qs, urlencode, urljoin, urlparse, urlunparse

            urls = [
                "https://shop.example.com/search?q=running+shoes&size=42&color=red&color=blue",
                "http://localhost:8000/api/v1/items/17?fields=name%2Cprice#details",
                "https://user@docs.example.org:8443/guide/index.html",
            ]

            for url in urls:
                parts = urlparse(url)
                print(url)
                print(f"  scheme={parts.scheme} host={parts.hostname} port={parts.port}")
                print(f"  path={parts.path}")
                query = parse_qs(parts.query)
                for key in sorted(query):
                    print(f"  {key}: {query[key]}")
                if parts.fragment:
                    print(f"  fragment: {parts.fragment}")

            params = {"q": "wireless mouse", "page": 2, "sort": "price-asc"}
            base = urlparse("https://shop.example.com/search")
            print(urlunparse(base._replace(query=urlencode(params))))
            print(urljoin("https://docs.example.org/guide/index.html", "../api/ref.html"))
        """),
        stdout=(
            "https://shop.example.com/search?q=running+shoes&size=42&color=red&color=blue\n"
            "  scheme=https host=shop.example.com port=None\n"
            "  path=/search\n"
            "  color: ['red', 'blue']\n"
            "  q: ['running shoes']\n"
            "  size: ['42']\n"
            "http://localhost:8000/api/v1/items/17?fields=name%2Cprice#details\n"
            "  scheme=http host=localhost port=8000\n"
            "  path=/api/v1/items/17\n"
            "  fields: ['name,price']\n"
            "  fragment: details\n"
            "https://user@docs.example.org:8443/guide/index.html\n"
            "  scheme=https host=docs.example.org port=8443\n"
            "  path=/guide/index.html\n"
            "https://shop.example.com/search?q=wireless+mouse&page=2&sort=price-asc\n"
            "https://docs.example.org/api/ref.html\n"
        ),
    ),
    Case(
        id="toml-config-loads",
        category="parsing",
        code=_src(r'''
            import tomllib

            DOC = """
            title = "Nightly build"

            [owner]
            name = "Release Bot"
            since = 2021-06-01

            [build]
            targets = ["linux-x86_64", "macos-arm64", "wasm32-wasi"]
            parallel = 4
            timeout_minutes = 45.5

            [[build.step]]
            name = "configure"
            args = ["--enable-optimizations"]

            [[build.step]]
            name = "test"
            args = ["-j", "4"]
            """

            config = tomllib.loads(DOC)
            print(config["title"])
            owner = config["owner"]
            print(f"owner: {owner['name']} (since {owner['since'].isoformat()})")
            build = config["build"]
            print(f"{len(build['targets'])} targets, parallel={build['parallel']}, "
                  f"timeout={build['timeout_minutes']} min")
            for number, step in enumerate(build["step"], start=1):
                print(f"  step {number}: {step['name']} {' '.join(step['args'])}")

            try:
                tomllib.loads("key = ")
            except tomllib.TOMLDecodeError as exc:
                print("invalid TOML rejected:", bool(str(exc)))
        '''),
        stdout=(
            "Nightly build\n"
            "owner: Release Bot (since 2021-06-01)\n"
            "3 targets, parallel=4, timeout=45.5 min\n"
            "  step 1: configure --enable-optimizations\n"
            "  step 2: test -j 4\n"
            "invalid TOML rejected: True\n"
        ),
    ),
    Case(
        id="shlex-split-commands",
        category="parsing",
        code=_src(r"""
            import shlex

            commands = [
                'grep -n "error code" /var/log/app.log',
                "tar -czf 'backup 2024.tar.gz' docs/ notes.txt",
                "echo hello\\ world --flag=1",
                'ssh -p 2222 deploy@host "cd /srv && ./restart.sh"',
            ]

            for line in commands:
                argv = shlex.split(line)
                program, *args = argv
                options = [a for a in args if a.startswith("-")]
                operands = [a for a in args if not a.startswith("-")]
                print(f"{program}: {len(args)} args")
                print(f"  options:  {options}")
                print(f"  operands: {operands}")

            print(shlex.join(["cp", "my file.txt", "dest dir/"]))
            print(shlex.quote("it's here"))
        """),
        stdout=(
            "grep: 3 args\n"
            "  options:  ['-n']\n"
            "  operands: ['error code', '/var/log/app.log']\n"
            "tar: 4 args\n"
            "  options:  ['-czf']\n"
            "  operands: ['backup 2024.tar.gz', 'docs/', 'notes.txt']\n"
            "echo: 2 args\n"
            "  options:  ['--flag=1']\n"
            "  operands: ['hello world']\n"
            "ssh: 4 args\n"
            "  options:  ['-p']\n"
            "  operands: ['2222', 'deploy@host', 'cd /srv && ./restart.sh']\n"
            "cp 'my file.txt' 'dest dir/'\n"
            "'it'\"'\"'s here'\n"
        ),
    ),
    Case(
        id="argparse-explicit-argv",
        category="parsing",
        code=_src(r"""
            import argparse


            def build_parser():
                parser = argparse.ArgumentParser(
                    prog="report", description="Summarise a sales export"
                )
                parser.add_argument("files", nargs="+", help="CSV exports to read")
                parser.add_argument("--top", type=int, default=5, help="how many rows to show")
                parser.add_argument("--region", choices=["north", "south", "east", "west"])
                parser.add_argument("-v", "--verbose", action="count", default=0)
                parser.add_argument("--dry-run", action="store_true")
                return parser


            parser = build_parser()
            samples = [
                ["jan.csv"],
                ["jan.csv", "feb.csv", "--top", "10", "-vv"],
                ["--region", "east", "--dry-run", "q1.csv"],
            ]
            for argv in samples:
                args = parser.parse_args(argv)
                print(f"{argv} ->")
                print(f"  files={args.files} top={args.top} region={args.region} "
                      f"verbose={args.verbose} dry_run={args.dry_run}")

            strict = argparse.ArgumentParser(prog="report", exit_on_error=False)
            strict.add_argument("--top", type=int)
            try:
                strict.parse_args(["--top", "many"])
            except argparse.ArgumentError as exc:
                print("error:", exc)
        """),
        stdout=(
            "['jan.csv'] ->\n"
            "  files=['jan.csv'] top=5 region=None verbose=0 dry_run=False\n"
            "['jan.csv', 'feb.csv', '--top', '10', '-vv'] ->\n"
            "  files=['jan.csv', 'feb.csv'] top=10 region=None verbose=2 dry_run=False\n"
            "['--region', 'east', '--dry-run', 'q1.csv'] ->\n"
            "  files=['q1.csv'] top=5 region=east verbose=0 dry_run=True\n"
            "error: argument --top: invalid int value: 'many'\n"
        ),
    ),
    Case(
        id="struct-binary-records",
        category="parsing",
        code=_src(r"""
            import struct

            RECORD = struct.Struct("<HIf8s")
            print("record size:", RECORD.size)

            readings = [
                (1, 1_700_000_000, 21.5, b"lab-a"),
                (2, 1_700_000_060, 22.25, b"lab-b"),
                (3, 1_700_000_120, -3.75, b"freezer"),
            ]
            blob = b"".join(RECORD.pack(*r) for r in readings)
            print("blob bytes:", len(blob))
            print("first record hex:", blob[: RECORD.size].hex(" "))

            for sensor_id, stamp, temp, raw_name in RECORD.iter_unpack(blob):
                name = raw_name.rstrip(b"\x00").decode("ascii")
                print(f"sensor {sensor_id} @ {stamp}: {temp:+.2f} C ({name})")

            header = struct.pack(">4sBBH", b"WAVE", 1, 2, 44100 % 65536)
            magic, major, minor, rate = struct.unpack(">4sBBH", header)
            print(magic.decode(), f"v{major}.{minor}", rate)
        """),
        stdout=(
            "record size: 18\n"
            "blob bytes: 54\n"
            "first record hex: 01 00 00 f1 53 65 00 00 ac 41 6c 61 62 2d 61 00 00 00\n"
            "sensor 1 @ 1700000000: +21.50 C (lab-a)\n"
            "sensor 2 @ 1700000060: +22.25 C (lab-b)\n"
            "sensor 3 @ 1700000120: -3.75 C (freezer)\n"
            "WAVE v1.2 44100\n"
        ),
    ),
    Case(
        id="fixed-width-report",
        category="parsing",
        code=_src(r'''
            REPORT = """\
            EMP  NAME                DEPT        SALARY  START
            0001 Grace Hopper        Engineering  98000  1986-03-01
            0002 Alan Turing         Research    105000  1990-07-15
            0003 Ada Lovelace        Engineering 101500  1988-11-30
            0004 Edsger Dijkstra     Research     99000  1992-01-06
            """

            COLUMNS = [("emp", 0, 4), ("name", 5, 25), ("dept", 25, 37), ("salary", 37, 43),
                       ("start", 45, 55)]


            def parse_line(line):
                row = {name: line[start:end].strip() for name, start, end in COLUMNS}
                row["salary"] = int(row["salary"])
                return row


            rows = [parse_line(line) for line in REPORT.splitlines()[1:]]
            for row in rows:
                print(f"{row['emp']} {row['name']:<16} {row['dept']:<12} {row['salary']:>7} "
                      f"{row['start']}")

            departments = {}
            for row in rows:
                departments.setdefault(row["dept"], []).append(row["salary"])
            for dept, salaries in sorted(departments.items()):
                mean = sum(salaries) / len(salaries)
                print(f"{dept}: headcount={len(salaries)} mean={mean:,.1f}")
        '''),
        stdout=(
            "0001 Grace Hopper     Engineering    98000 1986-03-01\n"
            "0002 Alan Turing      Research      105000 1990-07-15\n"
            "0003 Ada Lovelace     Engineering   101500 1988-11-30\n"
            "0004 Edsger Dijkstra  Research       99000 1992-01-06\n"
            "Engineering: headcount=2 mean=99,750.0\n"
            "Research: headcount=2 mean=102,000.0\n"
        ),
    ),
    Case(
        id="word-frequency-top",
        category="text",
        code=_src(r'''
            import re
            from collections import Counter

            TEXT = """
            It was the best of times, it was the worst of times, it was the age of wisdom,
            it was the age of foolishness, it was the epoch of belief, it was the epoch of
            incredulity, it was the season of Light, it was the season of Darkness.
            """

            STOPWORDS = {"it", "was", "the", "of", "a", "and"}



            def top_words(text, n=6):
                words = re.findall(r"[a-z']+", text.lower())
                counts = Counter(w for w in words if w not in STOPWORDS)
                return words, counts.most_common(n)


            def main():
                words, top = top_words(TEXT)
                print(f"{len(words)} words, {len(set(words))} distinct")
                for word, n in top:
                    print(f"{word:<12} {n:>2} {'#' * n}")


            if __name__ == "__main__":
                main()
        '''),
        stdout=(
            "48 words, 16 distinct\n"
            "times         2 ##\n"
            "age           2 ##\n"
            "epoch         2 ##\n"
            "season        2 ##\n"
            "best          1 #\n"
            "worst         1 #\n"
        ),
    ),
    Case(
        id="textwrap-paragraphs",
        category="text",
        code=_src(r'''
            import textwrap

            abstract = (
                "The sandbox runs untrusted code inside a WebAssembly instance. Each request "
                "gets a fresh interpreter, strict limits on memory and time, and no access to "
                "the host's files, network, or environment. A static audit explains refusals early."
            )

            print(textwrap.fill(abstract, width=48))
            print()
            print(textwrap.fill(abstract, width=60, initial_indent="  * ",
                                subsequent_indent="    "))
            print()
            print(textwrap.shorten(abstract, width=70, placeholder=" [...]"))
            print()
            quoted = textwrap.indent(textwrap.fill(abstract, width=50), "> ")
            print(quoted)
            print(textwrap.dedent("""
                def hello():
                    return "hi"
            """).strip())
        '''),
        stdout=(
            "The sandbox runs untrusted code inside a\n"
            "WebAssembly instance. Each request gets a fresh\n"
            "interpreter, strict limits on memory and time,\n"
            "and no access to the host's files, network, or\n"
            "environment. A static audit explains refusals\n"
            "early.\n"
            "\n"
            "  * The sandbox runs untrusted code inside a WebAssembly\n"
            "    instance. Each request gets a fresh interpreter, strict\n"
            "    limits on memory and time, and no access to the host's\n"
            "    files, network, or environment. A static audit explains\n"
            "    refusals early.\n"
            "\n"
            "The sandbox runs untrusted code inside a WebAssembly instance. [...]\n"
            "\n"
            "> The sandbox runs untrusted code inside a\n"
            "> WebAssembly instance. Each request gets a fresh\n"
            "> interpreter, strict limits on memory and time, and\n"
            "> no access to the host's files, network, or\n"
            "> environment. A static audit explains refusals\n"
            "> early.\n"
            "def hello():\n"
            '    return "hi"\n'
        ),
    ),
    Case(
        id="caesar-vigenere-cipher",
        category="text",
        code=_src(r"""
            import string


            def caesar(text, shift):
                lower = string.ascii_lowercase
                upper = string.ascii_uppercase
                table = str.maketrans(
                    lower + upper,
                    lower[shift:] + lower[:shift] + upper[shift:] + upper[:shift],
                )
                return text.translate(table)


            def vigenere(text, key, decrypt=False):
                out = []
                key_shifts = [ord(k) - ord("a") for k in key.lower()]
                i = 0
                for ch in text:
                    if ch.isalpha():
                        base = ord("A") if ch.isupper() else ord("a")
                        shift = key_shifts[i % len(key_shifts)]
                        if decrypt:
                            shift = -shift
                        out.append(chr((ord(ch) - base + shift) % 26 + base))
                        i += 1
                    else:
                        out.append(ch)
                return "".join(out)


            message = "Attack at Dawn, hold the Bridge!"
            secret = caesar(message, 3)
            print("caesar +3:", secret)
            print("caesar -3:", caesar(secret, -3 % 26))
            v = vigenere(message, "lemon")
            print("vigenere:", v)
            print("decoded: ", vigenere(v, "lemon", decrypt=True))
            print("rot13 twice is identity:", caesar(caesar(message, 13), 13) == message)
        """),
        stdout=(
            "caesar +3: Dwwdfn dw Gdzq, krog wkh Eulgjh!\n"
            "caesar -3: Attack at Dawn, hold the Bridge!\n"
            "vigenere: Lxfopv ef Rnhr, tcyo xts Ocmpur!\n"
            "decoded:  Attack at Dawn, hold the Bridge!\n"
            "rot13 twice is identity: True\n"
        ),
    ),
    Case(
        id="palindrome-checker",
        category="text",
        code=_src(r"""
            import re


            def normalise(s):
                return re.sub(r"[^a-z0-9]", "", s.lower())


            def is_palindrome(s):
                cleaned = normalise(s)
                return cleaned == cleaned[::-1]


            def longest_palindromic_substring(s):
                best = ""
                for centre in range(len(s)):
                    for lo, hi in ((centre, centre), (centre, centre + 1)):
                        while lo >= 0 and hi < len(s) and s[lo] == s[hi]:
                            lo -= 1
                            hi += 1
                        if hi - lo - 1 > len(best):
                            best = s[lo + 1:hi]
                return best


            phrases = [
                "A man, a plan, a canal: Panama",
                "No lemon, no melon",
                "Hello, world",
                "Was it a car or a cat I saw?",
                "",
            ]
            for phrase in phrases:
                verdict = "yes" if is_palindrome(phrase) else "no"
                print(f"{phrase!r:36} palindrome? {verdict}")

            for word in ["babad", "forgeeksskeegfor", "abacdfgdcaba"]:
                print(word, "->", longest_palindromic_substring(word))
        """),
        stdout=(
            "'A man, a plan, a canal: Panama'     palindrome? yes\n"
            "'No lemon, no melon'                 palindrome? yes\n"
            "'Hello, world'                       palindrome? no\n"
            "'Was it a car or a cat I saw?'       palindrome? yes\n"
            "''                                   palindrome? yes\n"
            "babad -> bab\n"
            "forgeeksskeegfor -> geeksskeeg\n"
            "abacdfgdcaba -> aba\n"
        ),
    ),
    Case(
        id="difflib-unified-diff",
        category="text",
        code=_src(r'''
            import difflib

            before = """server:
              host: 0.0.0.0
              port: 8080
              workers: 4
            logging:
              level: info
            """.splitlines(keepends=True)

            after = """server:
              host: 0.0.0.0
              port: 9090
              workers: 8
              timeout: 30
            logging:
              level: info
            """.splitlines(keepends=True)

            diff = difflib.unified_diff(before, after, fromfile="config.old.yml",
                                        tofile="config.yml")
            print("".join(diff), end="")

            ratio = difflib.SequenceMatcher(None, "".join(before), "".join(after)).ratio()
            print(f"similarity: {ratio:.3f}")
        '''),
        stdout=(
            "--- config.old.yml\n"
            "+++ config.yml\n"
            "@@ -1,6 +1,7 @@\n"
            " server:\n"
            "   host: 0.0.0.0\n"
            "-  port: 8080\n"
            "-  workers: 4\n"
            "+  port: 9090\n"
            "+  workers: 8\n"
            "+  timeout: 30\n"
            " logging:\n"
            "   level: info\n"
            "similarity: 0.875\n"
        ),
    ),
    Case(
        id="spelling-suggestions",
        category="text",
        code=_src(r"""
            import difflib

            VOCABULARY = [
                "apple", "application", "apply", "banana", "bandana", "orange", "organise",
                "grape", "grapefruit", "pineapple", "peach", "pear", "plum",
            ]

            queries = ["aple", "banan", "grap", "pinapple", "oranje", "kiwi", "pech"]
            for query in queries:
                matches = difflib.get_close_matches(query, VOCABULARY, n=3, cutoff=0.6)
                if matches:
                    print(f"{query!r}: did you mean {', '.join(matches)}?")
                else:
                    print(f"{query!r}: no suggestions")
        """),
        stdout=(
            "'aple': did you mean apple, grape, apply?\n"
            "'banan': did you mean banana, bandana?\n"
            "'grap': did you mean grape?\n"
            "'pinapple': did you mean pineapple, apple, apply?\n"
            "'oranje': did you mean orange, organise?\n"
            "'kiwi': no suggestions\n"
            "'pech': did you mean peach?\n"
        ),
    ),
    Case(
        id="unicode-strip-accents",
        category="text",
        code=_src(r"""
            import unicodedata

            names = ["Jos\u00e9 Mar\u00eda", "Fran\u00e7ois", "S\u00f8ren Kierkegaard",
                     "Zo\u00eb", "Bj\u00f6rk Gu\u00f0mundsd\u00f3ttir", "na\u00efve caf\u00e9"]


            def strip_accents(text):
                decomposed = unicodedata.normalize("NFKD", text)
                return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


            for name in names:
                plain = strip_accents(name)
                print(f"{ascii(name):40} -> {plain.encode('ascii', 'replace').decode()}")

            for ch in "\u00e9\u00f8\u2603\u00bd":
                print(f"U+{ord(ch):04X} {unicodedata.name(ch)} category={unicodedata.category(ch)}")
            print("NFC == NFD?", unicodedata.normalize("NFC", "e\u0301") == "\u00e9")
        """),
        stdout=(
            "'Jos\\xe9 Mar\\xeda'                       -> Jose Maria\n"
            "'Fran\\xe7ois'                            -> Francois\n"
            "'S\\xf8ren Kierkegaard'                   -> S?ren Kierkegaard\n"
            "'Zo\\xeb'                                 -> Zoe\n"
            "'Bj\\xf6rk Gu\\xf0mundsd\\xf3ttir'          -> Bjork Gu?mundsdottir\n"
            "'na\\xefve caf\\xe9'                       -> naive cafe\n"
            "U+00E9 LATIN SMALL LETTER E WITH ACUTE category=Ll\n"
            "U+00F8 LATIN SMALL LETTER O WITH STROKE category=Ll\n"
            "U+2603 SNOWMAN category=So\n"
            "U+00BD VULGAR FRACTION ONE HALF category=No\n"
            "NFC == NFD? True\n"
        ),
    ),
    Case(
        id="string-template-letters",
        category="text",
        code=_src(r"""
            from string import Template

            letter = Template(
                "Dear $name,\n"
                "Your order #$order_id of $count item(s) totalling $$$total has shipped.\n"
                "Expected delivery: ${day}.\n"
            )

            orders = [
                {"name": "Priya", "order_id": 1042, "count": 3, "total": "59.97", "day": "Tuesday"},
                {"name": "Tom", "order_id": 1043, "count": 1, "total": "12.00", "day": "Friday"},
            ]

            for order in orders:
                print(letter.substitute(order))

            partial = Template("Hello $name, your code is $code").safe_substitute(name="Lee")
            print(partial)
            try:
                Template("Missing $thing").substitute({})
            except KeyError as exc:
                print("missing placeholder:", exc)
        """),
        stdout=(
            "Dear Priya,\n"
            "Your order #1042 of 3 item(s) totalling $59.97 has shipped.\n"
            "Expected delivery: Tuesday.\n"
            "\n"
            "Dear Tom,\n"
            "Your order #1043 of 1 item(s) totalling $12.00 has shipped.\n"
            "Expected delivery: Friday.\n"
            "\n"
            "Hello Lee, your code is $code\n"
            "missing placeholder: 'thing'\n"
        ),
    ),
    Case(
        id="anagram-groups",
        category="text",
        code=_src(r"""
            from collections import defaultdict

            words = ["listen", "silent", "enlist", "google", "gooegl", "cat", "act", "tac",
                     "inlets", "banana", "tinsel", "dog"]

            groups = defaultdict(list)
            for word in words:
                groups["".join(sorted(word))].append(word)

            for key, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
                if len(members) > 1:
                    print(f"{key}: {', '.join(sorted(members))}")

            singles = sorted(m[0] for m in groups.values() if len(m) == 1)
            print("no anagram partner:", singles)
        """),
        stdout=(
            "eilnst: enlist, inlets, listen, silent, tinsel\n"
            "act: act, cat, tac\n"
            "eggloo: gooegl, google\n"
            "no anagram partner: ['banana', 'dog']\n"
        ),
    ),
    Case(
        id="slugify-titles",
        category="text",
        code=_src(r"""
            import re
            import unicodedata


            def slugify(title, max_length=40):
                text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
                text = re.sub(r"[^\w\s-]", "", text).strip().lower()
                text = re.sub(r"[-\s_]+", "-", text)
                if len(text) > max_length:
                    text = text[:max_length].rsplit("-", 1)[0]
                return text


            titles = [
                "Hello, World!",
                "  10 Tips for Writing Clean Python Code (2024 Edition)  ",
                "Caf\u00e9 au lait & cr\u00e8me br\u00fbl\u00e9e",
                "What's new in Python 3.12?",
                "snake_case vs kebab-case",
                "A really long title that definitely needs to be truncated at a word boundary",
            ]
            seen = {}
            for title in titles:
                slug = slugify(title)
                if slug in seen:
                    seen[slug] += 1
                    slug = f"{slug}-{seen[slug]}"
                else:
                    seen[slug] = 1
                print(slug)
            print(" ".join(w.capitalize() for w in "the quick brown fox".split()))
            print("the quick brown fox".title(), "|", "HELLO".swapcase(), "|", "mIxEd".casefold())
        """),
        stdout=(
            "hello-world\n"
            "10-tips-for-writing-clean-python-code\n"
            "cafe-au-lait-creme-brulee\n"
            "whats-new-in-python-312\n"
            "snake-case-vs-kebab-case\n"
            "a-really-long-title-that-definitely\n"
            "The Quick Brown Fox\n"
            "The Quick Brown Fox | hello | mixed\n"
        ),
    ),
    Case(
        id="run-length-encoding",
        category="text",
        code=_src(r"""
            from itertools import groupby


            def rle_encode(text):
                return "".join(f"{len(list(run))}{ch}" for ch, run in groupby(text))


            def rle_decode(encoded):
                out = []
                count = ""
                for ch in encoded:
                    if ch.isdigit():
                        count += ch
                    else:
                        out.append(ch * int(count))
                        count = ""
                return "".join(out)


            samples = ["WWWWWWWWWWWWBWWWWWWWWWWWWBBBWWWWWWWWWWWWWWWWWWWWWWWWBWWWWWWWWWWWWWW",
                       "aabcccccaaa", "abc", "zzzzzzzzzzzz"]
            for s in samples:
                encoded = rle_encode(s)
                assert rle_decode(encoded) == s
                print(f"{len(s):>3} -> {len(encoded):>3}  {encoded}")
        """),
        stdout=(
            " 67 ->  18  12W1B12W3B24W1B14W\n"
            " 11 ->   8  2a1b5c3a\n"
            "  3 ->   6  1a1b1c\n"
            " 12 ->   3  12z\n"
        ),
    ),
    Case(
        id="html-escape-and-strip",
        category="text",
        code=_src(r"""
            import html
            import re

            comments = [
                'Great post! <script>alert("x")</script>',
                "5 < 7 && 7 > 5",
                "Tom & Jerry's \"adventure\"",
            ]

            for c in comments:
                print(html.escape(c))

            encoded = ("&lt;p&gt;Caf&eacute; &amp; cr&egrave;me &#8212; "
                       "&quot;best&quot; in town&lt;/p&gt;")
            decoded = html.unescape(encoded)
            print(ascii(decoded))
            print(ascii(re.sub(r"<[^>]+>", "", decoded)))

            table_row = "".join(f"<td>{html.escape(cell)}</td>" for cell in ["A&B", "<1>", "ok"])
            print(f"<tr>{table_row}</tr>")
        """),
        stdout=(
            "Great post! &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\n"
            "5 &lt; 7 &amp;&amp; 7 &gt; 5\n"
            "Tom &amp; Jerry&#x27;s &quot;adventure&quot;\n"
            "'<p>Caf\\xe9 & cr\\xe8me \\u2014 \"best\" in town</p>'\n"
            "'Caf\\xe9 & cr\\xe8me \\u2014 \"best\" in town'\n"
            "<tr><td>A&amp;B</td><td>&lt;1&gt;</td><td>ok</td></tr>\n"
        ),
    ),
    Case(
        id="days-between-dates",
        category="dates",
        code=_src(r"""
            from datetime import date

            today = date(2024, 3, 15)
            events = {
                "Project kickoff": date(2024, 1, 8),
                "Beta release": date(2024, 4, 30),
                "Conference talk": date(2024, 9, 12),
                "Year end": date(2024, 12, 31),
            }

            for name, when in sorted(events.items(), key=lambda kv: kv[1]):
                delta = (when - today).days
                if delta < 0:
                    status = f"{-delta} days ago"
                elif delta == 0:
                    status = "today"
                else:
                    status = f"in {delta} days ({delta // 7} weeks, {delta % 7} days)"
                print(f"{name:<16} {when:%a %d %b %Y}  {status}")
        """),
        stdout=(
            "Project kickoff  Mon 08 Jan 2024  67 days ago\n"
            "Beta release     Tue 30 Apr 2024  in 46 days (6 weeks, 4 days)\n"
            "Conference talk  Thu 12 Sep 2024  in 181 days (25 weeks, 6 days)\n"
            "Year end         Tue 31 Dec 2024  in 291 days (41 weeks, 4 days)\n"
        ),
    ),
    Case(
        id="add-business-days",
        category="dates",
        code=_src(r"""
            from datetime import date, timedelta

            HOLIDAYS = {date(2024, 12, 25), date(2024, 12, 26), date(2025, 1, 1)}


            def add_business_days(start, days):
                current = start
                added = 0
                while added < days:
                    current += timedelta(days=1)
                    if current.weekday() < 5 and current not in HOLIDAYS:
                        added += 1
                return current


            def business_days_between(start, end):
                count = 0
                current = start
                while current < end:
                    current += timedelta(days=1)
                    if current.weekday() < 5 and current not in HOLIDAYS:
                        count += 1
                return count


            invoice_date = date(2024, 12, 19)
            for terms in (5, 10, 30):
                due = add_business_days(invoice_date, terms)
                print(f"net {terms:>2} business days from {invoice_date}: {due} ({due:%A})")
            print("business days in January 2025:",
                  business_days_between(date(2024, 12, 31), date(2025, 1, 31)))
        """),
        stdout=(
            "net  5 business days from 2024-12-19: 2024-12-30 (Monday)\n"
            "net 10 business days from 2024-12-19: 2025-01-07 (Tuesday)\n"
            "net 30 business days from 2024-12-19: 2025-02-04 (Tuesday)\n"
            "business days in January 2025: 22\n"
        ),
    ),
    Case(
        id="calendar-month-view",
        category="dates",
        code=_src(r"""
            import calendar

            cal = calendar.TextCalendar(firstweekday=calendar.MONDAY)
            print(cal.formatmonth(2024, 2))

            first_weekday, days_in_month = calendar.monthrange(2024, 2)
            day_name = calendar.day_name[first_weekday]
            print(f"Feb 2024 starts on {day_name} and has {days_in_month} days")
            print("leap years 2000-2030:", [y for y in range(2000, 2031) if calendar.isleap(y)])
            print("leap days between 1900 and 2024:", calendar.leapdays(1900, 2024))

            weeks = calendar.Calendar(firstweekday=6).monthdayscalendar(2024, 7)
            fridays = [week[5] for week in weeks if week[5]]
            print("Fridays in July 2024:", fridays)
        """),
        stdout=(
            "   February 2024\n"
            "Mo Tu We Th Fr Sa Su\n"
            "          1  2  3  4\n"
            " 5  6  7  8  9 10 11\n"
            "12 13 14 15 16 17 18\n"
            "19 20 21 22 23 24 25\n"
            "26 27 28 29\n"
            "\n"
            "Feb 2024 starts on Thursday and has 29 days\n"
            "leap years 2000-2030: [2000, 2004, 2008, 2012, 2016, 2020, 2024, 2028]\n"
            "leap days between 1900 and 2024: 30\n"
            "Fridays in July 2024: [5, 12, 19, 26]\n"
        ),
    ),
    Case(
        id="age-on-date",
        category="dates",
        code=_src(r"""
            from datetime import date

            people = [
                ("Ingrid", date(1990, 2, 28)),
                ("Kwame", date(2000, 2, 29)),
                ("Lucia", date(1985, 11, 3)),
                ("Mateo", date(2010, 3, 16)),
            ]
            as_of = date(2024, 3, 15)


            def age(born, on):
                years = on.year - born.year
                if (on.month, on.day) < (born.month, born.day):
                    years -= 1
                return years


            def next_birthday(born, on):
                for year in (on.year, on.year + 1):
                    try:
                        candidate = born.replace(year=year)
                    except ValueError:  # 29 February in a common year
                        candidate = date(year, 3, 1)
                    if candidate >= on:
                        return candidate
                raise AssertionError("unreachable")


            for name, born in people:
                upcoming = next_birthday(born, as_of)
                print(f"{name:<7} born {born.isoformat()}  age {age(born, as_of):>2}  "
                      f"next birthday {upcoming:%d %b %Y} (in {(upcoming - as_of).days} days)")
        """),
        stdout=(
            "Ingrid  born 1990-02-28  age 34  next birthday 28 Feb 2025 (in 350 days)\n"
            "Kwame   born 2000-02-29  age 24  next birthday 01 Mar 2025 (in 351 days)\n"
            "Lucia   born 1985-11-03  age 38  next birthday 03 Nov 2024 (in 233 days)\n"
            "Mateo   born 2010-03-16  age 13  next birthday 16 Mar 2024 (in 1 days)\n"
        ),
    ),
    Case(
        id="iso-week-numbers",
        category="dates",
        code=_src(r"""
            from datetime import date, timedelta

            dates = [date(2024, 1, 1), date(2024, 12, 30), date(2021, 1, 3), date(2026, 6, 15)]
            for d in dates:
                iso = d.isocalendar()
                print(f"{d}  ISO year {iso.year} week {iso.week:02d} weekday {iso.weekday}  "
                      f"day-of-year {d.timetuple().tm_yday}")

            monday = date.fromisocalendar(2024, 33, 1)
            sunday = monday + timedelta(days=6)
            print(f"week 33 of 2024 runs {monday:%d %b} - {sunday:%d %b}")
            print("weeks in 2020:", date(2020, 12, 28).isocalendar().week)
            print("weeks in 2024:", date(2024, 12, 28).isocalendar().week)
        """),
        stdout=(
            "2024-01-01  ISO year 2024 week 01 weekday 1  day-of-year 1\n"
            "2024-12-30  ISO year 2025 week 01 weekday 1  day-of-year 365\n"
            "2021-01-03  ISO year 2020 week 53 weekday 7  day-of-year 3\n"
            "2026-06-15  ISO year 2026 week 25 weekday 1  day-of-year 166\n"
            "week 33 of 2024 runs 12 Aug - 18 Aug\n"
            "weeks in 2020: 53\n"
            "weeks in 2024: 52\n"
        ),
    ),
    Case(
        id="humanize-durations",
        category="dates",
        code=_src(r"""
            from datetime import timedelta


            def humanize(delta):
                seconds = int(delta.total_seconds())
                sign = "-" if seconds < 0 else ""
                seconds = abs(seconds)
                parts = []
                for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
                    amount, seconds = divmod(seconds, size)
                    if amount:
                        parts.append(f"{amount}{unit}")
                return sign + (" ".join(parts) or "0s")


            samples = [
                timedelta(seconds=42),
                timedelta(minutes=90),
                timedelta(hours=26, minutes=3, seconds=7),
                timedelta(days=9, hours=4),
                timedelta(milliseconds=1500),
                -timedelta(minutes=5),
                timedelta(0),
            ]
            for delta in samples:
                print(f"{str(delta):>20}  {humanize(delta)}")

            total = sum(samples, timedelta())
            print("total:", total, "=", humanize(total))
            print("hours:", round(total / timedelta(hours=1), 3))
        """),
        stdout=(
            "             0:00:42  42s\n"
            "             1:30:00  1h 30m\n"
            "      1 day, 2:03:07  1d 2h 3m 7s\n"
            "     9 days, 4:00:00  9d 4h\n"
            "      0:00:01.500000  1s\n"
            "    -1 day, 23:55:00  -5m\n"
            "             0:00:00  0s\n"
            "total: 10 days, 7:28:50.500000 = 10d 7h 28m 50s\n"
            "hours: 247.481\n"
        ),
    ),
    Case(
        id="log-timestamp-durations",
        category="dates",
        code=_src(r'''
            from datetime import datetime

            LOG = """\
            2024-05-02 08:59:58 job=ingest state=start
            2024-05-02 09:03:12 job=ingest state=done
            2024-05-02 09:00:05 job=report state=start
            2024-05-02 09:47:40 job=report state=done
            2024-05-02 23:55:00 job=backup state=start
            2024-05-03 00:41:30 job=backup state=done
            """

            starts = {}
            for line in LOG.splitlines():
                day, clock, job, state = line.split()
                stamp = datetime.strptime(f"{day} {clock}", "%Y-%m-%d %H:%M:%S")
                name = job.split("=")[1]
                if state == "state=start":
                    starts[name] = stamp
                else:
                    began = starts.pop(name)
                    minutes, seconds = divmod(int((stamp - began).total_seconds()), 60)
                    print(f"{name:<7} {began:%H:%M}-{stamp:%H:%M} took {minutes}m{seconds:02d}s")
            print("still running:", sorted(starts) or "none")
        '''),
        stdout=(
            "ingest  08:59-09:03 took 3m14s\n"
            "report  09:00-09:47 took 47m35s\n"
            "backup  23:55-00:41 took 46m30s\n"
            "still running: none\n"
        ),
    ),
    Case(
        id="fixed-offset-timezones",
        category="dates",
        code=_src(r"""
            from datetime import datetime, timedelta, timezone

            UTC = timezone.utc
            offices = {
                "San Francisco": timezone(timedelta(hours=-7), "PDT"),
                "New York": timezone(timedelta(hours=-4), "EDT"),
                "London": timezone(timedelta(hours=1), "BST"),
                "Mumbai": timezone(timedelta(hours=5, minutes=30), "IST"),
                "Tokyo": timezone(timedelta(hours=9), "JST"),
            }

            meeting = datetime(2024, 6, 20, 15, 0, tzinfo=UTC)
            print("Meeting at", meeting.isoformat())
            for city, tz in offices.items():
                local = meeting.astimezone(tz)
                flag = "" if 8 <= local.hour < 18 else "  (outside office hours)"
                print(f"  {city:<14} {local:%Y-%m-%d %H:%M} {local.tzname()} {local:%z}{flag}")

            stamp = datetime.fromisoformat("2024-06-20T09:30:00+05:30")
            print("parsed:", stamp.astimezone(UTC).isoformat())
            print("offset hours:", stamp.utcoffset() / timedelta(hours=1))
        """),
        stdout=(
            "Meeting at 2024-06-20T15:00:00+00:00\n"
            "  San Francisco  2024-06-20 08:00 PDT -0700\n"
            "  New York       2024-06-20 11:00 EDT -0400\n"
            "  London         2024-06-20 16:00 BST +0100\n"
            "  Mumbai         2024-06-20 20:30 IST +0530  (outside office hours)\n"
            "  Tokyo          2024-06-21 00:00 JST +0900  (outside office hours)\n"
            "parsed: 2024-06-20T04:00:00+00:00\n"
            "offset hours: 5.5\n"
        ),
    ),
    Case(
        id="last-weekday-of-month",
        category="dates",
        code=_src(r"""
            import calendar
            from datetime import date, timedelta


            def last_weekday(year, month, weekday):
                last = date(year, month, calendar.monthrange(year, month)[1])
                return last - timedelta(days=(last.weekday() - weekday) % 7)


            def nth_weekday(year, month, weekday, n):
                first = date(year, month, 1)
                offset = (weekday - first.weekday()) % 7
                return first + timedelta(days=offset + 7 * (n - 1))


            print("Payday (last Friday) in 2024:")
            for month in range(1, 13):
                payday = last_weekday(2024, month, calendar.FRIDAY)
                print(f"  {calendar.month_abbr[month]} {payday.day:>2}", end="")
                if month % 4 == 0:
                    print()

            print("US Thanksgiving:", [nth_weekday(y, 11, calendar.THURSDAY, 4).isoformat()
                                      for y in (2023, 2024, 2025)])
            print("Memorial Day 2024:", last_weekday(2024, 5, calendar.MONDAY))
        """),
        stdout=(
            "Payday (last Friday) in 2024:\n"
            "  Jan 26  Feb 23  Mar 29  Apr 26\n"
            "  May 31  Jun 28  Jul 26  Aug 30\n"
            "  Sep 27  Oct 25  Nov 29  Dec 27\n"
            "US Thanksgiving: ['2023-11-23', '2024-11-28', '2025-11-27']\n"
            "Memorial Day 2024: 2024-05-27\n"
        ),
    ),
    Case(
        id="leap-year-month-lengths",
        category="dates",
        code=_src(r"""
            import calendar

            for year in (1900, 2000, 2023, 2024, 2100):
                kind = "leap" if calendar.isleap(year) else "common"
                days = sum(calendar.monthrange(year, m)[1] for m in range(1, 13))
                print(f"{year}: {kind:<6} {days} days, Feb has {calendar.monthrange(year, 2)[1]}")

            print()
            print("Month lengths in 2024:")
            for month in range(1, 13):
                name = calendar.month_name[month]
                length = calendar.monthrange(2024, month)[1]
                print(f"  {name:<9} {'*' * (length - 27)} {length}")
        """),
        stdout=(
            "1900: common 365 days, Feb has 28\n"
            "2000: leap   366 days, Feb has 29\n"
            "2023: common 365 days, Feb has 28\n"
            "2024: leap   366 days, Feb has 29\n"
            "2100: common 365 days, Feb has 28\n"
            "\n"
            "Month lengths in 2024:\n"
            "  January   **** 31\n"
            "  February  ** 29\n"
            "  March     **** 31\n"
            "  April     *** 30\n"
            "  May       **** 31\n"
            "  June      *** 30\n"
            "  July      **** 31\n"
            "  August    **** 31\n"
            "  September *** 30\n"
            "  October   **** 31\n"
            "  November  *** 30\n"
            "  December  **** 31\n"
        ),
    ),
    Case(
        id="recurring-meetings",
        category="dates",
        code=_src(r"""
            from datetime import date, timedelta


            def every_other(weekday, start, count):
                first = start + timedelta(days=(weekday - start.weekday()) % 7)
                return [first + timedelta(weeks=2 * i) for i in range(count)]


            def monthly_on(day, start, count):
                out = []
                year, month = start.year, start.month
                while len(out) < count:
                    try:
                        candidate = date(year, month, day)
                    except ValueError:
                        candidate = None
                    if candidate and candidate >= start:
                        out.append(candidate)
                    month += 1
                    if month > 12:
                        year, month = year + 1, 1
                return out


            start = date(2024, 1, 10)
            print("Sprint reviews (every other Tuesday):")
            for d in every_other(1, start, 6):
                print("  ", d.strftime("%a %Y-%m-%d"))
            print("Billing runs on the 31st:")
            for d in monthly_on(31, start, 5):
                print("  ", d.isoformat())
        """),
        stdout=(
            "Sprint reviews (every other Tuesday):\n"
            "   Tue 2024-01-16\n"
            "   Tue 2024-01-30\n"
            "   Tue 2024-02-13\n"
            "   Tue 2024-02-27\n"
            "   Tue 2024-03-12\n"
            "   Tue 2024-03-26\n"
            "Billing runs on the 31st:\n"
            "   2024-01-31\n"
            "   2024-03-31\n"
            "   2024-05-31\n"
            "   2024-07-31\n"
            "   2024-08-31\n"
        ),
    ),
    Case(
        id="epoch-struct-time",
        category="dates",
        code=_src(r"""
            import time
            from datetime import datetime, timezone

            stamps = [0, 86_400 * 365, 1_000_000_000, 1_700_000_000, 2_147_483_647]
            for stamp in stamps:
                t = time.gmtime(stamp)
                print(f"{stamp:>13,}  {time.strftime('%Y-%m-%d %H:%M:%S', t)}  weekday={t.tm_wday}")

            dt = datetime(2024, 2, 29, 12, 30, tzinfo=timezone.utc)
            print("epoch seconds:", int(dt.timestamp()))
            print("back again:", datetime.fromtimestamp(int(dt.timestamp()), tz=timezone.utc))
            print("struct fields:", tuple(time.gmtime(86_400))[:6])
        """),
        stdout=(
            "            0  1970-01-01 00:00:00  weekday=3\n"
            "   31,536,000  1971-01-01 00:00:00  weekday=4\n"
            "1,000,000,000  2001-09-09 01:46:40  weekday=6\n"
            "1,700,000,000  2023-11-14 22:13:20  weekday=1\n"
            "2,147,483,647  2038-01-19 03:14:07  weekday=1\n"
            "epoch seconds: 1709209800\n"
            "back again: 2024-02-29 12:30:00+00:00\n"
            "struct fields: (1970, 1, 2, 0, 0, 0)\n"
        ),
    ),
    Case(
        id="inventory-default-factory",
        category="dataclasses",
        code=_src(r"""
            from dataclasses import dataclass, field


            @dataclass
            class Item:
                sku: str
                name: str
                price: float
                quantity: int = 0

                @property
                def value(self) -> float:
                    return self.price * self.quantity


            @dataclass
            class Warehouse:
                name: str
                items: list[Item] = field(default_factory=list)
                tags: set[str] = field(default_factory=set)

                def add(self, item: Item) -> None:
                    self.items.append(item)

                def total_value(self) -> float:
                    return sum(i.value for i in self.items)

                def low_stock(self, threshold: int = 5) -> list[str]:
                    return [i.sku for i in self.items if i.quantity < threshold]


            east = Warehouse("East")
            west = Warehouse("West", tags={"cold-storage"})
            east.add(Item("K-1", "Keyboard", 49.99, 12))
            east.add(Item("M-2", "Mouse", 19.50, 3))
            west.add(Item("C-9", "Cable", 4.25, 200))

            for wh in (east, west):
                print(f"{wh.name}: {len(wh.items)} items, value ${wh.total_value():,.2f}, "
                      f"low stock {wh.low_stock()}, tags {sorted(wh.tags)}")
            print(east.items[1])
            print("separate lists:", east.items is not west.items)
        """),
        stdout=(
            "East: 2 items, value $658.38, low stock ['M-2'], tags []\n"
            "West: 1 items, value $850.00, low stock [], tags ['cold-storage']\n"
            "Item(sku='M-2', name='Mouse', price=19.5, quantity=3)\n"
            "separate lists: True\n"
        ),
    ),
    Case(
        id="order-post-init",
        category="dataclasses",
        code=_src(r"""
            from dataclasses import dataclass, field
            from decimal import ROUND_HALF_UP, Decimal

            TAX_RATE = Decimal("0.0825")


            @dataclass
            class LineItem:
                description: str
                unit_price: Decimal
                quantity: int = 1

                @property
                def subtotal(self) -> Decimal:
                    return self.unit_price * self.quantity


            @dataclass
            class Order:
                order_id: int
                lines: list[LineItem]
                discount_pct: int = 0
                subtotal: Decimal = field(init=False)
                tax: Decimal = field(init=False)
                total: Decimal = field(init=False)

                def __post_init__(self):
                    if not 0 <= self.discount_pct <= 50:
                        raise ValueError(f"discount {self.discount_pct}% out of range")
                    gross = sum((line.subtotal for line in self.lines), Decimal("0"))
                    self.subtotal = gross * (100 - self.discount_pct) / 100
                    cent = Decimal("0.01")
                    self.tax = (self.subtotal * TAX_RATE).quantize(cent, ROUND_HALF_UP)
                    self.total = (self.subtotal + self.tax).quantize(cent, ROUND_HALF_UP)


            order = Order(
                5001,
                [LineItem("Notebook", Decimal("3.49"), 4), LineItem("Pen pack", Decimal("7.99"))],
                discount_pct=10,
            )
            print(f"Order {order.order_id}")
            for line in order.lines:
                print(f"  {line.description:<10} {line.quantity} x {line.unit_price}"
                      f" = {line.subtotal}")
            print(f"  subtotal {order.subtotal:.2f}  tax {order.tax}  total {order.total}")
            try:
                Order(5002, [], discount_pct=80)
            except ValueError as exc:
                print("rejected:", exc)
        """),
        stdout=(
            "Order 5001\n"
            "  Notebook   4 x 3.49 = 13.96\n"
            "  Pen pack   1 x 7.99 = 7.99\n"
            "  subtotal 19.76  tax 1.63  total 21.39\n"
            "rejected: discount 80% out of range\n"
        ),
    ),
    Case(
        id="frozen-ordered-points",
        category="dataclasses",
        code=_src(r"""
            import math
            from dataclasses import FrozenInstanceError, dataclass


            @dataclass(frozen=True, order=True)
            class Point:
                x: float
                y: float

                def distance_to(self, other: "Point") -> float:
                    return math.hypot(self.x - other.x, self.y - other.y)


            points = [Point(3, 4), Point(-1, 2), Point(3, -2), Point(0, 0), Point(-1, -5)]
            print("sorted:", sorted(points))
            print("max:", max(points))
            origin = Point(0, 0)
            nearest = min((p for p in points if p != origin), key=origin.distance_to)
            print("nearest to origin:", nearest, f"at {origin.distance_to(nearest):.3f}")
            print("unique:", len({Point(1, 1), Point(1, 1), Point(1, 2)}))
            try:
                origin.x = 10
            except FrozenInstanceError as exc:
                print("cannot mutate:", exc)
        """),
        stdout=(
            "sorted: [Point(x=-1, y=-5), Point(x=-1, y=2), Point(x=0, y=0), Point(x=3, y=-2), Point"
            "(x=3, y=4)]\n"
            "max: Point(x=3, y=4)\n"
            "nearest to origin: Point(x=-1, y=2) at 2.236\n"
            "unique: 2\n"
            "cannot mutate: cannot assign to field 'x'\n"
        ),
    ),
    Case(
        id="asdict-astuple-json",
        category="dataclasses",
        code=_src(r"""
            import json
            from dataclasses import asdict, astuple, dataclass, field


            @dataclass
            class Address:
                street: str
                city: str
                postcode: str


            @dataclass
            class Customer:
                customer_id: int
                name: str
                address: Address
                emails: list[str] = field(default_factory=list)
                vip: bool = False


            customer = Customer(
                42,
                "Ravi Patel",
                Address("12 Mill Lane", "Leeds", "LS1 4AB"),
                ["ravi@example.com", "r.patel@work.example"],
            )
            record = asdict(customer)
            print(json.dumps(record, indent=2))
            print(astuple(customer.address))

            restored = Customer(**{**record, "address": Address(**record["address"])})
            print("round trip equal:", restored == customer)
        """),
        stdout=(
            "{\n"
            '  "customer_id": 42,\n'
            '  "name": "Ravi Patel",\n'
            '  "address": {\n'
            '    "street": "12 Mill Lane",\n'
            '    "city": "Leeds",\n'
            '    "postcode": "LS1 4AB"\n'
            "  },\n"
            '  "emails": [\n'
            '    "ravi@example.com",\n'
            '    "r.patel@work.example"\n'
            "  ],\n"
            '  "vip": false\n'
            "}\n"
            "('12 Mill Lane', 'Leeds', 'LS1 4AB')\n"
            "round trip equal: True\n"
        ),
    ),
    Case(
        id="dataclass-replace-versions",
        category="dataclasses",
        code=_src(r"""
            from dataclasses import dataclass, replace


            @dataclass(frozen=True)
            class Release:
                name: str
                major: int
                minor: int
                patch: int = 0
                channel: str = "stable"

                def label(self) -> str:
                    suffix = "" if self.channel == "stable" else f"-{self.channel}"
                    return f"{self.name} {self.major}.{self.minor}.{self.patch}{suffix}"

                def bump(self, part: str) -> "Release":
                    if part == "major":
                        return replace(self, major=self.major + 1, minor=0, patch=0)
                    if part == "minor":
                        return replace(self, minor=self.minor + 1, patch=0)
                    return replace(self, patch=self.patch + 1)


            release = Release("toolkit", 1, 4, 2)
            history = [release]
            for step in ["patch", "minor", "patch", "major"]:
                history.append(history[-1].bump(step))
            for r in history:
                print(r.label())
            beta = replace(history[-1], channel="beta")
            print(beta.label(), "| original untouched:", history[-1].label())
        """),
        stdout=(
            "toolkit 1.4.2\n"
            "toolkit 1.4.3\n"
            "toolkit 1.5.0\n"
            "toolkit 1.5.1\n"
            "toolkit 2.0.0\n"
            "toolkit 2.0.0-beta | original untouched: toolkit 2.0.0\n"
        ),
    ),
    Case(
        id="slots-kw-only",
        category="dataclasses",
        code=_src(r"""
            from dataclasses import KW_ONLY, dataclass


            @dataclass(slots=True)
            class Reading:
                sensor: str
                value: float
                _: KW_ONLY
                unit: str = "C"
                calibrated: bool = False


            @dataclass(slots=True, kw_only=True)
            class Job:
                name: str
                priority: int = 5
                retries: int = 3


            r = Reading("t-101", 21.4, unit="F")
            print(r)
            try:
                r.colour = "red"
            except AttributeError:
                print("slots prevent new attributes")
            try:
                Reading("t-102", 19.0, "K")
            except TypeError as exc:
                print("positional unit rejected:", "positional" in str(exc))

            jobs = [
                Job(name="backup", priority=1),
                Job(name="report"),
                Job(name="cleanup", retries=0),
            ]
            for job in sorted(jobs, key=lambda j: j.priority):
                print(f"{job.priority} {job.name:<8} retries={job.retries}")
        """),
        stdout=(
            "Reading(sensor='t-101', value=21.4, unit='F', calibrated=False)\n"
            "slots prevent new attributes\n"
            "positional unit rejected: True\n"
            "1 backup   retries=3\n"
            "5 report   retries=3\n"
            "5 cleanup  retries=0\n"
        ),
    ),
    Case(
        id="dataclass-fields-table",
        category="dataclasses",
        code=_src(r"""
            from dataclasses import MISSING, dataclass, field, fields


            @dataclass
            class ServerConfig:
                host: str
                port: int = 8080
                workers: int = 4
                allowed_origins: list[str] = field(default_factory=lambda: ["localhost"])
                secret: str = field(default="changeme", repr=False)


            def type_label(tp):
                text = str(tp)
                return text[8:-2] if text.startswith("<class '") else text


            print(f"{'field':<16} {'type':<10} default")
            for f in fields(ServerConfig):
                if f.default is not MISSING:
                    default = repr(f.default)
                elif f.default_factory is not MISSING:
                    default = f"factory -> {f.default_factory()!r}"
                else:
                    default = "(required)"
                print(f"{f.name:<16} {type_label(f.type):<10} {default}")

            config = ServerConfig("0.0.0.0", workers=8)
            print(config)
        """),
        stdout=(
            "field            type       default\n"
            "host             str        (required)\n"
            "port             int        8080\n"
            "workers          int        4\n"
            "allowed_origins  list[str]  factory -> ['localhost']\n"
            "secret           str        'changeme'\n"
            "ServerConfig(host='0.0.0.0', port=8080, workers=8, allowed_origins=['localhost'])\n"
        ),
    ),
    Case(
        id="nested-dataclass-library",
        category="dataclasses",
        code=_src(r"""
            from collections import Counter
            from dataclasses import dataclass, field
            from datetime import date


            @dataclass
            class Book:
                isbn: str
                title: str
                author: str
                genre: str


            @dataclass
            class Loan:
                book: Book
                member: str
                due: date


            @dataclass
            class Library:
                books: dict[str, Book] = field(default_factory=dict)
                loans: list[Loan] = field(default_factory=list)

                def add(self, *books: Book) -> None:
                    for b in books:
                        self.books[b.isbn] = b

                def lend(self, isbn: str, member: str, due: date) -> None:
                    if any(loan.book.isbn == isbn for loan in self.loans):
                        raise LookupError(f"{self.books[isbn].title!r} is already on loan")
                    self.loans.append(Loan(self.books[isbn], member, due))

                def overdue(self, today: date) -> list[Loan]:
                    return [loan for loan in self.loans if loan.due < today]


            lib = Library()
            lib.add(
                Book("978-0", "Dune", "Frank Herbert", "sci-fi"),
                Book("978-1", "Emma", "Jane Austen", "classic"),
                Book("978-2", "Neuromancer", "William Gibson", "sci-fi"),
            )
            lib.lend("978-0", "sam", date(2024, 5, 1))
            lib.lend("978-2", "kim", date(2024, 5, 20))
            try:
                lib.lend("978-0", "lee", date(2024, 6, 1))
            except LookupError as exc:
                print("error:", exc)
            for loan in lib.overdue(date(2024, 5, 10)):
                print(f"overdue: {loan.book.title} ({loan.member}, due {loan.due})")
            print("genres:", dict(Counter(b.genre for b in lib.books.values())))
        """),
        stdout=(
            "error: 'Dune' is already on loan\n"
            "overdue: Dune (sam, due 2024-05-01)\n"
            "genres: {'sci-fi': 2, 'classic': 1}\n"
        ),
    ),
    Case(
        id="initvar-password",
        category="dataclasses",
        code=_src(r"""
            import hashlib
            from dataclasses import InitVar, dataclass, field


            @dataclass
            class User:
                username: str
                password: InitVar[str]
                salt: str = "s4lt"
                password_hash: str = field(init=False, repr=False)

                def __post_init__(self, password: str) -> None:
                    if len(password) < 8:
                        raise ValueError("password must be at least 8 characters")
                    self.password_hash = self._digest(password)

                def _digest(self, password: str) -> str:
                    return hashlib.sha256((self.salt + password).encode()).hexdigest()

                def check(self, attempt: str) -> bool:
                    return self._digest(attempt) == self.password_hash


            user = User("marta", "correct horse battery")
            print(user)
            print("hash prefix:", user.password_hash[:16])
            print("right password:", user.check("correct horse battery"))
            print("wrong password:", user.check("Tr0ub4dor&3"))
            try:
                User("bob", "short")
            except ValueError as exc:
                print("rejected:", exc)
        """),
        stdout=(
            "User(username='marta', salt='s4lt')\n"
            "hash prefix: 6828f834476ad66e\n"
            "right password: True\n"
            "wrong password: False\n"
            "rejected: password must be at least 8 characters\n"
        ),
    ),
    Case(
        id="payroll-enum-dataclass",
        category="dataclasses",
        code=_src(r"""
            from dataclasses import dataclass
            from enum import Enum


            class Role(Enum):
                ENGINEER = "engineer"
                MANAGER = "manager"
                INTERN = "intern"


            BONUS = {Role.ENGINEER: 0.10, Role.MANAGER: 0.15, Role.INTERN: 0.0}


            @dataclass
            class Employee:
                name: str
                role: Role
                salary: int
                years: int

                def bonus(self) -> int:
                    loyalty = 0.01 * min(self.years, 5)
                    return round(self.salary * (BONUS[self.role] + loyalty))


            staff = [
                Employee("Aiko", Role.ENGINEER, 95_000, 3),
                Employee("Ben", Role.MANAGER, 120_000, 7),
                Employee("Chen", Role.INTERN, 30_000, 0),
                Employee("Dara", Role.ENGINEER, 88_000, 1),
            ]
            for e in staff:
                print(f"{e.name:<5} {e.role.value:<9} salary {e.salary:>8,} bonus {e.bonus():>7,}")
            by_role = {}
            for e in staff:
                by_role.setdefault(e.role.name, []).append(e.salary)
            print({role: sum(s) for role, s in sorted(by_role.items())})
        """),
        stdout=(
            "Aiko  engineer  salary   95,000 bonus  12,350\n"
            "Ben   manager   salary  120,000 bonus  24,000\n"
            "Chen  intern    salary   30,000 bonus       0\n"
            "Dara  engineer  salary   88,000 bonus   9,680\n"
            "{'ENGINEER': 183000, 'INTERN': 30000, 'MANAGER': 120000}\n"
        ),
    ),
    Case(
        id="dataclass-eq-dedupe",
        category="dataclasses",
        code=_src(r"""
            from dataclasses import dataclass, field


            @dataclass(frozen=True)
            class Contact:
                email: str
                name: str = field(compare=False)
                source: str = field(default="import", compare=False)

                @classmethod
                def parse(cls, line: str) -> "Contact":
                    name, email = (part.strip() for part in line.split("<"))
                    return cls(email.rstrip(">").lower(), name)


            lines = [
                "Ana Souza <ana@example.com>",
                "Ben Okafor <BEN@example.com>",
                "A. Souza <Ana@Example.com>",
                "Cleo Park <cleo@example.com>",
                "Benjamin Okafor <ben@example.com>",
            ]
            contacts = [Contact.parse(line) for line in lines]
            unique = list(dict.fromkeys(contacts))
            print(f"{len(contacts)} contacts, {len(unique)} unique")
            for c in unique:
                print(f"  {c.email:<18} {c.name}")
            print(Contact("x@y.z", "X") == Contact("x@y.z", "Someone else"))
        """),
        stdout=(
            "5 contacts, 3 unique\n"
            "  ana@example.com    Ana Souza\n"
            "  ben@example.com    Ben Okafor\n"
            "  cleo@example.com   Cleo Park\n"
            "True\n"
        ),
    ),
    Case(
        id="dijkstra-heapq-routes",
        category="algorithms",
        code=_src(r"""
            import heapq

            ROADS = [
                ("Amsterdam", "Utrecht", 45),
                ("Amsterdam", "Haarlem", 20),
                ("Haarlem", "Leiden", 30),
                ("Leiden", "The Hague", 20),
                ("Utrecht", "Rotterdam", 60),
                ("The Hague", "Rotterdam", 25),
                ("Utrecht", "Arnhem", 65),
                ("Rotterdam", "Breda", 50),
                ("Arnhem", "Breda", 110),
            ]

            graph = {}
            for a, b, km in ROADS:
                graph.setdefault(a, []).append((b, km))
                graph.setdefault(b, []).append((a, km))


            def dijkstra(source):
                dist = {source: 0}
                prev = {}
                queue = [(0, source)]
                while queue:
                    d, node = heapq.heappop(queue)
                    if d > dist[node]:
                        continue
                    for neighbour, weight in graph[node]:
                        candidate = d + weight
                        if candidate < dist.get(neighbour, float("inf")):
                            dist[neighbour] = candidate
                            prev[neighbour] = node
                            heapq.heappush(queue, (candidate, neighbour))
                return dist, prev


            def path_to(prev, target):
                path = [target]
                while path[-1] in prev:
                    path.append(prev[path[-1]])
                return path[::-1]


            def main():
                dist, prev = dijkstra("Amsterdam")
                for city in sorted(dist, key=dist.get):
                    print(f"{city:<10} {dist[city]:>4} km  via {' -> '.join(path_to(prev, city))}")


            if __name__ == "__main__":
                main()
        """),
        stdout=(
            "Amsterdam     0 km  via Amsterdam\n"
            "Haarlem      20 km  via Amsterdam -> Haarlem\n"
            "Utrecht      45 km  via Amsterdam -> Utrecht\n"
            "Leiden       50 km  via Amsterdam -> Haarlem -> Leiden\n"
            "The Hague    70 km  via Amsterdam -> Haarlem -> Leiden -> The Hague\n"
            "Rotterdam    95 km  via Amsterdam -> Haarlem -> Leiden -> The Hague -> Rotterdam\n"
            "Arnhem      110 km  via Amsterdam -> Utrecht -> Arnhem\n"
            "Breda       145 km  via Amsterdam -> Haarlem -> Leiden -> The Hague -> Rotterdam -> Br"
            "eda\n"
        ),
    ),
    Case(
        id="bfs-grid-maze",
        category="algorithms",
        code=_src(r'''
            from collections import deque

            MAZE = """\
            S.#.......
            .##.####.#
            ....#..#..
            ##.##.##.#
            ...#...#..
            .#...#...E
            """

            grid = [list(row) for row in MAZE.splitlines()]
            rows, cols = len(grid), len(grid[0])
            start = next((r, c) for r in range(rows) for c in range(cols) if grid[r][c] == "S")
            goal = next((r, c) for r in range(rows) for c in range(cols) if grid[r][c] == "E")


            def bfs(start, goal):
                queue = deque([start])
                came_from = {start: None}
                while queue:
                    cell = queue.popleft()
                    if cell == goal:
                        break
                    r, c = cell
                    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        nxt = (r + dr, c + dc)
                        if (0 <= nxt[0] < rows and 0 <= nxt[1] < cols
                                and grid[nxt[0]][nxt[1]] != "#" and nxt not in came_from):
                            came_from[nxt] = cell
                            queue.append(nxt)
                if goal not in came_from:
                    return None
                path = []
                node = goal
                while node is not None:
                    path.append(node)
                    node = came_from[node]
                return path[::-1]


            path = bfs(start, goal)
            print(f"shortest path: {len(path) - 1} steps")
            for r, c in path[1:-1]:
                grid[r][c] = "*"
            print("\n".join("".join(row) for row in grid))
        '''),
        stdout=(
            "shortest path: 16 steps\n"
            "S.#.......\n"
            "*##.####.#\n"
            "***.#..#..\n"
            "##*##.##.#\n"
            "..*#***#..\n"
            ".#***#***E\n"
        ),
    ),
    Case(
        id="longest-common-subsequence",
        category="algorithms",
        code=_src(r"""
            def lcs(a, b):
                n, m = len(a), len(b)
                table = [[0] * (m + 1) for _ in range(n + 1)]
                for i in range(n - 1, -1, -1):
                    for j in range(m - 1, -1, -1):
                        if a[i] == b[j]:
                            table[i][j] = table[i + 1][j + 1] + 1
                        else:
                            table[i][j] = max(table[i + 1][j], table[i][j + 1])
                out = []
                i = j = 0
                while i < n and j < m:
                    if a[i] == b[j]:
                        out.append(a[i])
                        i += 1
                        j += 1
                    elif table[i + 1][j] >= table[i][j + 1]:
                        i += 1
                    else:
                        j += 1
                return "".join(out)


            pairs = [
                ("ABCBDAB", "BDCABA"),
                ("AGGTAB", "GXTXAYB"),
                ("kitten", "sitting"),
                ("the quick brown fox", "a quick brown dog"),
            ]
            for a, b in pairs:
                common = lcs(a, b)
                print(f"{a!r} vs {b!r}: length {len(common)} -> {common!r}")
        """),
        stdout=(
            "'ABCBDAB' vs 'BDCABA': length 4 -> 'BDAB'\n"
            "'AGGTAB' vs 'GXTXAYB': length 4 -> 'GTAB'\n"
            "'kitten' vs 'sitting': length 4 -> 'ittn'\n"
            "'the quick brown fox' vs 'a quick brown dog': length 14 -> ' quick brown o'\n"
        ),
    ),
    Case(
        id="knapsack-dp",
        category="algorithms",
        code=_src(r"""
            def knapsack(items, capacity):
                best = [[0] * (capacity + 1) for _ in range(len(items) + 1)]
                for i, (_, weight, value) in enumerate(items, start=1):
                    for cap in range(capacity + 1):
                        best[i][cap] = best[i - 1][cap]
                        if weight <= cap:
                            best[i][cap] = max(best[i][cap], best[i - 1][cap - weight] + value)
                chosen = []
                cap = capacity
                for i in range(len(items), 0, -1):
                    if best[i][cap] != best[i - 1][cap]:
                        chosen.append(items[i - 1])
                        cap -= items[i - 1][1]
                return best[-1][capacity], chosen[::-1]


            gear = [
                ("tent", 11, 80), ("stove", 4, 35), ("water filter", 2, 40), ("camera", 3, 25),
                ("book", 1, 5), ("rain jacket", 3, 45), ("extra food", 5, 50),
                ("binoculars", 2, 15),
            ]
            for capacity in (10, 15, 20):
                value, chosen = knapsack(gear, capacity)
                weight = sum(w for _, w, _ in chosen)
                names = ", ".join(name for name, _, _ in chosen)
                print(f"capacity {capacity:>2}: value {value:>3}, weight {weight:>2}: {names}")
        """),
        stdout=(
            "capacity 10: value 135, weight 10: water filter, rain jacket, extra food\n"
            "capacity 15: value 175, weight 15: stove, water filter, book, rain jacket, extra food"
            "\n"
            "capacity 20: value 215, weight 20: stove, water filter, camera, book, rain jacket, ext"
            "ra food, binoculars\n"
        ),
    ),
    Case(
        id="bisect-grade-lookup",
        category="algorithms",
        code=_src(r"""
            import bisect

            BREAKPOINTS = [60, 70, 80, 90]
            GRADES = "FDCBA"


            def grade(score):
                return GRADES[bisect.bisect(BREAKPOINTS, score)]


            scores = [33, 99, 77, 70, 89, 90, 100, 59, 60, 85]
            print([f"{s}:{grade(s)}" for s in scores])

            leaderboard = []
            for name, score in [("ana", 88), ("bo", 72), ("cy", 95), ("di", 72), ("ed", 60)]:
                bisect.insort(leaderboard, (-score, name))
            print([(name, -neg) for neg, name in leaderboard])

            sorted_scores = sorted(scores)
            lo = bisect.bisect_left(sorted_scores, 70)
            hi = bisect.bisect_right(sorted_scores, 89)
            print("scores in [70, 89]:", sorted_scores[lo:hi])
        """),
        stdout=(
            "['33:F', '99:A', '77:C', '70:C', '89:B', '90:A', '100:A', '59:F', '60:D', '85:B']\n"
            "[('cy', 95), ('ana', 88), ('bo', 72), ('di', 72), ('ed', 60)]\n"
            "scores in [70, 89]: [70, 77, 85, 89]\n"
        ),
    ),
    Case(
        id="topological-build-order",
        category="algorithms",
        code=_src(r"""
            from graphlib import CycleError, TopologicalSorter

            dependencies = {
                "app": ["web", "db-client", "config"],
                "web": ["http", "templates"],
                "db-client": ["config", "pool"],
                "templates": ["escape"],
                "http": [],
                "pool": [],
                "config": [],
                "escape": [],
            }

            order = list(TopologicalSorter(dependencies).static_order())
            print("build order:", " -> ".join(order))

            sorter = TopologicalSorter(dependencies)
            sorter.prepare()
            stage = 1
            while sorter.is_active():
                ready = sorted(sorter.get_ready())
                print(f"stage {stage}: {ready}")
                sorter.done(*ready)
                stage += 1

            try:
                TopologicalSorter({"a": ["b"], "b": ["c"], "c": ["a"]}).prepare()
            except CycleError as exc:
                print("cycle detected:", exc.args[1])
        """),
        stdout=(
            "build order: config -> http -> pool -> escape -> db-client -> templates -> web -> app"
            "\n"
            "stage 1: ['config', 'escape', 'http', 'pool']\n"
            "stage 2: ['db-client', 'templates']\n"
            "stage 3: ['web']\n"
            "stage 4: ['app']\n"
            "cycle detected: ['a', 'c', 'b', 'a']\n"
        ),
    ),
    Case(
        id="memoised-staircase-300",
        category="algorithms",
        code=_src(r'''
            from functools import cache, lru_cache


            @cache
            def ways(n):
                """Ways to climb n stairs taking 1, 2 or 3 steps at a time."""
                if n < 0:
                    return 0
                if n == 0:
                    return 1
                return ways(n - 1) + ways(n - 2) + ways(n - 3)


            @lru_cache(maxsize=None)
            def partitions(n, largest):
                if n == 0:
                    return 1
                if n < 0 or largest == 0:
                    return 0
                return partitions(n - largest, largest) + partitions(n, largest - 1)


            for n in (3, 10, 50):
                print(f"ways({n}) = {ways(n)}")
            print(f"ways(300) has {len(str(ways(300)))} digits, ends in {ways(300) % 10**6:06d}")
            print("partitions of 60:", partitions(60, 60))
            print(ways.cache_info().currsize, "cached staircase values")
        '''),
        stdout=(
            "ways(3) = 4\n"
            "ways(10) = 274\n"
            "ways(50) = 10562230626642\n"
            "ways(300) has 80 digits, ends in 990367\n"
            "partitions of 60: 966467\n"
            "303 cached staircase values\n"
        ),
    ),
    Case(
        id="merge-sort-inversions",
        category="algorithms",
        code=_src(r'''
            def merge_sort(items):
                """Return (sorted list, number of inversions)."""
                if len(items) <= 1:
                    return list(items), 0
                mid = len(items) // 2
                left, inv_left = merge_sort(items[:mid])
                right, inv_right = merge_sort(items[mid:])
                merged = []
                inversions = inv_left + inv_right
                i = j = 0
                while i < len(left) and j < len(right):
                    if left[i] <= right[j]:
                        merged.append(left[i])
                        i += 1
                    else:
                        merged.append(right[j])
                        inversions += len(left) - i
                        j += 1
                merged.extend(left[i:])
                merged.extend(right[j:])
                return merged, inversions


            data = [38, 27, 43, 3, 9, 82, 10, 3, 55, 1]
            result, inversions = merge_sort(data)
            print("sorted:", result)
            print("inversions:", inversions)
            print("matches sorted():", result == sorted(data))
            words = ["pear", "Apple", "fig", "banana", "cherry", "date"]
            print(merge_sort([w.lower() for w in words])[0])
            print(sorted(words, key=lambda w: (len(w), w.lower())))
        '''),
        stdout=(
            "sorted: [1, 3, 3, 9, 10, 27, 38, 43, 55, 82]\n"
            "inversions: 27\n"
            "matches sorted(): True\n"
            "['apple', 'banana', 'cherry', 'date', 'fig', 'pear']\n"
            "['fig', 'date', 'pear', 'Apple', 'banana', 'cherry']\n"
        ),
    ),
    Case(
        id="sieve-of-eratosthenes",
        category="algorithms",
        code=_src(r"""
            import math


            def sieve(limit):
                is_prime = bytearray([1]) * (limit + 1)
                is_prime[0:2] = b"\x00\x00"
                for n in range(2, math.isqrt(limit) + 1):
                    if is_prime[n]:
                        is_prime[n * n::n] = bytearray(len(range(n * n, limit + 1, n)))
                return [i for i, flag in enumerate(is_prime) if flag]


            primes = sieve(10_000)
            print("primes below 10,000:", len(primes))
            print("first 15:", primes[:15])
            print("largest:", primes[-1])
            twins = [(p, q) for p, q in zip(primes, primes[1:]) if q - p == 2]
            print("twin prime pairs:", len(twins), "last:", twins[-1])
            gaps = max(q - p for p, q in zip(primes, primes[1:]))
            print("largest gap:", gaps)
        """),
        stdout=(
            "primes below 10,000: 1229\n"
            "first 15: [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47]\n"
            "largest: 9973\n"
            "twin prime pairs: 205 last: (9929, 9931)\n"
            "largest gap: 36\n"
        ),
    ),
    Case(
        id="union-find-components",
        category="algorithms",
        code=_src(r"""
            class DisjointSet:
                def __init__(self, items):
                    self.parent = {item: item for item in items}
                    self.size = dict.fromkeys(items, 1)

                def find(self, item):
                    root = item
                    while self.parent[root] != root:
                        root = self.parent[root]
                    while self.parent[item] != root:
                        self.parent[item], item = root, self.parent[item]
                    return root

                def union(self, a, b):
                    ra, rb = self.find(a), self.find(b)
                    if ra == rb:
                        return False
                    if self.size[ra] < self.size[rb]:
                        ra, rb = rb, ra
                    self.parent[rb] = ra
                    self.size[ra] += self.size[rb]
                    return True


            people = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
            friendships = [
                ("ann", "bob"), ("cat", "dan"), ("bob", "dan"), ("eve", "fay"), ("ann", "cat"),
            ]
            ds = DisjointSet(people)
            for a, b in friendships:
                merged = ds.union(a, b)
                print(f"{a}-{b}: {'merged' if merged else 'already connected'}")

            groups = {}
            for p in people:
                groups.setdefault(ds.find(p), []).append(p)
            for members in sorted(groups.values(), key=lambda g: (-len(g), g)):
                print(sorted(members))
        """),
        stdout=(
            "ann-bob: merged\n"
            "cat-dan: merged\n"
            "bob-dan: merged\n"
            "eve-fay: merged\n"
            "ann-cat: already connected\n"
            "['ann', 'bob', 'cat', 'dan']\n"
            "['eve', 'fay']\n"
            "['gus']\n"
            "['hal']\n"
        ),
    ),
    Case(
        id="levenshtein-distance",
        category="algorithms",
        code=_src(r"""
            def levenshtein(a, b):
                previous = list(range(len(b) + 1))
                for i, ca in enumerate(a, start=1):
                    current = [i]
                    for j, cb in enumerate(b, start=1):
                        current.append(min(
                            previous[j] + 1,
                            current[j - 1] + 1,
                            previous[j - 1] + (ca != cb),
                        ))
                    previous = current
                return previous[-1]


            pairs = [("kitten", "sitting"), ("flaw", "lawn"), ("intention", "execution"),
                     ("", "abc"), ("same", "same"), ("Saturday", "Sunday")]
            for a, b in pairs:
                print(f"{a!r:>12} -> {b!r:<12} distance {levenshtein(a, b)}")

            commands = ["status", "commit", "checkout", "branch", "merge", "rebase"]
            typo = "chekout"
            print("did you mean:", min(commands, key=lambda c: levenshtein(typo, c)))
        """),
        stdout=(
            "    'kitten' -> 'sitting'    distance 3\n"
            "      'flaw' -> 'lawn'       distance 2\n"
            " 'intention' -> 'execution'  distance 5\n"
            "          '' -> 'abc'        distance 3\n"
            "      'same' -> 'same'       distance 0\n"
            "  'Saturday' -> 'Sunday'     distance 3\n"
            "did you mean: checkout\n"
        ),
    ),
    Case(
        id="n-queens-backtracking",
        category="algorithms",
        code=_src(r"""
            def solve_queens(n):
                solutions = []
                cols, diag1, diag2 = set(), set(), set()
                placement = []

                def place(row):
                    if row == n:
                        solutions.append(placement[:])
                        return
                    for col in range(n):
                        if col in cols or row - col in diag1 or row + col in diag2:
                            continue
                        cols.add(col)
                        diag1.add(row - col)
                        diag2.add(row + col)
                        placement.append(col)
                        place(row + 1)
                        placement.pop()
                        cols.remove(col)
                        diag1.remove(row - col)
                        diag2.remove(row + col)

                place(0)
                return solutions


            for n in range(4, 9):
                print(f"{n}-queens: {len(solve_queens(n))} solutions")
            first = solve_queens(6)[0]
            for col in first:
                print(" ".join("Q" if c == col else "." for c in range(6)))
        """),
        stdout=(
            "4-queens: 2 solutions\n"
            "5-queens: 10 solutions\n"
            "6-queens: 4 solutions\n"
            "7-queens: 40 solutions\n"
            "8-queens: 92 solutions\n"
            ". Q . . . .\n"
            ". . . Q . .\n"
            ". . . . . Q\n"
            "Q . . . . .\n"
            ". . Q . . .\n"
            ". . . . Q .\n"
        ),
    ),
    Case(
        id="coin-change-ways",
        category="algorithms",
        code=_src(r"""
            def min_coins(coins, amount):
                best = [0] + [None] * amount
                for value in range(1, amount + 1):
                    options = [
                        best[value - c] for c in coins if c <= value and best[value - c] is not None
                    ]
                    best[value] = min(options) + 1 if options else None
                return best[amount]


            def count_ways(coins, amount):
                ways = [1] + [0] * amount
                for coin in coins:
                    for value in range(coin, amount + 1):
                        ways[value] += ways[value - coin]
                return ways[amount]


            euro = [1, 2, 5, 10, 20, 50, 100, 200]
            for amount in (7, 63, 99, 200):
                print(f"{amount:>3} cents: min coins {min_coins(euro, amount)}, "
                      f"ways {count_ways(euro, amount):,}")
            print("odd system [1, 3, 4] for 6:", min_coins([1, 3, 4], 6))
            print("impossible [5, 10] for 3:", min_coins([5, 10], 3))
        """),
        stdout=(
            "  7 cents: min coins 2, ways 6\n"
            " 63 cents: min coins 4, ways 916\n"
            " 99 cents: min coins 6, ways 4,366\n"
            "200 cents: min coins 1, ways 73,682\n"
            "odd system [1, 3, 4] for 6: 2\n"
            "impossible [5, 10] for 3: None\n"
        ),
    ),
    Case(
        id="dice-roll-histogram",
        category="simulation",
        code=_src(r"""
            import random
            from collections import Counter

            random.seed(42)
            ROLLS = 6000

            counts = Counter(random.randint(1, 6) + random.randint(1, 6) for _ in range(ROLLS))
            print(f"{ROLLS} rolls of two dice")
            for total in range(2, 13):
                observed = counts[total]
                expected = ROLLS * (6 - abs(total - 7)) / 36
                bar = "#" * round(observed / 25)
                print(f"{total:>2} {observed:>5} (exp {expected:6.1f}) {bar}")
            print("most common:", counts.most_common(1)[0])
        """),
        stdout=(
            "6000 rolls of two dice\n"
            " 2   162 (exp  166.7) ######\n"
            " 3   322 (exp  333.3) #############\n"
            " 4   477 (exp  500.0) ###################\n"
            " 5   659 (exp  666.7) ##########################\n"
            " 6   789 (exp  833.3) ################################\n"
            " 7  1034 (exp 1000.0) #########################################\n"
            " 8   833 (exp  833.3) #################################\n"
            " 9   669 (exp  666.7) ###########################\n"
            "10   519 (exp  500.0) #####################\n"
            "11   342 (exp  333.3) ##############\n"
            "12   194 (exp  166.7) ########\n"
            "most common: (7, 1034)\n"
        ),
    ),
    Case(
        id="monte-carlo-pi",
        category="simulation",
        code=_src(r"""
            import random

            rng = random.Random(2024)
            for samples in (1_000, 10_000, 50_000):
                inside = 0
                for _ in range(samples):
                    x, y = rng.random(), rng.random()
                    if x * x + y * y <= 1.0:
                        inside += 1
                estimate = 4 * inside / samples
                error = abs(estimate - 3.14159265)
                print(f"{samples:>6} samples: pi ~ {estimate:.4f} (error {error:.4f})")
        """),
        stdout=(
            "  1000 samples: pi ~ 3.1200 (error 0.0216)\n"
            " 10000 samples: pi ~ 3.1220 (error 0.0196)\n"
            " 50000 samples: pi ~ 3.1317 (error 0.0099)\n"
        ),
    ),
    Case(
        id="random-walk-1d",
        category="simulation",
        code=_src(r"""
            import random
            import statistics

            random.seed(7)


            def walk(steps):
                position = 0
                furthest = 0
                for _ in range(steps):
                    position += random.choice((-1, 1))
                    furthest = max(furthest, abs(position))
                return position, furthest


            finals = []
            for trial in range(1, 201):
                final, furthest = walk(100)
                finals.append(final)
                if trial <= 5:
                    print(f"walk {trial}: ended at {final:+d}, furthest {furthest}")

            print(f"mean final position: {statistics.mean(finals):+.2f}")
            print(f"std dev: {statistics.pstdev(finals):.2f}  (theory ~ 10)")
            print("returned to origin:", finals.count(0), "times")
        """),
        stdout=(
            "walk 1: ended at -2, furthest 17\n"
            "walk 2: ended at -2, furthest 8\n"
            "walk 3: ended at -14, furthest 19\n"
            "walk 4: ended at -4, furthest 6\n"
            "walk 5: ended at -10, furthest 13\n"
            "mean final position: -0.23\n"
            "std dev: 10.27  (theory ~ 10)\n"
            "returned to origin: 16 times\n"
        ),
    ),
    Case(
        id="bank-queue-events",
        category="simulation",
        code=_src(r"""
            import heapq
            import random

            random.seed(11)
            TELLERS = 2
            CUSTOMERS = 12

            arrivals = []
            clock = 0.0
            for customer in range(CUSTOMERS):
                clock += random.expovariate(1 / 3)
                service = random.uniform(2, 8)
                arrivals.append((round(clock, 2), customer, round(service, 2)))

            free_at = [0.0] * TELLERS
            heapq.heapify(free_at)
            waits = []
            for arrival, customer, service in arrivals:
                teller_free = heapq.heappop(free_at)
                start = max(arrival, teller_free)
                waits.append(start - arrival)
                heapq.heappush(free_at, start + service)
                print(f"customer {customer:>2} arrives {arrival:6.2f} starts {start:6.2f} "
                      f"waits {start - arrival:5.2f}")

            print(f"average wait: {sum(waits) / len(waits):.2f} min, longest {max(waits):.2f} min")
            print(f"last teller free at {max(free_at):.2f}")
        """),
        stdout=(
            "customer  0 arrives   1.81 starts   1.81 waits  0.00\n"
            "customer  1 arrives   9.55 starts   9.55 waits  0.00\n"
            "customer  2 arrives  11.67 starts  11.67 waits  0.00\n"
            "customer  3 arrives  12.29 starts  14.34 waits  2.05\n"
            "customer  4 arrives  15.27 starts  17.19 waits  1.92\n"
            "customer  5 arrives  15.56 starts  19.41 waits  3.85\n"
            "customer  6 arrives  15.85 starts  23.23 waits  7.38\n"
            "customer  7 arrives  19.40 starts  23.95 waits  4.55\n"
            "customer  8 arrives  31.48 starts  31.48 waits  0.00\n"
            "customer  9 arrives  34.66 starts  34.66 waits  0.00\n"
            "customer 10 arrives  35.18 starts  39.27 waits  4.09\n"
            "customer 11 arrives  37.43 starts  40.35 waits  2.92\n"
            "average wait: 2.23 min, longest 7.38 min\n"
            "last teller free at 42.71\n"
        ),
    ),
    Case(
        id="game-of-life-glider",
        category="simulation",
        code=_src(r"""
            def step(live):
                neighbours = {}
                for r, c in live:
                    for dr in (-1, 0, 1):
                        for dc in (-1, 0, 1):
                            if dr or dc:
                                cell = (r + dr, c + dc)
                                neighbours[cell] = neighbours.get(cell, 0) + 1
                return {cell for cell, n in neighbours.items()
                        if n == 3 or (n == 2 and cell in live)}


            def show(live, size=6):
                return "\n".join(
                    "".join("#" if (r, c) in live else "." for c in range(size))
                    for r in range(size)
                )


            glider = {(0, 1), (1, 2), (2, 0), (2, 1), (2, 2)}
            state = glider
            for generation in range(5):
                if generation in (0, 4):
                    print(f"generation {generation}:")
                    print(show(state))
                state = step(state)

            shifted = {(r + 1, c + 1) for r, c in glider}
            after_four = glider
            for _ in range(4):
                after_four = step(after_four)
            print("glider moved one cell diagonally:", after_four == shifted)
            blinker = {(1, 0), (1, 1), (1, 2)}
            print("blinker period 2:", step(step(blinker)) == blinker, sorted(step(blinker)))
        """),
        stdout=(
            "generation 0:\n"
            ".#....\n"
            "..#...\n"
            "###...\n"
            "......\n"
            "......\n"
            "......\n"
            "generation 4:\n"
            "......\n"
            "..#...\n"
            "...#..\n"
            ".###..\n"
            "......\n"
            "......\n"
            "glider moved one cell diagonally: True\n"
            "blinker period 2: True [(0, 1), (1, 1), (2, 1)]\n"
        ),
    ),
    Case(
        id="card-deal-poker-hands",
        category="simulation",
        code=_src(r"""
            import random
            from collections import Counter

            RANKS = "23456789TJQKA"
            SUITS = "cdhs"


            def classify(hand):
                ranks = sorted((RANKS.index(card[0]) for card in hand), reverse=True)
                counts = sorted(Counter(ranks).values(), reverse=True)
                flush = len({card[1] for card in hand}) == 1
                straight = len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4
                if straight and flush:
                    return "straight flush"
                if counts[0] == 4:
                    return "four of a kind"
                if counts[:2] == [3, 2]:
                    return "full house"
                if flush:
                    return "flush"
                if straight:
                    return "straight"
                if counts[0] == 3:
                    return "three of a kind"
                if counts[:2] == [2, 2]:
                    return "two pair"
                if counts[0] == 2:
                    return "pair"
                return "high card"


            rng = random.Random(314)
            deck = [r + s for r in RANKS for s in SUITS]
            rng.shuffle(deck)
            players = ["North", "East", "South", "West"]
            for i, player in enumerate(players):
                hand = deck[i * 5:(i + 1) * 5]
                print(f"{player:<5}: {' '.join(hand)}  ({classify(hand)})")

            DEALS = 2000
            tally = Counter(classify(rng.sample(deck, 5)) for _ in range(DEALS))
            for kind, n in tally.most_common():
                print(f"{kind:<16}{n / DEALS:7.2%}")
        """),
        stdout=(
            "North: 6d Jh 7c 7d Qd  (pair)\n"
            "East : 9s 2h Jd Ah 3d  (high card)\n"
            "South: 4d 7h Kd Ks Ad  (pair)\n"
            "West : 8h Qs As 7s 6s  (high card)\n"
            "high card        52.20%\n"
            "pair             40.40%\n"
            "two pair          4.50%\n"
            "three of a kind   2.20%\n"
            "flush             0.30%\n"
            "straight          0.25%\n"
            "full house        0.15%\n"
        ),
    ),
    Case(
        id="inventory-restock-sim",
        category="simulation",
        code=_src(r"""
            import random

            random.seed(99)
            stock = 40
            REORDER_POINT = 15
            ORDER_SIZE = 50
            LEAD_TIME = 3
            pending = {}
            stockouts = 0
            log = []

            for day in range(1, 31):
                stock += pending.pop(day, 0)
                demand = random.randint(3, 12)
                sold = min(stock, demand)
                stock -= sold
                if sold < demand:
                    stockouts += demand - sold
                on_order = sum(pending.values())
                if stock + on_order <= REORDER_POINT:
                    pending[day + LEAD_TIME] = ORDER_SIZE
                    log.append(f"day {day:>2}: ordered {ORDER_SIZE}, arrives day {day + LEAD_TIME}")
                if day % 5 == 0:
                    log.append(f"day {day:>2}: stock {stock}")

            print("\n".join(log))
            print(f"lost sales: {stockouts} units; closing stock {stock}")
        """),
        stdout=(
            "day  4: ordered 50, arrives day 7\n"
            "day  5: stock 0\n"
            "day 10: stock 28\n"
            "day 12: ordered 50, arrives day 15\n"
            "day 15: stock 38\n"
            "day 18: ordered 50, arrives day 21\n"
            "day 20: stock 0\n"
            "day 25: stock 16\n"
            "day 26: ordered 50, arrives day 29\n"
            "day 30: stock 38\n"
            "lost sales: 36 units; closing stock 38\n"
        ),
    ),
    Case(
        id="sir-epidemic-model",
        category="simulation",
        code=_src(r"""
            def simulate(population, infected, beta, gamma, days):
                s, i, r = population - infected, float(infected), 0.0
                history = []
                for day in range(days + 1):
                    history.append((day, s, i, r))
                    new_infections = beta * s * i / population
                    recoveries = gamma * i
                    s -= new_infections
                    i += new_infections - recoveries
                    r += recoveries
                return history


            history = simulate(population=10_000, infected=10, beta=0.3, gamma=0.1, days=120)
            peak_day, _, peak_i, _ = max(history, key=lambda row: row[2])
            for day, s, i, r in history[::20]:
                print(f"day {day:>3}: S={s:8.0f} I={i:8.0f} R={r:8.0f}")
            print(f"peak on day {peak_day} with {peak_i:.0f} infected")
            print(f"total ever infected: {history[-1][3] + history[-1][2]:.0f}")
        """),
        stdout=(
            "day   0: S=    9990 I=      10 R=       0\n"
            "day  20: S=    9460 I=     359 R=     181\n"
            "day  40: S=    3461 I=    3115 R=    3423\n"
            "day  60: S=     821 I=    1141 R=    8038\n"
            "day  80: S=     575 I=     215 R=    9210\n"
            "day 100: S=     540 I=      38 R=    9423\n"
            "day 120: S=     534 I=       7 R=    9460\n"
            "peak on day 41 with 3127 infected\n"
            "total ever infected: 9466\n"
        ),
    ),
    Case(
        id="traffic-light-state-machine",
        category="simulation",
        code=_src(r"""
            from enum import Enum


            class Light(Enum):
                GREEN = ("GREEN", 25)
                YELLOW = ("YELLOW", 5)
                RED = ("RED", 30)

                def __init__(self, label, seconds):
                    self.label = label
                    self.seconds = seconds

                def next(self):
                    order = list(Light)
                    return order[(order.index(self) + 1) % len(order)]


            def run(total_seconds, arrivals):
                light, remaining = Light.RED, Light.RED.seconds
                queue = 0
                passed = 0
                timeline = []
                for t in range(total_seconds):
                    queue += arrivals(t)
                    if light is Light.GREEN and queue:
                        queue -= 1
                        passed += 1
                    remaining -= 1
                    if remaining == 0:
                        light = light.next()
                        remaining = light.seconds
                        timeline.append(f"t={t + 1:>3}s -> {light.label}")
                return timeline, passed, queue


            timeline, passed, waiting = run(180, lambda t: 1 if t % 3 == 0 else 0)
            print("\n".join(timeline))
            print(f"cars through: {passed}, still waiting: {waiting}")
        """),
        stdout=(
            "t= 30s -> GREEN\n"
            "t= 55s -> YELLOW\n"
            "t= 60s -> RED\n"
            "t= 90s -> GREEN\n"
            "t=115s -> YELLOW\n"
            "t=120s -> RED\n"
            "t=150s -> GREEN\n"
            "t=175s -> YELLOW\n"
            "t=180s -> RED\n"
            "cars through: 59, still waiting: 1\n"
        ),
    ),
    Case(
        id="weighted-choices-survey",
        category="simulation",
        code=_src(r"""
            import random
            from collections import Counter

            random.seed(5)
            options = ["Python", "JavaScript", "Rust", "Go", "Java"]
            weights = [40, 25, 15, 12, 8]

            votes = Counter(random.choices(options, weights=weights, k=2000))
            print("Simulated survey of 2,000 developers")
            for lang in options:
                share = votes[lang] / 2000
                print(f"  {lang:<10} {votes[lang]:>4}  {share:6.1%}  {'|' * round(share * 50)}")

            panel = random.sample(range(1, 2001), 5)
            print("follow-up panel ids:", sorted(panel))
            print("coin flips:", "".join(random.choice("HT") for _ in range(20)))
        """),
        stdout=(
            "Simulated survey of 2,000 developers\n"
            "  Python      815   40.8%  ||||||||||||||||||||\n"
            "  JavaScript  511   25.6%  |||||||||||||\n"
            "  Rust        311   15.6%  ||||||||\n"
            "  Go          204   10.2%  |||||\n"
            "  Java        159    8.0%  ||||\n"
            "follow-up panel ids: [3, 99, 401, 1291, 1726]\n"
            "coin flips: TTTTTHTHTHHHHTHHTHHT\n"
        ),
    ),
    Case(
        id="gaussian-measurements",
        category="simulation",
        code=_src(r"""
            import random
            import statistics

            rng = random.Random(123)
            measurements = [rng.gauss(mu=50.0, sigma=4.0) for _ in range(500)]

            mean = statistics.fmean(measurements)
            stdev = statistics.stdev(measurements)
            print(f"n={len(measurements)} mean={mean:.2f} stdev={stdev:.2f}")
            print(f"min={min(measurements):.2f} max={max(measurements):.2f}")
            within = sum(abs(m - mean) <= stdev for m in measurements) / len(measurements)
            print(f"within 1 sigma: {within:.1%}")
            q1, q2, q3 = statistics.quantiles(measurements, n=4)
            print(f"quartiles: {q1:.2f} {q2:.2f} {q3:.2f}")

            bins = [0] * 8
            for m in measurements:
                index = min(max(int((m - 38) // 3), 0), 7)
                bins[index] += 1
            for i, n in enumerate(bins):
                print(f"{38 + 3 * i:>3}-{41 + 3 * i:<3} {'*' * (n // 4)}")
        """),
        stdout=(
            "n=500 mean=50.17 stdev=3.93\n"
            "min=38.80 max=63.94\n"
            "within 1 sigma: 70.4%\n"
            "quartiles: 47.39 50.22 53.00\n"
            " 38-41  *\n"
            " 41-44  *****\n"
            " 44-47  ********************\n"
            " 47-50  *******************************\n"
            " 50-53  **********************************\n"
            " 53-56  ************************\n"
            " 56-59  *****\n"
            " 59-62  *\n"
        ),
    ),
    Case(
        id="sched-virtual-clock",
        category="simulation",
        code=_src(r"""
            import sched


            class VirtualClock:
                def __init__(self):
                    self.now = 0.0

                def time(self):
                    return self.now

                def sleep(self, seconds):
                    self.now += seconds


            clock = VirtualClock()
            scheduler = sched.scheduler(clock.time, clock.sleep)
            events = []


            def task(name, repeat=0, every=0.0):
                events.append(f"t={clock.time():5.1f} run {name}")
                if repeat > 1:
                    scheduler.enter(every, 1, task, (name, repeat - 1, every))


            scheduler.enter(0.0, 1, task, ("heartbeat", 4, 2.5))
            scheduler.enter(1.0, 2, task, ("backup",))
            scheduler.enter(3.0, 0, task, ("report",))
            cancelled = scheduler.enter(4.0, 1, task, ("never runs",))
            scheduler.cancel(cancelled)
            scheduler.run()
            print("\n".join(events))
            print("finished at virtual time", clock.time())
        """),
        stdout=(
            "t=  0.0 run heartbeat\n"
            "t=  1.0 run backup\n"
            "t=  2.5 run heartbeat\n"
            "t=  3.0 run report\n"
            "t=  5.0 run heartbeat\n"
            "t=  7.5 run heartbeat\n"
            "finished at virtual time 7.5\n"
        ),
    ),
    Case(
        id="protocol-structural-shapes",
        category="typing",
        code=_src(r"""
            import math
            from typing import Protocol


            class Shape(Protocol):
                label: str

                def area(self) -> float: ...


            class Circle:
                label = "circle"

                def __init__(self, radius: float) -> None:
                    self.radius = radius

                def area(self) -> float:
                    return math.pi * self.radius ** 2


            class Rectangle:
                label = "rectangle"

                def __init__(self, width: float, height: float) -> None:
                    self.width, self.height = width, height

                def area(self) -> float:
                    return self.width * self.height


            def total_area(shapes: list[Shape]) -> float:
                return sum(shape.area() for shape in shapes)


            def largest(shapes: list[Shape]) -> Shape:
                return max(shapes, key=lambda s: s.area())


            shapes: list[Shape] = [Circle(1.5), Rectangle(3, 4), Circle(0.5), Rectangle(2, 2.5)]
            for shape in shapes:
                print(f"{shape.label:<10} {shape.area():8.3f}")
            print(f"total area: {total_area(shapes):.3f}")
            print("largest:", largest(shapes).label)
        """),
        stdout=(
            "circle        7.069\n"
            "rectangle    12.000\n"
            "circle        0.785\n"
            "rectangle     5.000\n"
            "total area: 24.854\n"
            "largest: rectangle\n"
        ),
    ),
    Case(
        id="typeddict-api-payload",
        category="typing",
        code=_src(r"""
            from typing import NotRequired, TypedDict


            class Address(TypedDict):
                city: str
                country: str


            class UserPayload(TypedDict):
                id: int
                name: str
                email: str
                address: Address
                nickname: NotRequired[str]


            REQUIRED = {"id": int, "name": str, "email": str, "address": dict}


            def validate(payload: dict) -> list[str]:
                errors = []
                for key, expected in REQUIRED.items():
                    if key not in payload:
                        errors.append(f"missing {key!r}")
                    elif not isinstance(payload[key], expected):
                        errors.append(f"{key!r} has the wrong type")
                return errors


            def greeting(user: UserPayload) -> str:
                name = user.get("nickname", user["name"])
                return f"Hello {name} from {user['address']['city']}, {user['address']['country']}"


            good: UserPayload = {
                "id": 7,
                "name": "Olivia Chen",
                "email": "olivia@example.com",
                "address": {"city": "Vancouver", "country": "Canada"},
            }
            print(greeting(good))
            print(greeting({**good, "nickname": "Liv"}))
            print(validate(good))
            print(validate({"id": "7", "name": "X"}))
        """),
        stdout=(
            "Hello Olivia Chen from Vancouver, Canada\n"
            "Hello Liv from Vancouver, Canada\n"
            "[]\n"
            "[\"'id' has the wrong type\", \"missing 'email'\", \"missing 'address'\"]\n"
        ),
    ),
    Case(
        id="namedtuple-stock-quotes",
        category="typing",
        code=_src(r"""
            from typing import NamedTuple


            class Quote(NamedTuple):
                symbol: str
                first: float
                last: float
                volume: int = 0

                @property
                def change_pct(self) -> float:
                    return (self.last - self.first) / self.first * 100


            quotes = [
                Quote("ACME", 102.5, 104.1, 1_200_000),
                Quote("GLOBX", 55.0, 53.35, 830_000),
                Quote("INITECH", 12.4, 12.4),
                Quote("UMBR", 230.0, 241.5, 410_000),
            ]
            for q in sorted(quotes, key=lambda q: q.change_pct, reverse=True):
                print(f"{q.symbol:<8} {q.first:>7.2f} -> {q.last:>7.2f}  {q.change_pct:+6.2f}%"
                      f"  vol {q.volume:,}")

            symbol, *_, volume = quotes[0]
            print(symbol, volume)
            print(quotes[2]._replace(last=13.0))
            print(quotes[1]._asdict())
            print("fields:", Quote._fields)
        """),
        stdout=(
            "UMBR      230.00 ->  241.50   +5.00%  vol 410,000\n"
            "ACME      102.50 ->  104.10   +1.56%  vol 1,200,000\n"
            "INITECH    12.40 ->   12.40   +0.00%  vol 0\n"
            "GLOBX      55.00 ->   53.35   -3.00%  vol 830,000\n"
            "ACME 1200000\n"
            "Quote(symbol='INITECH', first=12.4, last=13.0, volume=0)\n"
            "{'symbol': 'GLOBX', 'first': 55.0, 'last': 53.35, 'volume': 830000}\n"
            "fields: ('symbol', 'first', 'last', 'volume')\n"
        ),
    ),
    Case(
        id="generic-stack-class",
        category="typing",
        code=_src(r"""
            from typing import Generic, TypeVar

            T = TypeVar("T")


            class Stack(Generic[T]):
                def __init__(self) -> None:
                    self._items: list[T] = []

                def push(self, item: T) -> None:
                    self._items.append(item)

                def pop(self) -> T:
                    if not self._items:
                        raise IndexError("pop from empty stack")
                    return self._items.pop()

                def peek(self) -> T | None:
                    return self._items[-1] if self._items else None

                def __len__(self) -> int:
                    return len(self._items)


            def balanced(expression: str) -> bool:
                pairs = {")": "(", "]": "[", "}": "{"}
                stack: Stack[str] = Stack()
                for ch in expression:
                    if ch in "([{":
                        stack.push(ch)
                    elif ch in pairs:
                        if stack.peek() != pairs[ch]:
                            return False
                        stack.pop()
                return len(stack) == 0


            for expr in ["(a + b) * [c - {d / e}]", "((x)", "{[()]}()", "([)]", ""]:
                print(f"{expr!r:28} balanced={balanced(expr)}")

            numbers: Stack[int] = Stack()
            for n in range(5):
                numbers.push(n * n)
            print("popped:", [numbers.pop() for _ in range(3)], "left:", len(numbers))
            try:
                Stack[float]().pop()
            except IndexError as exc:
                print("error:", exc)
        """),
        stdout=(
            "'(a + b) * [c - {d / e}]'    balanced=True\n"
            "'((x)'                       balanced=False\n"
            "'{[()]}()'                   balanced=True\n"
            "'([)]'                       balanced=False\n"
            "''                           balanced=True\n"
            "popped: [16, 9, 4] left: 2\n"
            "error: pop from empty stack\n"
        ),
    ),
    Case(
        id="literal-modes-overload",
        category="typing",
        code=_src(r"""
            from typing import Literal, overload

            Unit = Literal["c", "f", "k"]


            @overload
            def convert(value: float, source: Unit, target: Unit) -> float: ...
            @overload
            def convert(value: list[float], source: Unit, target: Unit) -> list[float]: ...


            def convert(value, source, target):
                if isinstance(value, list):
                    return [convert(v, source, target) for v in value]
                celsius = {"c": value, "f": (value - 32) * 5 / 9, "k": value - 273.15}[source]
                result = {"c": celsius, "f": celsius * 9 / 5 + 32, "k": celsius + 273.15}[target]
                return round(result, 2)


            def describe(mode: Literal["short", "long"] = "short") -> str:
                return "C/F/K" if mode == "short" else "Celsius, Fahrenheit and Kelvin"


            print(describe(), "|", describe("long"))
            print(convert(100, "c", "f"), convert(32, "f", "c"), convert(0, "k", "c"))
            print(convert([-40.0, 0.0, 37.0], "c", "f"))
            print(convert(451, "f", "k"))
        """),
        stdout=(
            "C/F/K | Celsius, Fahrenheit and Kelvin\n"
            "212.0 0.0 -273.15\n"
            "[-40.0, 32.0, 98.6]\n"
            "505.93\n"
        ),
    ),
    Case(
        id="typevar-callable-pipeline",
        category="typing",
        code=_src(r"""
            from collections.abc import Callable, Iterable
            from typing import TypeVar

            T = TypeVar("T")
            R = TypeVar("R")
            Number = TypeVar("Number", int, float)


            def apply_all(funcs: Iterable[Callable[[T], T]], value: T) -> T:
                for func in funcs:
                    value = func(value)
                return value


            def map_values(mapping: dict[str, T], func: Callable[[T], R]) -> dict[str, R]:
                return {key: func(value) for key, value in mapping.items()}


            def clamp(value: Number, low: Number, high: Number) -> Number:
                return max(low, min(high, value))


            cleanup: list[Callable[[str], str]] = [
                str.strip,
                str.lower,
                lambda s: s.replace(" ", "_"),
            ]
            print(apply_all(cleanup, "  Quarterly Sales Report  "))
            print(apply_all([lambda n: n * 3, lambda n: n + 1], 13))
            prices = {"tea": 3.5, "cake": 4.25, "soup": 6.0}
            print(map_values(prices, lambda p: f"${p:.2f}"))
            print(map_values(prices, lambda p: round(p * 1.2, 2)))
            print(clamp(15, 0, 10), clamp(-2.5, -1.0, 1.0), clamp(7, 0, 10))
        """),
        stdout=(
            "quarterly_sales_report\n"
            "40\n"
            "{'tea': '$3.50', 'cake': '$4.25', 'soup': '$6.00'}\n"
            "{'tea': 4.2, 'cake': 5.1, 'soup': 7.2}\n"
            "10 -1.0 7\n"
        ),
    ),
    Case(
        id="final-classvar-constants",
        category="typing",
        code=_src(r"""
            from typing import ClassVar, Final

            MAX_RETRIES: Final = 3
            API_VERSION: Final[str] = "2024-06"


            class RateLimiter:
                default_limit: ClassVar[int] = 5
                instances: ClassVar[int] = 0

                def __init__(self, name: str, limit: int | None = None) -> None:
                    self.name = name
                    self.limit = limit if limit is not None else RateLimiter.default_limit
                    self.used = 0
                    RateLimiter.instances += 1

                def allow(self) -> bool:
                    if self.used >= self.limit:
                        return False
                    self.used += 1
                    return True


            api = RateLimiter("api")
            search = RateLimiter("search", limit=2)
            results = {lim.name: [lim.allow() for _ in range(6)] for lim in (api, search)}
            for name, allowed in results.items():
                print(f"{name:<7} {''.join('+' if ok else '-' for ok in allowed)}")
            print("limiters created:", RateLimiter.instances)
            print(f"API {API_VERSION}, up to {MAX_RETRIES} retries")
        """),
        stdout=(
            "api     +++++-\n"
            "search  ++----\n"
            "limiters created: 2\n"
            "API 2024-06, up to 3 retries\n"
        ),
    ),
    Case(
        id="optional-union-narrowing",
        category="typing",
        code=_src(r"""
            from typing import Optional, Union

            Json = Union[dict, list, str, int, float, bool, None]


            def parse_port(value: Optional[str]) -> int | None:
                if value is None or not value.strip():
                    return None
                port = int(value)
                if not 0 < port < 65536:
                    raise ValueError(f"port out of range: {port}")
                return port


            def describe(value: Json) -> str:
                if value is None:
                    return "null"
                if isinstance(value, bool):
                    return f"boolean {str(value).lower()}"
                if isinstance(value, (int, float)):
                    return f"number {value}"
                if isinstance(value, str):
                    return f"string of length {len(value)}"
                if isinstance(value, list):
                    return f"array of {len(value)}: [{', '.join(describe(v) for v in value)}]"
                return f"object with keys {sorted(value)}"


            for raw in ["8080", None, "  ", "443"]:
                print(f"{raw!r:>8} -> {parse_port(raw)}")
            try:
                parse_port("70000")
            except ValueError as exc:
                print("error:", exc)
            for value in [None, True, 3.5, "hi", [1, "x", None], {"b": 1, "a": 2}]:
                print(describe(value))
        """),
        stdout=(
            "  '8080' -> 8080\n"
            "    None -> None\n"
            "    '  ' -> None\n"
            "   '443' -> 443\n"
            "error: port out of range: 70000\n"
            "null\n"
            "boolean true\n"
            "number 3.5\n"
            "string of length 2\n"
            "array of 3: [number 1, string of length 1, null]\n"
            "object with keys ['a', 'b']\n"
        ),
    ),
    Case(
        id="runtime-checkable-protocol",
        category="typing",
        code=_src(r"""
            from typing import Protocol, runtime_checkable


            @runtime_checkable
            class Closeable(Protocol):
                def close(self) -> None: ...


            @runtime_checkable
            class Sized(Protocol):
                def size(self) -> int: ...


            class Connection:
                def __init__(self, name):
                    self.name = name
                    self.is_open = True

                def close(self):
                    self.is_open = False


            class Buffer:
                def __init__(self, data):
                    self.data = data

                def size(self):
                    return len(self.data)

                def close(self):
                    self.data = b""


            class Config:
                pass


            resources = {"db": Connection("db"), "buf": Buffer(b"hello"), "cfg": Config()}
            for name, resource in resources.items():
                closeable = isinstance(resource, Closeable)
                sized = isinstance(resource, Sized)
                detail = f" size={resource.size()}" if sized else ""
                print(f"{name:<4} closeable={closeable!s:<5} sized={sized!s:<5}{detail}")
                if closeable:
                    resource.close()
            print("db open after close:", resources["db"].is_open)
            print("buffer size after close:", resources["buf"].size())
        """),
        stdout=(
            "db   closeable=True  sized=False\n"
            "buf  closeable=True  sized=True  size=5\n"
            "cfg  closeable=False sized=False\n"
            "db open after close: False\n"
            "buffer size after close: 0\n"
        ),
    ),
    Case(
        id="paramspec-logging-decorator",
        category="typing",
        code=_src(r'''
            import functools
            from collections.abc import Callable
            from typing import ParamSpec, TypeVar

            P = ParamSpec("P")
            R = TypeVar("R")
            calls: list[str] = []


            def traced(label: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
                def decorator(func: Callable[P, R]) -> Callable[P, R]:
                    @functools.wraps(func)
                    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
                        parts = [repr(a) for a in args]
                        parts += [f"{k}={v!r}" for k, v in kwargs.items()]
                        rendered = ", ".join(parts)
                        result = func(*args, **kwargs)
                        calls.append(f"{label}({rendered}) -> {result!r}")
                        return result
                    return wrapper
                return decorator


            @traced("area")
            def area(width: float, height: float = 1.0) -> float:
                """Area of a rectangle."""
                return width * height


            @traced("greet")
            def greet(name: str, *, excited: bool = False) -> str:
                return f"Hello, {name}{'!' if excited else '.'}"


            area(3, 4)
            area(2.5)
            greet("Ana", excited=True)
            greet(name="Bo")
            print("\n".join(calls))
            print(f"{len(calls)} calls traced")
        '''),
        stdout=(
            "area(3, 4) -> 12\n"
            "area(2.5) -> 2.5\n"
            "greet('Ana', excited=True) -> 'Hello, Ana!'\n"
            "greet(name='Bo') -> 'Hello, Bo.'\n"
            "4 calls traced\n"
        ),
    ),
    Case(
        id="annotated-field-validation",
        category="typing",
        code=_src(r"""
            from dataclasses import asdict, dataclass, fields
            from typing import Annotated, get_args, get_origin, get_type_hints


            @dataclass(frozen=True)
            class Range:
                low: float
                high: float


            @dataclass
            class Sensor:
                name: str
                temperature: Annotated[float, Range(-40, 85)]
                humidity: Annotated[float, Range(0, 100)]
                battery: Annotated[int, Range(0, 100)] = 100


            def check(obj: Sensor) -> list[str]:
                problems = []
                hints = get_type_hints(Sensor, include_extras=True)
                values = asdict(obj)
                for f in fields(obj):
                    hint = hints[f.name]
                    if get_origin(hint) is not Annotated:
                        continue
                    base, *metadata = get_args(hint)
                    value = values[f.name]
                    if not isinstance(value, base):
                        problems.append(f"{f.name}: expected {base}")
                    for rule in metadata:
                        if isinstance(rule, Range) and not rule.low <= value <= rule.high:
                            problems.append(f"{f.name}={value} outside [{rule.low}, {rule.high}]")
                return problems


            readings = [
                Sensor("greenhouse", 24.5, 61.0),
                Sensor("freezer", -55.0, 12.0, battery=7),
                Sensor("attic", 41.0, 104.5, battery=130),
            ]
            for sensor in readings:
                problems = check(sensor)
                print(f"{sensor.name:<10} {'ok' if not problems else '; '.join(problems)}")
        """),
        stdout=(
            "greenhouse ok\n"
            "freezer    temperature=-55.0 outside [-40, 85]\n"
            "attic      humidity=104.5 outside [0, 100]; battery=130 outside [0, 100]\n"
        ),
    ),
    Case(
        id="type-alias-statement",
        category="syntax-312",
        code=_src(r"""
            type Vector = list[float]
            type Matrix = list[Vector]
            type Json = dict[str, Json] | list[Json] | str | int | float | bool | None


            def dot(a: Vector, b: Vector) -> float:
                return sum(x * y for x, y in zip(a, b, strict=True))


            def matmul(a: Matrix, b: Matrix) -> Matrix:
                columns = list(zip(*b))
                return [[dot(row, list(col)) for col in columns] for row in a]


            def depth(value: Json) -> int:
                if isinstance(value, dict):
                    return 1 + max((depth(v) for v in value.values()), default=0)
                if isinstance(value, list):
                    return 1 + max((depth(v) for v in value), default=0)
                return 0


            a: Matrix = [[1, 2], [3, 4]]
            b: Matrix = [[5, 6], [7, 8]]
            print(matmul(a, b))
            print(dot([1.5, 2.0, -1.0], [4.0, 0.5, 3.0]))
            print(depth({"a": [1, {"b": [2, 3]}], "c": None}))
            print(Vector, Json)
        """),
        stdout=(
            "[[19, 22], [43, 50]]\n"
            "4.0\n"
            "4\n"
            "Vector Json\n"
        ),
    ),
    Case(
        id="pep695-generic-functions",
        category="syntax-312",
        code=_src(r"""
            from collections.abc import Callable, Iterable, Sequence


            def first[T](items: Sequence[T], default: T) -> T:
                return items[0] if items else default


            def group_by[K, V](items: Iterable[V], key: Callable[[V], K]) -> dict[K, list[V]]:
                groups: dict[K, list[V]] = {}
                for item in items:
                    groups.setdefault(key(item), []).append(item)
                return groups


            def largest[T: (int, float)](values: Iterable[T]) -> T:
                return max(values)


            def pairwise_apply[A, B](func: Callable[[A, A], B], values: Sequence[A]) -> list[B]:
                return [func(x, y) for x, y in zip(values, values[1:])]


            print(first([3, 1, 2], 0), first([], "empty"))
            words = ["apple", "avocado", "banana", "blueberry", "cherry", "apricot"]
            print(group_by(words, key=lambda w: w[0]))
            print(group_by(range(10), key=lambda n: "even" if n % 2 == 0 else "odd"))
            print(largest([3, 9.5, 2]))
            print(pairwise_apply(lambda a, b: b - a, [1, 4, 9, 16, 25]))
        """),
        stdout=(
            "3 empty\n"
            "{'a': ['apple', 'avocado', 'apricot'], 'b': ['banana', 'blueberry'], 'c': ['cherry']}"
            "\n"
            "{'even': [0, 2, 4, 6, 8], 'odd': [1, 3, 5, 7, 9]}\n"
            "9.5\n"
            "[3, 5, 7, 9]\n"
        ),
    ),
    Case(
        id="pep695-generic-class",
        category="syntax-312",
        code=_src(r"""
            from dataclasses import dataclass, field


            @dataclass
            class Box[T]:
                value: T
                history: list[T] = field(default_factory=list)

                def replace(self, new: T) -> "Box[T]":
                    self.history.append(self.value)
                    self.value = new
                    return self

                def map[R](self, func) -> "Box[R]":
                    return Box(func(self.value))


            class Registry[K, V]:
                def __init__(self) -> None:
                    self._entries: dict[K, V] = {}

                def register(self, key: K, value: V) -> None:
                    if key in self._entries:
                        raise KeyError(f"duplicate key {key!r}")
                    self._entries[key] = value

                def lookup(self, key: K, default: V | None = None) -> V | None:
                    return self._entries.get(key, default)

                def keys(self) -> list[K]:
                    return sorted(self._entries)


            box = Box(10).replace(20).replace(30)
            print(box)
            print(box.map(lambda v: f"#{v}"))
            handlers: Registry[str, int] = Registry()
            for name, priority in [("email", 2), ("sms", 5), ("push", 1)]:
                handlers.register(name, priority)
            print(handlers.keys(), handlers.lookup("sms"), handlers.lookup("fax", -1))
            try:
                handlers.register("sms", 9)
            except KeyError as exc:
                print("error:", exc)
        """),
        stdout=(
            "Box(value=30, history=[10, 20])\n"
            "Box(value='#30', history=[])\n"
            "['email', 'push', 'sms'] 5 -1\n"
            "error: \"duplicate key 'sms'\"\n"
        ),
    ),
    Case(
        id="pep701-nested-fstrings",
        category="syntax-312",
        code=_src(r"""
            inventory = {"apples": 12, "pears": 0, "plums": 7}
            people = [{"name": "Ada", "langs": ["python", "c"]}, {"name": "Lin", "langs": []}]

            print(f"{"fruit":<8}|{"qty":>4}")
            for fruit, qty in inventory.items():
                print(f"{fruit:<8}|{qty:>4} {"(out of stock)" if qty == 0 else ""}")

            for person in people:
                print(f"{person["name"]}: {", ".join(person["langs"]) or "no languages listed"}")

            width = 12
            print(f"{f"{"centred":^{width}}"!r}")
            print(f"{"\n".join(["line one", "line two"])}")
            total = sum(inventory.values())
            print(f"total={total} ({f"{total / len(inventory):.1f}"} avg) {'done'!r}")
        """),
        stdout=(
            "fruit   | qty\n"
            "apples  |  12 \n"
            "pears   |   0 (out of stock)\n"
            "plums   |   7 \n"
            "Ada: python, c\n"
            "Lin: no languages listed\n"
            "'  centred   '\n"
            "line one\n"
            "line two\n"
            "total=19 (6.3 avg) 'done'\n"
        ),
    ),
    Case(
        id="match-command-router",
        category="syntax-312",
        code=_src(r"""
            def handle(command: str) -> str:
                match command.split():
                    case ["go", ("north" | "south" | "east" | "west") as direction]:
                        return f"you walk {direction}"
                    case ["go", other]:
                        return f"you cannot go {other!r}"
                    case ["take", *items] if items:
                        return f"you take {', '.join(items)}"
                    case ["take"]:
                        return "take what?"
                    case ["look"] | ["l"]:
                        return "you see a dusty room"
                    case ["quit" | "exit"]:
                        return "goodbye"
                    case []:
                        return "say something"
                    case [verb, *_]:
                        return f"unknown verb {verb!r}"


            lines = ["go north", "go up", "take lamp key", "take", "l", "exit", "", "dance now"]
            for line in lines:
                print(f"{line!r:<16} -> {handle(line)}")
        """),
        stdout=(
            "'go north'       -> you walk north\n"
            "'go up'          -> you cannot go 'up'\n"
            "'take lamp key'  -> you take lamp, key\n"
            "'take'           -> take what?\n"
            "'l'              -> you see a dusty room\n"
            "'exit'           -> goodbye\n"
            "''               -> say something\n"
            "'dance now'      -> unknown verb 'dance'\n"
        ),
    ),
    Case(
        id="match-class-patterns",
        category="syntax-312",
        code=_src(r"""
            import math
            from dataclasses import dataclass


            @dataclass
            class Circle:
                radius: float


            @dataclass
            class Rect:
                width: float
                height: float


            @dataclass
            class Triangle:
                a: float
                b: float
                c: float


            def describe(shape) -> str:
                match shape:
                    case Circle(radius=r) if r <= 0:
                        return "degenerate circle"
                    case Circle(radius=r):
                        return f"circle, area {math.pi * r * r:.2f}"
                    case Rect(width=w, height=h) if w == h:
                        return f"square, area {w * h:g}"
                    case Rect(w, h):
                        return f"rectangle {w:g}x{h:g}"
                    case Triangle(a, b, c) if a == b == c:
                        return "equilateral triangle"
                    case Triangle(a, b, c) if a + b <= c or a + c <= b or b + c <= a:
                        return "impossible triangle"
                    case Triangle():
                        return "triangle"
                    case _:
                        return f"unknown shape {shape!r}"


            shapes = [Circle(1), Circle(0), Rect(3, 3), Rect(2, 5.5), Triangle(2, 2, 2),
                      Triangle(1, 2, 8), Triangle(3, 4, 5), "hexagon"]
            for shape in shapes:
                print(describe(shape))
        """),
        stdout=(
            "circle, area 3.14\n"
            "degenerate circle\n"
            "square, area 9\n"
            "rectangle 2x5.5\n"
            "equilateral triangle\n"
            "impossible triangle\n"
            "triangle\n"
            "unknown shape 'hexagon'\n"
        ),
    ),
    Case(
        id="walrus-chunked-reader",
        category="syntax-312",
        code=_src(r"""
            import io
            import re

            stream = io.StringIO("alpha beta gamma delta epsilon zeta eta theta iota kappa mu")

            chunks = []
            while chunk := stream.read(16):
                chunks.append(chunk)
            print(f"read {len(chunks)} chunks: {chunks}")

            log = ["GET /index 200 12ms", "POST /login 401 8ms", "GET /api 500 230ms", "junk line"]
            pattern = re.compile(r"(\w+) (\S+) (\d{3}) (\d+)ms")
            slow = [
                (m[2], int(m[4]))
                for line in log
                if (m := pattern.fullmatch(line)) and int(m[4]) > 10
            ]
            print("slow requests:", slow)

            values = [4, 9, 15, 22, 3, 41]
            if (n := len(values)) > 5:
                print(f"list is long ({n} elements, expected <= 5)")
            running = 0
            prefix = [running := running + v for v in values]
            print("running totals:", prefix, "final:", running)
        """),
        stdout=(
            "read 4 chunks: ['alpha beta gamma', ' delta epsilon z', 'eta eta theta io', 'ta kappa "
            "mu']\n"
            "slow requests: [('/index', 12), ('/api', 230)]\n"
            "list is long (6 elements, expected <= 5)\n"
            "running totals: [4, 13, 28, 50, 53, 94] final: 94\n"
        ),
    ),
    Case(
        id="except-star-exception-group",
        category="syntax-312",
        code=_src(r"""
            class ValidationError(Exception):
                pass


            def validate(record: dict) -> None:
                problems = []
                if not record.get("name"):
                    problems.append(ValidationError("name is required"))
                if not isinstance(record.get("age"), int):
                    problems.append(TypeError(f"age must be int, got {record.get('age')!r}"))
                elif record["age"] < 0:
                    problems.append(ValueError("age must be non-negative"))
                if problems:
                    raise ExceptionGroup(f"record {record.get('id')} is invalid", problems)


            records = [
                {"id": 1, "name": "Ana", "age": 31},
                {"id": 2, "name": "", "age": "31"},
                {"id": 3, "name": "Bo", "age": -4},
            ]
            for record in records:
                try:
                    validate(record)
                    print(f"record {record['id']}: ok")
                except* ValidationError as group:
                    messages = [str(e) for e in group.exceptions]
                    print(f"record {record['id']}: validation -> {messages}")
                except* (TypeError, ValueError) as group:
                    messages = [str(e) for e in group.exceptions]
                    print(f"record {record['id']}: bad value -> {messages}")

            try:
                inner = ExceptionGroup("inner", [OSError("disk")])
                raise ExceptionGroup("batch", [KeyError("k"), inner])
            except* OSError as group:
                print("OS errors:", [str(e) for e in group.exceptions[0].exceptions])
            except* KeyError as group:
                print("key errors:", len(group.exceptions))
        """),
        stdout=(
            "record 1: ok\n"
            "record 2: validation -> ['name is required']\n"
            "record 2: bad value -> [\"age must be int, got '31'\"]\n"
            "record 3: bad value -> ['age must be non-negative']\n"
            "OS errors: ['disk']\n"
            "key errors: 1\n"
        ),
    ),
    Case(
        id="match-mapping-json-events",
        category="syntax-312",
        code=_src(r'''
            import json

            EVENTS = """[
              {"type": "signup", "user": {"name": "ana", "plan": "pro"}},
              {"type": "signup", "user": {"name": "bo"}},
              {"type": "purchase", "amount": 49.5, "currency": "EUR"},
              {"type": "purchase", "amount": 12},
              {"type": "logout", "user": {"name": "ana"}, "reason": "timeout"},
              {"type": "heartbeat"},
              ["not", "an", "object"]
            ]"""


            def summarise(event) -> str:
                match event:
                    case {"type": "signup", "user": {"name": str(name), "plan": plan}}:
                        return f"{name} signed up on the {plan} plan"
                    case {"type": "signup", "user": {"name": str(name)}}:
                        return f"{name} signed up on the free plan"
                    case {"type": "purchase", "amount": int() | float() as amount, "currency": cur}:
                        return f"purchase of {amount:.2f} {cur}"
                    case {"type": "purchase", "amount": amount}:
                        return f"purchase of {amount:.2f} USD (default currency)"
                    case {"type": "logout", **rest}:
                        return f"logout with extra fields {sorted(rest)}"
                    case {"type": kind}:
                        return f"ignored {kind} event"
                    case _:
                        return f"malformed event: {event!r}"


            for event in json.loads(EVENTS):
                print(summarise(event))
        '''),
        stdout=(
            "ana signed up on the pro plan\n"
            "bo signed up on the free plan\n"
            "purchase of 49.50 EUR\n"
            "purchase of 12.00 USD (default currency)\n"
            "logout with extra fields ['reason', 'user']\n"
            "ignored heartbeat event\n"
            "malformed event: ['not', 'an', 'object']\n"
        ),
    ),
    Case(
        id="fstring-debug-specifiers",
        category="syntax-312",
        code=_src(r"""
            from decimal import Decimal

            price = Decimal("19.99")
            quantity = 3
            rate = 0.0725
            items = ["widget", "gizmo"]

            print(f"{price=}")
            print(f"{quantity * price = }")
            print(f"{rate = :.2%}")
            print(f"{items[-1]!r:>10}")
            print(f"{len(items) = }, {sorted(items, reverse=True) = }")
            print(f"{'nested ' + f'{quantity:03d}'}")
            print(f"{
                ', '.join(
                    item.upper()  # comments are allowed inside PEP 701 f-strings
                    for item in items
                )
            }")
            value = 255
            print(f"{value:#x} {value:#o} {value:#b} {value:,} {value:>8.1f}")
        """),
        stdout=(
            "price=Decimal('19.99')\n"
            "quantity * price = Decimal('59.97')\n"
            "rate = 7.25%\n"
            "   'gizmo'\n"
            "len(items) = 2, sorted(items, reverse=True) = ['widget', 'gizmo']\n"
            "nested 003\n"
            "WIDGET, GIZMO\n"
            "0xff 0o377 0b11111111 255    255.0\n"
        ),
    ),
    Case(
        id="generic-type-alias-params",
        category="syntax-312",
        code=_src(r"""
            from collections.abc import Callable

            type Pair[T] = tuple[T, T]
            type Mapper[T, R] = Callable[[T], R]
            type Tree[T] = dict[str, Tree[T]] | T


            def swap[T](pair: Pair[T]) -> Pair[T]:
                a, b = pair
                return b, a


            def apply_to_pair[T, R](pair: Pair[T], func: Mapper[T, R]) -> Pair[R]:
                return func(pair[0]), func(pair[1])


            def leaves[T](tree: Tree[T]) -> list[T]:
                if isinstance(tree, dict):
                    return [leaf for key in sorted(tree) for leaf in leaves(tree[key])]
                return [tree]


            print(swap((1, 2)), swap(("left", "right")))
            print(apply_to_pair((3, 4), lambda n: n ** 2))
            print(apply_to_pair(("ab", "cde"), len))
            print(leaves({"b": {"x": 1, "a": 2}, "a": 3, "c": {"d": {"e": 4}}}))
            print(Pair, Mapper, Tree)
        """),
        stdout=(
            "(2, 1) ('right', 'left')\n"
            "(9, 16)\n"
            "(2, 3)\n"
            "[3, 2, 1, 4]\n"
            "Pair Mapper Tree\n"
        ),
    ),
    Case(
        id="match-literal-http-status",
        category="syntax-312",
        code=_src(r"""
            def classify(status: int) -> str:
                match status:
                    case 200 | 201 | 204:
                        return "success"
                    case 301 | 302 | 307 | 308:
                        return "redirect"
                    case 400:
                        return "bad request"
                    case 401 | 403:
                        return "auth problem"
                    case 404:
                        return "not found"
                    case code if 400 <= code < 500:
                        return "client error"
                    case code if 500 <= code < 600:
                        return "server error"
                    case _:
                        return "unknown"


            def parse_point(value):
                match value:
                    case (0, 0):
                        return "origin"
                    case (x, 0) | (0, x):
                        return f"on an axis at {x}"
                    case (x, y) if x == y:
                        return f"on the diagonal at {x}"
                    case (x, y):
                        return f"point ({x}, {y})"
                    case {"x": x, "y": y}:
                        return parse_point((x, y))
                    case _:
                        return "not a point"


            for code in (200, 204, 302, 401, 404, 418, 503, 99):
                print(code, classify(code))
            for value in [(0, 0), (5, 0), (0, -2), (3, 3), (1, 2), {"x": 4, "y": 4}, "nope"]:
                print(value, "->", parse_point(value))
        """),
        stdout=(
            "200 success\n"
            "204 success\n"
            "302 redirect\n"
            "401 auth problem\n"
            "404 not found\n"
            "418 client error\n"
            "503 server error\n"
            "99 unknown\n"
            "(0, 0) -> origin\n"
            "(5, 0) -> on an axis at 5\n"
            "(0, -2) -> on an axis at -2\n"
            "(3, 3) -> on the diagonal at 3\n"
            "(1, 2) -> point (1, 2)\n"
            "{'x': 4, 'y': 4} -> on the diagonal at 4\n"
            "nope -> not a point\n"
        ),
    ),
    Case(
        id="statistics-summary",
        category="data",
        code=_src(r"""
            import statistics

            response_ms = [120, 135, 98, 210, 145, 132, 99, 101, 180, 3050, 125, 140, 118, 133, 127]

            print(f"n        {len(response_ms)}")
            print(f"mean     {statistics.mean(response_ms):.1f}")
            print(f"median   {statistics.median(response_ms)}")
            buckets = [r // 10 * 10 for r in response_ms]
            print(f"mode     {statistics.mode(buckets)} (10 ms buckets)")
            print(f"stdev    {statistics.stdev(response_ms):.1f}")
            print(f"pstdev   {statistics.pstdev(response_ms):.1f}")
            print(f"variance {statistics.variance(response_ms):.1f}")
            deciles = statistics.quantiles(response_ms, n=10)
            print(f"p90      {deciles[-1]:.1f}")
            trimmed = sorted(response_ms)[1:-1]
            print(f"trimmed mean {statistics.mean(trimmed):.1f} (drops min and max)")
            print(f"harmonic mean {statistics.harmonic_mean(response_ms):.1f}")
        """),
        stdout=(
            "n        15\n"
            "mean     327.5\n"
            "median   132\n"
            "mode     120 (10 ms buckets)\n"
            "stdev    753.7\n"
            "pstdev   728.2\n"
            "variance 568105.4\n"
            "p90      1346.0\n"
            "trimmed mean 135.8 (drops min and max)\n"
            "harmonic mean 136.3\n"
        ),
    ),
    Case(
        id="groupby-sales-report",
        category="data",
        code=_src(r"""
            from itertools import groupby
            from operator import itemgetter

            sales = [
                {"month": "2024-01", "product": "laptop", "units": 12, "price": 999},
                {"month": "2024-01", "product": "tablet", "units": 30, "price": 449},
                {"month": "2024-02", "product": "laptop", "units": 9, "price": 999},
                {"month": "2024-02", "product": "phone", "units": 55, "price": 699},
                {"month": "2024-03", "product": "tablet", "units": 21, "price": 429},
                {"month": "2024-03", "product": "laptop", "units": 15, "price": 949},
                {"month": "2024-03", "product": "phone", "units": 48, "price": 699},
            ]

            by_month = sorted(sales, key=itemgetter("month"))
            for month, rows in groupby(by_month, key=itemgetter("month")):
                rows = list(rows)
                revenue = sum(r["units"] * r["price"] for r in rows)
                best = max(rows, key=lambda r: r["units"] * r["price"])
                print(f"{month}: revenue ${revenue:>9,}  best seller {best['product']}")

            print()
            by_product = sorted(sales, key=itemgetter("product"))
            for product, rows in groupby(by_product, key=itemgetter("product")):
                units = [r["units"] for r in rows]
                print(f"{product:<7} units {sum(units):>3} over {len(units)} months")
        """),
        stdout=(
            "2024-01: revenue $   25,458  best seller tablet\n"
            "2024-02: revenue $   47,436  best seller phone\n"
            "2024-03: revenue $   56,796  best seller phone\n"
            "\n"
            "laptop  units  36 over 3 months\n"
            "phone   units 103 over 2 months\n"
            "tablet  units  51 over 2 months\n"
        ),
    ),
    Case(
        id="pivot-table-regions",
        category="data",
        code=_src(r"""
            from collections import defaultdict

            records = [
                ("North", "Q1", 120), ("North", "Q2", 135), ("North", "Q3", 160),
                ("South", "Q1", 80), ("South", "Q3", 95), ("South", "Q4", 130),
                ("East", "Q2", 60), ("East", "Q3", 75), ("East", "Q4", 90), ("North", "Q4", 150),
            ]

            pivot = defaultdict(dict)
            for region, quarter, value in records:
                pivot[region][quarter] = pivot[region].get(quarter, 0) + value

            quarters = sorted({q for _, q, _ in records})
            regions = sorted(pivot)
            header = f"{'region':<8}" + "".join(f"{q:>6}" for q in quarters) + f"{'total':>8}"
            print(header)
            print("-" * len(header))
            for region in regions:
                row = [pivot[region].get(q, 0) for q in quarters]
                print(f"{region:<8}" + "".join(f"{v:>6}" for v in row) + f"{sum(row):>8}")
            totals = [sum(pivot[r].get(q, 0) for r in regions) for q in quarters]
            print(f"{'total':<8}" + "".join(f"{v:>6}" for v in totals) + f"{sum(totals):>8}")
        """),
        stdout=(
            "region      Q1    Q2    Q3    Q4   total\n"
            "----------------------------------------\n"
            "East         0    60    75    90     225\n"
            "North      120   135   160   150     565\n"
            "South       80     0    95   130     305\n"
            "total      200   195   330   370    1095\n"
        ),
    ),
    Case(
        id="moving-average-smoothing",
        category="data",
        code=_src(r"""
            from collections import deque


            def moving_average(values, window):
                buf = deque(maxlen=window)
                total = 0.0
                for v in values:
                    if len(buf) == window:
                        total -= buf[0]
                    buf.append(v)
                    total += v
                    yield total / len(buf)


            def ema(values, alpha):
                smoothed = None
                for v in values:
                    smoothed = v if smoothed is None else alpha * v + (1 - alpha) * smoothed
                    yield smoothed


            temps = [12.1, 13.4, 15.0, 14.2, 16.8, 18.9, 17.5, 19.2, 21.0, 20.4, 18.7, 16.1]
            sma = list(moving_average(temps, 3))
            ewm = list(ema(temps, 0.5))
            print(f"{'day':>3} {'raw':>5} {'sma3':>6} {'ema':>6}")
            for day, (raw, s, e) in enumerate(zip(temps, sma, ewm), start=1):
                print(f"{day:>3} {raw:>5.1f} {s:>6.2f} {e:>6.2f}")
        """),
        stdout=(
            "day   raw   sma3    ema\n"
            "  1  12.1  12.10  12.10\n"
            "  2  13.4  12.75  12.75\n"
            "  3  15.0  13.50  13.88\n"
            "  4  14.2  14.20  14.04\n"
            "  5  16.8  15.33  15.42\n"
            "  6  18.9  16.63  17.16\n"
            "  7  17.5  17.73  17.33\n"
            "  8  19.2  18.53  18.26\n"
            "  9  21.0  19.23  19.63\n"
            " 10  20.4  20.20  20.02\n"
            " 11  18.7  20.03  19.36\n"
            " 12  16.1  18.40  17.73\n"
        ),
    ),
    Case(
        id="quantiles-percentile-bands",
        category="data",
        code=_src(r"""
            import statistics

            exam_scores = [55, 61, 64, 67, 68, 70, 71, 72, 72, 74,
                           75, 77, 78, 80, 81, 83, 85, 88, 91, 97]

            quartiles = statistics.quantiles(exam_scores, n=4)
            print("quartiles (exclusive):", quartiles)
            inclusive = statistics.quantiles(exam_scores, n=4, method="inclusive")
            print("quartiles (inclusive):", inclusive)
            q1, _, q3 = quartiles
            iqr = q3 - q1
            print(f"IQR = {iqr}, fences = {q1 - 1.5 * iqr} .. {q3 + 1.5 * iqr}")


            def percentile_rank(score):
                below = sum(s < score for s in exam_scores)
                equal = exam_scores.count(score)
                return 100 * (below + 0.5 * equal) / len(exam_scores)


            for score in (61, 72, 80, 97):
                print(f"score {score}: percentile rank {percentile_rank(score):.1f}")
            bands = {"bottom 25%": 0, "middle 50%": 0, "top 25%": 0}
            for s in exam_scores:
                band = "bottom 25%" if s < q1 else "top 25%" if s > q3 else "middle 50%"
                bands[band] += 1
            print(bands)
        """),
        stdout=(
            "quartiles (exclusive): [68.5, 74.5, 82.5]\n"
            "quartiles (inclusive): [69.5, 74.5, 81.5]\n"
            "IQR = 14.0, fences = 47.5 .. 103.5\n"
            "score 61: percentile rank 7.5\n"
            "score 72: percentile rank 40.0\n"
            "score 80: percentile rank 67.5\n"
            "score 97: percentile rank 97.5\n"
            "{'bottom 25%': 5, 'middle 50%': 10, 'top 25%': 5}\n"
        ),
    ),
    Case(
        id="linear-regression-trend",
        category="data",
        code=_src(r"""
            import statistics

            months = list(range(1, 13))
            signups = [210, 232, 251, 240, 275, 298, 310, 305, 340, 362, 371, 395]

            fit = statistics.linear_regression(months, signups)
            print(f"slope {fit.slope:.3f} signups/month, intercept {fit.intercept:.3f}")
            r = statistics.correlation(months, signups)
            print(f"correlation r = {r:.4f}, r^2 = {r * r:.4f}")
            for month in (13, 14, 15):
                print(f"forecast month {month}: {fit.slope * month + fit.intercept:.0f}")
            residuals = [y - (fit.slope * x + fit.intercept) for x, y in zip(months, signups)]
            worst = max(range(12), key=lambda i: abs(residuals[i]))
            print(f"largest residual in month {months[worst]}: {residuals[worst]:+.1f}")
        """),
        stdout=(
            "slope 16.311 signups/month, intercept 193.061\n"
            "correlation r = 0.9880, r^2 = 0.9761\n"
            "forecast month 13: 405\n"
            "forecast month 14: 421\n"
            "forecast month 15: 438\n"
            "largest residual in month 8: -18.6\n"
        ),
    ),
    Case(
        id="correlation-matrix",
        category="data",
        code=_src(r"""
            import statistics
            from itertools import combinations

            data = {
                "hours_studied": [2, 4, 6, 8, 10, 3, 7, 5, 9, 1],
                "sleep_hours": [9, 8, 7, 7, 6, 8, 6, 7, 5, 9],
                "exam_score": [52, 61, 70, 80, 91, 58, 77, 66, 86, 45],
                "coffee_cups": [1, 2, 2, 3, 5, 1, 4, 2, 4, 0],
            }

            names = list(data)
            print(" " * 14 + "".join(f"{n[:12]:>13}" for n in names))
            for a in names:
                row = "".join(f"{statistics.correlation(data[a], data[b]):>13.3f}" for b in names)
                print(f"{a:<14}{row}")

            strongest = max(combinations(names, 2),
                            key=lambda p: abs(statistics.correlation(data[p[0]], data[p[1]])))
            print("strongest pair:", strongest)
        """),
        stdout=(
            "               hours_studie  sleep_hours   exam_score  coffee_cups\n"
            "hours_studied         1.000       -0.920        0.998        0.954\n"
            "sleep_hours          -0.920        1.000       -0.926       -0.899\n"
            "exam_score            0.998       -0.926        1.000        0.963\n"
            "coffee_cups           0.954       -0.899        0.963        1.000\n"
            "strongest pair: ('hours_studied', 'exam_score')\n"
        ),
    ),
    Case(
        id="counter-bar-chart",
        category="data",
        code=_src(r"""
            from collections import Counter

            responses = (
                "yes no yes maybe yes yes no maybe yes no yes unsure yes maybe no yes yes no"
            ).split()

            counts = Counter(responses)
            total = sum(counts.values())
            width = max(len(k) for k in counts)
            for answer, n in counts.most_common():
                print(f"{answer:>{width}} | {'#' * n} {n} ({n / total:.0%})")
            print(f"{'total':>{width}} | {total}")
            print("least common:", counts.most_common()[-1])
            counts.update(["no", "no"])
            counts.subtract(["yes"])
            print("after update:", dict(sorted(counts.items())))
        """),
        stdout=(
            "   yes | ######### 9 (50%)\n"
            "    no | ##### 5 (28%)\n"
            " maybe | ### 3 (17%)\n"
            "unsure | # 1 (6%)\n"
            " total | 18\n"
            "least common: ('unsure', 1)\n"
            "after update: {'maybe': 3, 'no': 7, 'unsure': 1, 'yes': 8}\n"
        ),
    ),
    Case(
        id="zscore-outliers",
        category="data",
        code=_src(r"""
            import statistics

            readings = {
                "sensor-01": 21.3, "sensor-02": 21.9, "sensor-03": 22.4, "sensor-04": 20.8,
                "sensor-05": 35.6, "sensor-06": 21.1, "sensor-07": 22.0, "sensor-08": 8.2,
                "sensor-09": 21.7, "sensor-10": 22.3,
            }

            values = list(readings.values())
            mean = statistics.mean(values)
            stdev = statistics.stdev(values)
            median = statistics.median(values)
            mad = statistics.median(abs(v - median) for v in values)
            print(f"mean={mean:.2f} stdev={stdev:.2f} median={median:.2f} MAD={mad:.2f}")

            for name, value in readings.items():
                z = (value - mean) / stdev
                robust = 0.6745 * (value - median) / mad
                flag = "  OUTLIER" if abs(robust) > 3.5 else ""
                print(f"{name} {value:5.1f}  z={z:+5.2f}  robust={robust:+7.2f}{flag}")
        """),
        stdout=(
            "mean=21.73 stdev=6.48 median=21.80 MAD=0.55\n"
            "sensor-01  21.3  z=-0.07  robust=  -0.61\n"
            "sensor-02  21.9  z=+0.03  robust=  +0.12\n"
            "sensor-03  22.4  z=+0.10  robust=  +0.74\n"
            "sensor-04  20.8  z=-0.14  robust=  -1.23\n"
            "sensor-05  35.6  z=+2.14  robust= +16.92  OUTLIER\n"
            "sensor-06  21.1  z=-0.10  robust=  -0.86\n"
            "sensor-07  22.0  z=+0.04  robust=  +0.25\n"
            "sensor-08   8.2  z=-2.09  robust= -16.68  OUTLIER\n"
            "sensor-09  21.7  z=-0.00  robust=  -0.12\n"
            "sensor-10  22.3  z=+0.09  robust=  +0.61\n"
        ),
    ),
    Case(
        id="join-two-datasets",
        category="data",
        code=_src(r"""
            customers = [
                {"id": 1, "name": "Acme Corp", "country": "US"},
                {"id": 2, "name": "Globex", "country": "DE"},
                {"id": 3, "name": "Initech", "country": "US"},
                {"id": 4, "name": "Umbrella", "country": "UK"},
            ]
            orders = [
                {"order": 101, "customer_id": 1, "total": 250.0},
                {"order": 102, "customer_id": 3, "total": 75.5},
                {"order": 103, "customer_id": 1, "total": 120.0},
                {"order": 104, "customer_id": 5, "total": 999.0},
                {"order": 105, "customer_id": 2, "total": 40.25},
            ]

            by_id = {c["id"]: c for c in customers}
            print("inner join:")
            for o in orders:
                if (c := by_id.get(o["customer_id"])) is not None:
                    print(f"  #{o['order']} {c['name']:<10} {c['country']} {o['total']:>8.2f}")

            orphans = [o["order"] for o in orders if o["customer_id"] not in by_id]
            print("orders with unknown customer:", orphans)
            ordered = {o["customer_id"] for o in orders}
            idle = [c["name"] for c in customers if c["id"] not in ordered]
            print("customers without orders:", idle)
            per_country = {}
            for o in orders:
                if o["customer_id"] in by_id:
                    country = by_id[o["customer_id"]]["country"]
                    per_country[country] = per_country.get(country, 0) + o["total"]
            print("revenue by country:", dict(sorted(per_country.items())))
        """),
        stdout=(
            "inner join:\n"
            "  #101 Acme Corp  US   250.00\n"
            "  #102 Initech    US    75.50\n"
            "  #103 Acme Corp  US   120.00\n"
            "  #105 Globex     DE    40.25\n"
            "orders with unknown customer: [104]\n"
            "customers without orders: ['Umbrella']\n"
            "revenue by country: {'DE': 40.25, 'US': 445.5}\n"
        ),
    ),
    Case(
        id="minmax-normalise-scores",
        category="data",
        code=_src(r"""
            import math


            def normalise(values):
                lo, hi = min(values), max(values)
                span = hi - lo or 1
                return [(v - lo) / span for v in values]


            def standardise(values):
                n = len(values)
                mean = sum(values) / n
                sd = math.sqrt(sum((v - mean) ** 2 for v in values) / n)
                return [(v - mean) / sd for v in values]


            features = {
                "price": [250_000, 320_000, 195_000, 410_000, 285_000],
                "bedrooms": [3, 4, 2, 5, 3],
                "age_years": [12, 5, 40, 2, 18],
            }

            for name, values in features.items():
                print(f"{name:<10} minmax  {[round(v, 3) for v in normalise(values)]}")
                print(f"{'':<10} zscore  {[round(v, 3) for v in standardise(values)]}")

            scores = [sum(col) for col in zip(*(normalise(v) for v in features.values()))]
            print("combined:", [f"{s:.2f}" for s in scores])
        """),
        stdout=(
            "price      minmax  [0.256, 0.581, 0.0, 1.0, 0.419]\n"
            "           zscore  [-0.583, 0.389, -1.347, 1.639, -0.097]\n"
            "bedrooms   minmax  [0.333, 0.667, 0.0, 1.0, 0.333]\n"
            "           zscore  [-0.392, 0.588, -1.373, 1.569, -0.392]\n"
            "age_years  minmax  [0.263, 0.079, 1.0, 0.0, 0.421]\n"
            "           zscore  [-0.252, -0.77, 1.822, -0.993, 0.193]\n"
            "combined: ['0.85', '1.33', '1.00', '2.00', '1.17']\n"
        ),
    ),
    Case(
        id="array-typed-samples",
        category="data",
        code=_src(r"""
            import bisect
            from array import array

            samples = array("d", [0.5, 1.25, 2.0, 3.75, 5.5, 8.0, 13.25])
            counts = array("i", [3, 1, 4, 1, 5, 9, 2])
            print(samples.typecode, len(samples), samples.itemsize, "bytes per item")
            print("sum:", sum(samples), "max count:", max(counts))
            samples.append(21.0)
            counts.extend([6])
            print("as list:", samples.tolist())
            index = bisect.bisect_left(samples, 4.0)
            print("first sample >= 4.0 at index", index, "->", samples[index])
            weighted = sum(s * c for s, c in zip(samples, counts)) / sum(counts)
            print(f"weighted mean: {weighted:.4f}")
            raw = array("H", [1, 256, 65535]).tobytes()
            print("uint16 bytes:", len(raw))
            print("reversed counts:", array("i", reversed(counts)).tolist())
        """),
        stdout=(
            "d 7 8 bytes per item\n"
            "sum: 34.25 max count: 9\n"
            "as list: [0.5, 1.25, 2.0, 3.75, 5.5, 8.0, 13.25, 21.0]\n"
            "first sample >= 4.0 at index 4 -> 5.5\n"
            "weighted mean: 8.5968\n"
            "uint16 bytes: 6\n"
            "reversed counts: [6, 2, 9, 5, 1, 4, 1, 3]\n"
        ),
    ),
    Case(
        id="decimal-invoice-rounding",
        category="math",
        code=_src(r"""
            from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, getcontext

            getcontext().prec = 28
            CENT = Decimal("0.01")

            lines = [("Consulting (hours)", Decimal("7.5"), Decimal("120.00")),
                     ("Travel", Decimal("1"), Decimal("86.345")),
                     ("Licences", Decimal("3"), Decimal("19.995"))]

            subtotal = Decimal("0")
            for description, qty, unit in lines:
                amount = (qty * unit).quantize(CENT, rounding=ROUND_HALF_UP)
                subtotal += amount
                print(f"{description:<20} {qty:>5} x {unit:>8} = {amount:>9}")

            vat = (subtotal * Decimal("0.20")).quantize(CENT, rounding=ROUND_HALF_UP)
            print(f"{'subtotal':<39} {subtotal:>9}")
            print(f"{'VAT 20%':<39} {vat:>9}")
            print(f"{'total':<39} {subtotal + vat:>9}")
            print("float would say:", 0.1 + 0.2, "| decimal says:", Decimal("0.1") + Decimal("0.2"))
            print("banker's rounding:", [str(Decimal(x).quantize(Decimal("1"), ROUND_HALF_EVEN))
                                         for x in ("0.5", "1.5", "2.5", "3.5")])
        """),
        stdout=(
            "Consulting (hours)     7.5 x   120.00 =    900.00\n"
            "Travel                   1 x   86.345 =     86.35\n"
            "Licences                 3 x   19.995 =     59.99\n"
            "subtotal                                  1046.34\n"
            "VAT 20%                                    209.27\n"
            "total                                     1255.61\n"
            "float would say: 0.30000000000000004 | decimal says: 0.3\n"
            "banker's rounding: ['0', '2', '2', '4']\n"
        ),
    ),
    Case(
        id="fractions-exact-arithmetic",
        category="math",
        code=_src(r"""
            from fractions import Fraction

            recipe = {"flour": Fraction(3, 4), "sugar": Fraction(1, 3), "butter": Fraction(1, 2)}
            scale = Fraction(5, 2)
            print("recipe x 2 1/2:")
            for item, cups in recipe.items():
                scaled = cups * scale
                whole, rest = divmod(scaled.numerator, scaled.denominator)
                if whole and rest:
                    mixed = f"{whole} {Fraction(rest, scaled.denominator)}"
                else:
                    mixed = str(scaled)
                print(f"  {item:<7} {str(cups):>4} -> {mixed} cups")

            harmonic = sum(Fraction(1, n) for n in range(1, 11))
            print("H(10) =", harmonic, "~", float(harmonic))
            print("0.1 as fraction:", Fraction(0.1))
            print("limited:", Fraction(0.1).limit_denominator(100))
            print("pi approx:", Fraction(355, 113), Fraction("3.14159").limit_denominator(1000))
            egyptian = []
            remaining = Fraction(5, 121)
            while remaining:
                unit = Fraction(1, -(-remaining.denominator // remaining.numerator))
                egyptian.append(unit)
                remaining -= unit
            print("5/121 =", " + ".join(map(str, egyptian)))
        """),
        stdout=(
            "recipe x 2 1/2:\n"
            "  flour    3/4 -> 1 7/8 cups\n"
            "  sugar    1/3 -> 5/6 cups\n"
            "  butter   1/2 -> 1 1/4 cups\n"
            "H(10) = 7381/2520 ~ 2.9289682539682538\n"
            "0.1 as fraction: 3602879701896397/36028797018963968\n"
            "limited: 1/10\n"
            "pi approx: 355/113 355/113\n"
            "5/121 = 1/25 + 1/757 + 1/763309 + 1/873960180913 + 1/1527612795642093418846225\n"
        ),
    ),
    Case(
        id="compound-interest-decimal",
        category="math",
        code=_src(r"""
            from decimal import ROUND_HALF_UP, Decimal

            principal = Decimal("10000")
            annual_rate = Decimal("0.045")
            years = 10

            print("Year  Balance     Interest")
            balance = principal
            for year in range(1, years + 1):
                interest = (balance * annual_rate).quantize(Decimal("0.01"), ROUND_HALF_UP)
                balance += interest
                if year in (1, 2, 5, 10):
                    print(f"{year:>4}  {balance:>10,.2f}  {interest:>8,.2f}")

            for label, periods in (("monthly", 12), ("daily", 365)):
                rate = annual_rate / periods
                amount = principal * (1 + rate) ** (periods * years)
                rounded = amount.quantize(Decimal("0.01"), ROUND_HALF_UP)
                print(f"{label:<8} compounding: {rounded:,}")

            target = Decimal("20000")
            balance, years_needed = principal, 0
            while balance < target:
                balance *= 1 + annual_rate
                years_needed += 1
            print(f"doubling takes {years_needed} years (rule of 72 says {72 / 4.5:.1f})")
        """),
        stdout=(
            "Year  Balance     Interest\n"
            "   1   10,450.00    450.00\n"
            "   2   10,920.25    470.25\n"
            "   5   12,461.81    536.63\n"
            "  10   15,529.69    668.74\n"
            "monthly  compounding: 15,669.93\n"
            "daily    compounding: 15,682.69\n"
            "doubling takes 16 years (rule of 72 says 16.0)\n"
        ),
    ),
    Case(
        id="prime-factorisation",
        category="math",
        code=_src(r"""
            import math
            from collections import Counter


            def factorise(n):
                factors = Counter()
                for p in (2, 3):
                    while n % p == 0:
                        factors[p] += 1
                        n //= p
                f = 5
                while f * f <= n:
                    for candidate in (f, f + 2):
                        while n % candidate == 0:
                            factors[candidate] += 1
                            n //= candidate
                    f += 6
                if n > 1:
                    factors[n] += 1
                return factors


            def render(factors):
                terms = (f"{p}^{e}" if e > 1 else str(p) for p, e in sorted(factors.items()))
                return " x ".join(terms)


            for n in (360, 97, 1001, 65536, 600851475143, 2**31 - 1, 123456789):
                factors = factorise(n)
                divisors = math.prod(e + 1 for e in factors.values())
                print(f"{n:>13,} = {render(factors):<24} ({divisors} divisors)")
        """),
        stdout=(
            "          360 = 2^3 x 3^2 x 5            (24 divisors)\n"
            "           97 = 97                       (2 divisors)\n"
            "        1,001 = 7 x 11 x 13              (8 divisors)\n"
            "       65,536 = 2^16                     (17 divisors)\n"
            "600,851,475,143 = 71 x 839 x 1471 x 6857   (16 divisors)\n"
            "2,147,483,647 = 2147483647               (2 divisors)\n"
            "  123,456,789 = 3^2 x 3607 x 3803        (12 divisors)\n"
        ),
    ),
    Case(
        id="gcd-lcm-fractions",
        category="math",
        code=_src(r"""
            import math
            from functools import reduce

            pairs = [(48, 180), (17, 31), (1071, 462), (2**10, 6**5)]
            for a, b in pairs:
                print(f"gcd({a}, {b}) = {math.gcd(a, b):>4}   lcm = {math.lcm(a, b)}")

            print("gcd of many:", math.gcd(84, 126, 210, 462))
            print("lcm 1..20:", reduce(math.lcm, range(1, 21)))


            def extended_gcd(a, b):
                if b == 0:
                    return a, 1, 0
                g, x, y = extended_gcd(b, a % b)
                return g, y, x - (a // b) * y


            g, x, y = extended_gcd(240, 46)
            print(f"240*{x} + 46*{y} = {g}")
            print("modular inverse of 17 mod 3120:", pow(17, -1, 3120))
            bus_a, bus_b, bus_c = 12, 18, 30
            print(f"buses every {bus_a}, {bus_b}, {bus_c} min meet again after "
                  f"{math.lcm(bus_a, bus_b, bus_c)} min")
        """),
        stdout=(
            "gcd(48, 180) =   12   lcm = 720\n"
            "gcd(17, 31) =    1   lcm = 527\n"
            "gcd(1071, 462) =   21   lcm = 23562\n"
            "gcd(1024, 7776) =   32   lcm = 248832\n"
            "gcd of many: 42\n"
            "lcm 1..20: 232792560\n"
            "240*-9 + 46*47 = 2\n"
            "modular inverse of 17 mod 3120: 2753\n"
            "buses every 12, 18, 30 min meet again after 180 min\n"
        ),
    ),
    Case(
        id="cmath-quadratic-roots",
        category="math",
        code=_src(r"""
            import cmath
            import math


            def solve_quadratic(a, b, c):
                disc = b * b - 4 * a * c
                root = cmath.sqrt(disc)
                return (-b + root) / (2 * a), (-b - root) / (2 * a)


            def fmt(z):
                if abs(z.imag) < 1e-12:
                    return f"{z.real:g}"
                return f"{z.real:g}{z.imag:+g}i"


            for coeffs in [(1, -3, 2), (1, 2, 5), (2, 4, 2), (1, 0, 1), (3, -1, -10)]:
                r1, r2 = solve_quadratic(*coeffs)
                print(f"{coeffs}: x1={fmt(r1)}, x2={fmt(r2)}")

            z = complex(3, 4)
            print("abs:", abs(z), "phase (deg):", round(math.degrees(cmath.phase(z)), 4))
            r, phi = cmath.polar(z)
            back = cmath.rect(r, phi)
            print("polar round trip:", complex(round(back.real, 9), round(back.imag, 9)))
            print("e^(i*pi) + 1 ~", complex(round((cmath.exp(1j * math.pi) + 1).real, 12), 0))
        """),
        stdout=(
            "(1, -3, 2): x1=2, x2=1\n"
            "(1, 2, 5): x1=-1+2i, x2=-1-2i\n"
            "(2, 4, 2): x1=-1, x2=-1\n"
            "(1, 0, 1): x1=0+1i, x2=0-1i\n"
            "(3, -1, -10): x1=2, x2=-1.66667\n"
            "abs: 5.0 phase (deg): 53.1301\n"
            "polar round trip: (3+4j)\n"
            "e^(i*pi) + 1 ~ 0j\n"
        ),
    ),
    Case(
        id="matrix-operations-pure",
        category="math",
        code=_src(r"""
            from fractions import Fraction


            def matmul(a, b):
                return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]


            def transpose(m):
                return [list(row) for row in zip(*m)]


            def determinant(m):
                if len(m) == 1:
                    return m[0][0]
                total = 0
                for j in range(len(m)):
                    minor = [row[:j] + row[j + 1:] for row in m[1:]]
                    total += (-1) ** j * m[0][j] * determinant(minor)
                return total


            def inverse(m):
                n = len(m)
                aug = [[Fraction(v) for v in row] + [Fraction(int(i == j)) for j in range(n)]
                       for i, row in enumerate(m)]
                for col in range(n):
                    pivot = next(r for r in range(col, n) if aug[r][col] != 0)
                    aug[col], aug[pivot] = aug[pivot], aug[col]
                    p = aug[col][col]
                    aug[col] = [v / p for v in aug[col]]
                    for r in range(n):
                        if r != col:
                            factor = aug[r][col]
                            aug[r] = [a - factor * b for a, b in zip(aug[r], aug[col])]
                return [row[n:] for row in aug]


            A = [[2, 1, 1], [1, 3, 2], [1, 0, 0]]
            B = [[1, 2], [0, 1], [4, 0]]
            print("A x B =", matmul(A, B))
            print("B^T =", transpose(B))
            print("det(A) =", determinant(A))
            inv = inverse(A)
            print("A^-1 =", [[str(v) for v in row] for row in inv])
            print("A x A^-1 = I:", matmul(A, inv) == [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
        """),
        stdout=(
            "A x B = [[6, 5], [9, 5], [1, 2]]\n"
            "B^T = [[1, 0, 4], [2, 1, 0]]\n"
            "det(A) = -1\n"
            "A^-1 = [['0', '0', '1'], ['-2', '1', '3'], ['3', '-1', '-5']]\n"
            "A x A^-1 = I: True\n"
        ),
    ),
    Case(
        id="newton-method-roots",
        category="math",
        code=_src(r"""
            import math


            def newton(f, df, x0, tol=1e-12, max_iter=50):
                x = x0
                for i in range(1, max_iter + 1):
                    step = f(x) / df(x)
                    x -= step
                    if abs(step) < tol:
                        return x, i
                raise RuntimeError("did not converge")


            def bisection(f, lo, hi, tol=1e-10):
                steps = 0
                while hi - lo > tol:
                    mid = (lo + hi) / 2
                    if f(lo) * f(mid) <= 0:
                        hi = mid
                    else:
                        lo = mid
                    steps += 1
                return (lo + hi) / 2, steps


            for n in (2, 10, 144, 1e6):
                root, iters = newton(lambda x: x * x - n, lambda x: 2 * x, x0=n)
                print(f"sqrt({n:g}) = {root:.10f} in {iters} iterations "
                      f"(math.sqrt: {math.sqrt(n):.10f})")

            root, steps = bisection(lambda x: x ** 3 - x - 2, 1, 2)
            print(f"x^3 - x - 2 = 0 at x = {root:.8f} after {steps} bisection steps")
            root, iters = newton(lambda x: x ** 3 - x - 2, lambda x: 3 * x * x - 1, 1.5)
            print(f"newton agrees: {root:.8f} after {iters} iterations")
        """),
        stdout=(
            "sqrt(2) = 1.4142135624 in 6 iterations (math.sqrt: 1.4142135624)\n"
            "sqrt(10) = 3.1622776602 in 7 iterations (math.sqrt: 3.1622776602)\n"
            "sqrt(144) = 12.0000000000 in 9 iterations (math.sqrt: 12.0000000000)\n"
            "sqrt(1e+06) = 1000.0000000000 in 16 iterations (math.sqrt: 1000.0000000000)\n"
            "x^3 - x - 2 = 0 at x = 1.52137971 after 34 bisection steps\n"
            "newton agrees: 1.52137971 after 4 iterations\n"
        ),
    ),
    Case(
        id="loan-amortisation-schedule",
        category="math",
        code=_src(r"""
            from decimal import ROUND_HALF_UP, Decimal

            CENT = Decimal("0.01")


            def monthly_payment(principal, annual_rate, months):
                r = annual_rate / 12
                return (principal * r / (1 - (1 + r) ** -months)).quantize(CENT, ROUND_HALF_UP)


            principal = Decimal("25000")
            rate = Decimal("0.069")
            months = 36
            payment = monthly_payment(principal, rate, months)
            print(f"Loan {principal:,} at {rate:.1%} over {months} months: payment {payment}")
            print(f"{'month':>5} {'interest':>9} {'principal':>10} {'balance':>10}")
            balance = principal
            total_interest = Decimal("0")
            for month in range(1, months + 1):
                interest = (balance * rate / 12).quantize(CENT, ROUND_HALF_UP)
                repaid = payment - interest if month < months else balance
                balance -= repaid
                total_interest += interest
                if month <= 3 or month > months - 2:
                    print(f"{month:>5} {interest:>9} {repaid:>10} {balance:>10}")
                elif month == 4:
                    print(f"{'...':>5}")
            print(f"total interest paid: {total_interest:,}")
        """),
        stdout=(
            "Loan 25,000 at 6.9% over 36 months: payment 770.78\n"
            "month  interest  principal    balance\n"
            "    1    143.75     627.03   24372.97\n"
            "    2    140.14     630.64   23742.33\n"
            "    3    136.52     634.26   23108.07\n"
            "  ...\n"
            "   35      8.79     761.99     766.55\n"
            "   36      4.41     766.55       0.00\n"
            "total interest paid: 2,748.26\n"
        ),
    ),
    Case(
        id="pascal-triangle-combinatorics",
        category="math",
        code=_src(r"""
            import math

            rows = 10
            for n in range(rows):
                line = " ".join(f"{math.comb(n, k):>3}" for k in range(n + 1))
                print(line.center(rows * 4).rstrip())

            print("C(52, 5) poker hands:", f"{math.comb(52, 5):,}")
            print("P(10, 3) podium orders:", math.perm(10, 3))
            print("20! =", f"{math.factorial(20):,}")
            print("lottery odds 6 of 49: 1 in", f"{math.comb(49, 6):,}")
            catalan = [math.comb(2 * n, n) // (n + 1) for n in range(10)]
            print("Catalan numbers:", catalan)
            print("row 20 sum == 2^20:", sum(math.comb(20, k) for k in range(21)) == 2 ** 20)
        """),
        stdout=(
            "                    1\n"
            "                  1   1\n"
            "                1   2   1\n"
            "              1   3   3   1\n"
            "            1   4   6   4   1\n"
            "          1   5  10  10   5   1\n"
            "        1   6  15  20  15   6   1\n"
            "      1   7  21  35  35  21   7   1\n"
            "    1   8  28  56  70  56  28   8   1\n"
            "  1   9  36  84 126 126  84  36   9   1\n"
            "C(52, 5) poker hands: 2,598,960\n"
            "P(10, 3) podium orders: 720\n"
            "20! = 2,432,902,008,176,640,000\n"
            "lottery odds 6 of 49: 1 in 13,983,816\n"
            "Catalan numbers: [1, 1, 2, 5, 14, 42, 132, 429, 1430, 4862]\n"
            "row 20 sum == 2^20: True\n"
        ),
    ),
    Case(
        id="number-base-conversions",
        category="math",
        code=_src(r"""
            import string

            DIGITS = string.digits + string.ascii_uppercase


            def to_base(n, base):
                if n == 0:
                    return "0"
                sign = "-" if n < 0 else ""
                n = abs(n)
                out = []
                while n:
                    n, rem = divmod(n, base)
                    out.append(DIGITS[rem])
                return sign + "".join(reversed(out))


            for n in (0, 10, 255, 2024, -42, 3_735_928_559):
                print(f"{n:>12}: bin {to_base(n, 2):>34} oct {to_base(n, 8):>12} "
                      f"hex {to_base(n, 16):>9} b36 {to_base(n, 36)}")

            print(int("ff", 16), int("777", 8), int("101010", 2), int("ZZ", 36))
            print(f"{2024:b} {2024:o} {2024:x} {2024:X} {2024:#010b}")
            roman = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                     (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


            def to_roman(n):
                out = ""
                for value, numeral in roman:
                    count, n = divmod(n, value)
                    out += numeral * count
                return out


            print([to_roman(y) for y in (1987, 2024, 3999, 444)])
        """),
        stdout=(
            "           0: bin                                  0 oct            0 hex         0 b3"
            "6 0\n"
            "          10: bin                               1010 oct           12 hex         A b3"
            "6 A\n"
            "         255: bin                           11111111 oct          377 hex        FF b3"
            "6 73\n"
            "        2024: bin                        11111101000 oct         3750 hex       7E8 b3"
            "6 1K8\n"
            "         -42: bin                            -101010 oct          -52 hex       -2A b3"
            "6 -16\n"
            "  3735928559: bin   11011110101011011011111011101111 oct  33653337357 hex  DEADBEEF b3"
            "6 1PS9WXB\n"
            "255 511 42 1295\n"
            "11111101000 3750 7e8 7E8 0b11111101000\n"
            "['MCMLXXXVII', 'MMXXIV', 'MMMCMXCIX', 'CDXLIV']\n"
        ),
    ),
    Case(
        id="normal-distribution-probabilities",
        category="math",
        code=_src(r"""
            from statistics import NormalDist

            heights = NormalDist(mu=170, sigma=8)
            print(f"P(height < 160) = {heights.cdf(160):.4f}")
            print(f"P(160 <= h <= 180) = {heights.cdf(180) - heights.cdf(160):.4f}")
            print(f"90th percentile: {heights.inv_cdf(0.9):.2f} cm")
            print(f"z-score of 186: {heights.zscore(186):.2f}")

            men = NormalDist(178, 7)
            women = NormalDist(165, 6)
            print(f"overlap coefficient: {men.overlap(women):.4f}")
            combined = men + women
            print(f"sum of heights: mean {combined.mean}, stdev {combined.stdev:.3f}")
            scaled = heights * 0.3937
            print(f"in inches: mean {scaled.mean:.2f}, stdev {scaled.stdev:.2f}")
            print("quartiles:", [round(q, 2) for q in heights.quantiles(4)])
        """),
        stdout=(
            "P(height < 160) = 0.1056\n"
            "P(160 <= h <= 180) = 0.7887\n"
            "90th percentile: 180.25 cm\n"
            "z-score of 186: 2.00\n"
            "overlap coefficient: 0.3159\n"
            "sum of heights: mean 343.0, stdev 9.220\n"
            "in inches: mean 66.93, stdev 3.15\n"
            "quartiles: [164.6, 170.0, 175.4]\n"
        ),
    ),
    Case(
        id="json-pretty-roundtrip",
        category="json",
        code=_src(r"""
            import json

            config = {
                "service": "billing",
                "version": 3,
                "features": {
                    "invoices": True,
                    "refunds": False,
                    "currencies": ["EUR", "USD", "GBP"],
                },
                "limits": {"max_items": 500, "timeout_s": 2.5},
                "owner": None,
            }

            pretty = json.dumps(config, indent=2, sort_keys=True)
            print(pretty)
            compact = json.dumps(config, separators=(",", ":"))
            print(len(pretty), "chars pretty vs", len(compact), "compact")
            restored = json.loads(compact)
            print("round trip equal:", restored == config)
            print(json.dumps("caf\u00e9 \u2713"))
            print("ensure_ascii=False keeps non-ASCII:",
                  not json.dumps("caf\u00e9", ensure_ascii=False).isascii())
            print(json.dumps([1.0, 1e20, float("inf")]), json.dumps({"k": (1, 2)}))
        """),
        stdout=(
            "{\n"
            '  "features": {\n'
            '    "currencies": [\n'
            '      "EUR",\n'
            '      "USD",\n'
            '      "GBP"\n'
            "    ],\n"
            '    "invoices": true,\n'
            '    "refunds": false\n'
            "  },\n"
            '  "limits": {\n'
            '    "max_items": 500,\n'
            '    "timeout_s": 2.5\n'
            "  },\n"
            '  "owner": null,\n'
            '  "service": "billing",\n'
            '  "version": 3\n'
            "}\n"
            "250 chars pretty vs 167 compact\n"
            "round trip equal: True\n"
            '"caf\\u00e9 \\u2713"\n'
            "ensure_ascii=False keeps non-ASCII: True\n"
            '[1.0, 1e+20, Infinity] {"k": [1, 2]}\n'
        ),
    ),
    Case(
        id="json-custom-encoder",
        category="json",
        code=_src(r"""
            import json
            from dataclasses import asdict, dataclass
            from datetime import date, datetime, timezone
            from decimal import Decimal
            from enum import Enum


            class Status(Enum):
                PAID = "paid"
                OPEN = "open"


            @dataclass
            class Invoice:
                number: str
                issued: date
                amount: Decimal
                status: Status
                tags: frozenset


            class AppEncoder(json.JSONEncoder):
                def default(self, o):
                    if isinstance(o, datetime | date):
                        return o.isoformat()
                    if isinstance(o, Decimal):
                        return str(o)
                    if isinstance(o, Enum):
                        return o.value
                    if isinstance(o, set | frozenset):
                        return sorted(o)
                    return super().default(o)


            invoices = [
                Invoice("INV-001", date(2024, 4, 1), Decimal("199.90"), Status.PAID,
                        frozenset({"b2b"})),
                Invoice("INV-002", date(2024, 4, 9), Decimal("45.00"), Status.OPEN,
                        frozenset({"retail", "promo"})),
            ]
            payload = {
                "generated": datetime(2024, 4, 10, 8, 30, tzinfo=timezone.utc),
                "invoices": [asdict(i) for i in invoices],
            }
            print(json.dumps(payload, cls=AppEncoder, indent=1))
            try:
                json.dumps({"bad": object()}, cls=AppEncoder)
            except TypeError as exc:
                print("TypeError:", str(exc).split(" is ")[-1])
        """),
        stdout=(
            "{\n"
            ' "generated": "2024-04-10T08:30:00+00:00",\n'
            ' "invoices": [\n'
            "  {\n"
            '   "number": "INV-001",\n'
            '   "issued": "2024-04-01",\n'
            '   "amount": "199.90",\n'
            '   "status": "paid",\n'
            '   "tags": [\n'
            '    "b2b"\n'
            "   ]\n"
            "  },\n"
            "  {\n"
            '   "number": "INV-002",\n'
            '   "issued": "2024-04-09",\n'
            '   "amount": "45.00",\n'
            '   "status": "open",\n'
            '   "tags": [\n'
            '    "promo",\n'
            '    "retail"\n'
            "   ]\n"
            "  }\n"
            " ]\n"
            "}\n"
            "TypeError: not JSON serializable\n"
        ),
    ),
    Case(
        id="json-object-hook-decoding",
        category="json",
        code=_src(r'''
            import json
            from dataclasses import dataclass
            from datetime import date


            @dataclass
            class Task:
                title: str
                due: date
                done: bool = False


            def decode(obj):
                if {"title", "due"} <= obj.keys():
                    due = date.fromisoformat(obj["due"])
                    return Task(obj["title"], due, obj.get("done", False))
                return obj


            DOCUMENT = """
            {
              "project": "website relaunch",
              "tasks": [
                {"title": "write copy", "due": "2024-07-01", "done": true},
                {"title": "design mockups", "due": "2024-06-20"},
                {"title": "set up CI", "due": "2024-06-15", "done": true},
                {"title": "launch", "due": "2024-07-15"}
              ]
            }
            """

            data = json.loads(DOCUMENT, object_hook=decode)
            print(data["project"], "-", len(data["tasks"]), "tasks")
            for task in sorted(data["tasks"], key=lambda t: t.due):
                print(f"  [{'x' if task.done else ' '}] {task.due:%b %d}  {task.title}")
            remaining = [t.title for t in data["tasks"] if not t.done]
            print("remaining:", remaining)
            pairs = json.loads('{"a": 1, "a": 2, "b": 3}', object_pairs_hook=list)
            print("duplicate keys seen:", pairs)
        '''),
        stdout=(
            "website relaunch - 4 tasks\n"
            "  [x] Jun 15  set up CI\n"
            "  [ ] Jun 20  design mockups\n"
            "  [x] Jul 01  write copy\n"
            "  [ ] Jul 15  launch\n"
            "remaining: ['design mockups', 'launch']\n"
            "duplicate keys seen: [('a', 1), ('a', 2), ('b', 3)]\n"
        ),
    ),
    Case(
        id="json-flatten-nested",
        category="json",
        code=_src(r'''
            import json


            def flatten(value, prefix=""):
                items = {}
                if isinstance(value, dict):
                    for key, child in value.items():
                        items.update(flatten(child, f"{prefix}.{key}" if prefix else key))
                elif isinstance(value, list):
                    for index, child in enumerate(value):
                        items.update(flatten(child, f"{prefix}[{index}]"))
                else:
                    items[prefix] = value
                return items


            def unflatten(flat):
                root = {}
                for path, value in flat.items():
                    node = root
                    parts = path.replace("[", ".").replace("]", "").split(".")
                    for part, nxt in zip(parts, parts[1:]):
                        node = node.setdefault(part, {})
                    node[parts[-1]] = value
                return root


            doc = json.loads("""
            {"user": {"id": 7, "name": "Mia", "roles": ["admin", "dev"],
                      "prefs": {"theme": "dark", "alerts": {"email": true, "sms": false}}},
             "active": true}
            """)
            flat = flatten(doc)
            for key, value in flat.items():
                print(f"{key:<24} = {json.dumps(value)}")
            print(json.dumps(unflatten({"a.b": 1, "a.c.d": 2, "e": 3}), sort_keys=True))
        '''),
        stdout=(
            "user.id                  = 7\n"
            'user.name                = "Mia"\n'
            'user.roles[0]            = "admin"\n'
            'user.roles[1]            = "dev"\n'
            'user.prefs.theme         = "dark"\n'
            "user.prefs.alerts.email  = true\n"
            "user.prefs.alerts.sms    = false\n"
            "active                   = true\n"
            '{"a": {"b": 1, "c": {"d": 2}}, "e": 3}\n'
        ),
    ),
    Case(
        id="json-schema-validation",
        category="json",
        code=_src(r'''
            import json

            TYPES = {"string": str, "integer": int, "array": list, "boolean": bool}
            SCHEMA = {
                "name": {"type": "string", "required": True},
                "age": {"type": "integer", "required": True, "min": 0, "max": 150},
                "email": {"type": "string", "required": False, "contains": "@"},
                "tags": {"type": "array", "required": False},
            }


            def validate(record):
                errors = []
                for field, rules in SCHEMA.items():
                    if field not in record:
                        if rules["required"]:
                            errors.append(f"{field}: required")
                        continue
                    value = record[field]
                    expected = TYPES[rules["type"]]
                    is_bool = isinstance(value, bool)
                    if not isinstance(value, expected) or (expected is int and is_bool):
                        errors.append(f"{field}: expected {rules['type']}, got {json.dumps(value)}")
                        continue
                    if "min" in rules and value < rules["min"]:
                        errors.append(f"{field}: {value} < {rules['min']}")
                    if "max" in rules and value > rules["max"]:
                        errors.append(f"{field}: {value} > {rules['max']}")
                    if "contains" in rules and rules["contains"] not in value:
                        errors.append(f"{field}: must contain {rules['contains']!r}")
                unknown = sorted(set(record) - set(SCHEMA))
                errors.extend(f"{field}: unknown field" for field in unknown)
                return errors


            RECORDS = """[
              {"name": "Ana", "age": 34, "email": "ana@example.com"},
              {"name": "Bo", "age": "forty"},
              {"age": 200, "email": "nobody"},
              {"name": "Cy", "age": true, "tags": ["x"], "nickname": "c", "admin": false}
            ]"""

            for i, record in enumerate(json.loads(RECORDS), start=1):
                errors = validate(record)
                print(f"record {i}: {'valid' if not errors else 'invalid'}")
                for error in errors:
                    print(f"  - {error}")
        '''),
        stdout=(
            "record 1: valid\n"
            "record 2: invalid\n"
            '  - age: expected integer, got "forty"\n'
            "record 3: invalid\n"
            "  - name: required\n"
            "  - age: 200 > 150\n"
            "  - email: must contain '@'\n"
            "record 4: invalid\n"
            "  - age: expected integer, got true\n"
            "  - admin: unknown field\n"
            "  - nickname: unknown field\n"
        ),
    ),
    Case(
        id="json-lines-aggregation",
        category="json",
        code=_src(r'''
            import json
            from collections import Counter, defaultdict

            JSONL = """\
            {"ts": "2024-05-01T10:00:01Z", "level": "INFO", "service": "api", "latency_ms": 31}
            {"ts": "2024-05-01T10:00:02Z", "level": "WARN", "service": "api", "latency_ms": 480}
            {"ts": "2024-05-01T10:00:02Z", "level": "INFO", "service": "worker", "latency_ms": 12}
            not json at all
            {"ts": "2024-05-01T10:00:03Z", "level": "ERROR", "service": "api", "latency_ms": 1500}
            {"ts": "2024-05-01T10:00:04Z", "level": "INFO", "service": "worker", "latency_ms": 18}

            {"ts": "2024-05-01T10:00:05Z", "level": "INFO", "service": "api", "latency_ms": 44}
            """

            levels = Counter()
            latency = defaultdict(list)
            bad_lines = []
            for lineno, line in enumerate(JSONL.splitlines(), start=1):
                if not line.strip():
                    continue
                try:
                    event = json.loads(line)
                except json.JSONDecodeError as exc:
                    bad_lines.append((lineno, exc.msg))
                    continue
                levels[event["level"]] += 1
                latency[event["service"]].append(event["latency_ms"])

            print("levels:", dict(levels.most_common()))
            for service, values in sorted(latency.items()):
                avg = sum(values) / len(values)
                print(f"{service:<7} n={len(values)} avg={avg:.1f}ms max={max(values)}ms")
            print("skipped:", bad_lines)
            summary = {"events": sum(levels.values()), "errors": levels["ERROR"]}
            print(json.dumps(summary))
        '''),
        stdout=(
            "levels: {'INFO': 4, 'WARN': 1, 'ERROR': 1}\n"
            "api     n=4 avg=513.8ms max=1500ms\n"
            "worker  n=2 avg=15.0ms max=18ms\n"
            "skipped: [(4, 'Expecting value')]\n"
            '{"events": 6, "errors": 1}\n'
        ),
    ),
    Case(
        id="json-deep-merge-config",
        category="json",
        code=_src(r'''
            import copy
            import json

            DEFAULTS = json.loads("""
            {"server": {"host": "127.0.0.1", "port": 8000, "tls": {"enabled": false}},
             "logging": {"level": "INFO", "handlers": ["console"]},
             "features": ["search"]}
            """)

            OVERRIDES = json.loads("""
            {"server": {"port": 443, "tls": {"enabled": true, "cert": "/etc/tls/site.pem"}},
             "logging": {"handlers": ["console", "file"]},
             "debug": false}
            """)


            def deep_merge(base, override):
                merged = copy.deepcopy(base)
                for key, value in override.items():
                    if isinstance(value, dict) and isinstance(merged.get(key), dict):
                        merged[key] = deep_merge(merged[key], value)
                    else:
                        merged[key] = copy.deepcopy(value)
                return merged


            config = deep_merge(DEFAULTS, OVERRIDES)
            print(json.dumps(config, indent=2))
            print("defaults untouched:", DEFAULTS["server"]["port"], DEFAULTS["server"]["tls"])
        '''),
        stdout=(
            "{\n"
            '  "server": {\n'
            '    "host": "127.0.0.1",\n'
            '    "port": 443,\n'
            '    "tls": {\n'
            '      "enabled": true,\n'
            '      "cert": "/etc/tls/site.pem"\n'
            "    }\n"
            "  },\n"
            '  "logging": {\n'
            '    "level": "INFO",\n'
            '    "handlers": [\n'
            '      "console",\n'
            '      "file"\n'
            "    ]\n"
            "  },\n"
            '  "features": [\n'
            '    "search"\n'
            "  ],\n"
            '  "debug": false\n'
            "}\n"
            "defaults untouched: 8000 {'enabled': False}\n"
        ),
    ),
    Case(
        id="json-diff-documents",
        category="json",
        code=_src(r"""
            import json


            def diff(old, new, path="$"):
                changes = []
                if isinstance(old, dict) and isinstance(new, dict):
                    for key in sorted(old.keys() | new.keys()):
                        child = f"{path}.{key}"
                        if key not in new:
                            changes.append(f"- {child}: {json.dumps(old[key])}")
                        elif key not in old:
                            changes.append(f"+ {child}: {json.dumps(new[key])}")
                        else:
                            changes.extend(diff(old[key], new[key], child))
                elif isinstance(old, list) and isinstance(new, list):
                    for i in range(max(len(old), len(new))):
                        child = f"{path}[{i}]"
                        if i >= len(new):
                            changes.append(f"- {child}: {json.dumps(old[i])}")
                        elif i >= len(old):
                            changes.append(f"+ {child}: {json.dumps(new[i])}")
                        else:
                            changes.extend(diff(old[i], new[i], child))
                elif old != new:
                    changes.append(f"~ {path}: {json.dumps(old)} -> {json.dumps(new)}")
                return changes


            before = json.loads('{"name": "api", "replicas": 2, "ports": [80, 443], '
                                '"env": {"LOG": "info", "REGION": "eu"}}')
            after = json.loads('{"name": "api", "replicas": 4, "ports": [80, 443, 8080], '
                               '"env": {"LOG": "debug"}, "owner": "team-a"}')
            for change in diff(before, after):
                print(change)
        """),
        stdout=(
            '~ $.env.LOG: "info" -> "debug"\n'
            '- $.env.REGION: "eu"\n'
            '+ $.owner: "team-a"\n'
            "+ $.ports[2]: 8080\n"
            "~ $.replicas: 2 -> 4\n"
        ),
    ),
    Case(
        id="json-canonical-hash",
        category="json",
        code=_src(r"""
            import hashlib
            import json


            def canonical(obj):
                return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


            def fingerprint(obj):
                return hashlib.sha256(canonical(obj).encode()).hexdigest()[:16]


            a = {"id": 17, "tags": ["x", "y"], "meta": {"b": 2, "a": 1}}
            b = {"meta": {"a": 1, "b": 2}, "tags": ["x", "y"], "id": 17}
            c = {"id": 17, "tags": ["y", "x"], "meta": {"a": 1, "b": 2}}

            print(canonical(a))
            for name, doc in (("a", a), ("b", b), ("c", c)):
                print(name, fingerprint(doc))
            print("a == b by hash:", fingerprint(a) == fingerprint(b))
            print("a == c by hash:", fingerprint(a) == fingerprint(c))
        """),
        stdout=(
            '{"id":17,"meta":{"a":1,"b":2},"tags":["x","y"]}\n'
            "a af587ec0a0d6081d\n"
            "b af587ec0a0d6081d\n"
            "c fbb569ea9dd45208\n"
            "a == b by hash: True\n"
            "a == c by hash: False\n"
        ),
    ),
    Case(
        id="json-decode-errors",
        category="json",
        code=_src(r"""
            import json

            samples = [
                '{"name": "ok", "n": 1}',
                '{"name": "trailing comma",}',
                "{'single': 'quotes'}",
                '[1, 2, 3',
                '{"n": NaN}',
                '"just a string"',
                "",
            ]

            for text in samples:
                try:
                    value = json.loads(text)
                except json.JSONDecodeError as exc:
                    print(f"{text!r:32} error at line {exc.lineno} col {exc.colno}: {exc.msg}")
                else:
                    print(f"{text!r:32} ok -> {value!r}")
        """),
        stdout=(
            "'{\"name\": \"ok\", \"n\": 1}'         ok -> {'name': 'ok', 'n': 1}\n"
            # CPython 3.13's message (3.12 said "Expecting property name ..." at col 27).
            "'{\"name\": \"trailing comma\",}'    error at line 1 col 26: Illegal trailing comma "
            "before end of object\n"
            "\"{'single': 'quotes'}\"           error at line 1 col 2: Expecting property name encl"
            "osed in double quotes\n"
            "'[1, 2, 3'                       error at line 1 col 9: Expecting ',' delimiter\n"
            "'{\"n\": NaN}'                     ok -> {'n': nan}\n"
            "'\"just a string\"'                ok -> 'just a string'\n"
            "''                               error at line 1 col 1: Expecting value\n"
        ),
    ),
    Case(
        id="json-to-csv-export",
        category="json",
        code=_src(r'''
            import csv
            import io
            import json

            API_RESPONSE = """
            {"results": [
              {"id": 1, "name": "Desk lamp", "price": 24.5, "stock": {"eu": 10, "us": 3}},
              {"id": 2, "name": "Chair, ergonomic", "price": 189.0, "stock": {"eu": 0, "us": 7}},
              {"id": 3, "name": "Monitor \\"27\\"", "price": 279.99, "stock": {"eu": 5}}
            ], "next": null}
            """

            rows = json.loads(API_RESPONSE)["results"]
            regions = sorted({region for row in rows for region in row["stock"]})
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
            header = ["id", "name", "price", *[f"stock_{r}" for r in regions], "total_stock"]
            writer.writerow(header)
            for row in rows:
                stock = [row["stock"].get(r, 0) for r in regions]
                writer.writerow([row["id"], row["name"], f"{row['price']:.2f}", *stock, sum(stock)])
            print(buffer.getvalue(), end="")

            parsed = list(csv.DictReader(io.StringIO(buffer.getvalue())))
            print("parsed back:", [r["name"] for r in parsed])
        '''),
        stdout=(
            "id,name,price,stock_eu,stock_us,total_stock\n"
            "1,Desk lamp,24.50,10,3,13\n"
            '2,"Chair, ergonomic",189.00,0,7,7\n'
            '3,"Monitor ""27""",279.99,5,0,5\n'
            "parsed back: ['Desk lamp', 'Chair, ergonomic', 'Monitor \"27\"']\n"
        ),
    ),
    Case(
        id="regex-log-named-groups",
        category="regex",
        code=_src(r'''
            import re
            from collections import Counter

            LOG = """\
            2024-05-06 09:12:01,331 INFO  [auth] user=alice action=login ip=10.0.0.5
            2024-05-06 09:12:07,002 WARN  [auth] user=bob action=login ip=10.0.0.9 reason=bad_pw
            2024-05-06 09:13:44,870 ERROR [db] query timeout after 30s table=orders
            2024-05-06 09:14:02,114 INFO  [auth] user=bob action=login ip=10.0.0.9
            2024-05-06 09:15:30,500 ERROR [api] status=502 upstream=payments
            malformed line without structure
            """

            LINE = re.compile(
                r"^(?P<date>\d{4}-\d{2}-\d{2}) (?P<time>[\d:]+),(?P<ms>\d{3}) "
                r"(?P<level>[A-Z]+)\s+\[(?P<component>\w+)\] (?P<message>.*)$"
            )
            PAIR = re.compile(r"(\w+)=(\S+)")

            levels = Counter()
            for raw in LOG.splitlines():
                m = LINE.match(raw)
                if not m:
                    print(f"unparsed: {raw!r}")
                    continue
                levels[m["level"]] += 1
                fields = dict(PAIR.findall(m["message"]))
                if m["level"] != "INFO":
                    print(f"{m['time']} {m['level']:<5} {m['component']:<4} {fields}")
            print(dict(levels))
        '''),
        stdout=(
            "09:12:07 WARN  auth {'user': 'bob', 'action': 'login', 'ip': '10.0.0.9', 'reason': 'ba"
            "d_pw'}\n"
            "09:13:44 ERROR db   {'table': 'orders'}\n"
            "09:15:30 ERROR api  {'status': '502', 'upstream': 'payments'}\n"
            "unparsed: 'malformed line without structure'\n"
            "{'INFO': 2, 'WARN': 1, 'ERROR': 2}\n"
        ),
    ),
    Case(
        id="regex-email-validation",
        category="regex",
        code=_src(r"""
            import re

            EMAIL = re.compile(
                r"^(?P<local>[A-Za-z0-9._%+-]+)@(?P<domain>(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})$"
            )

            candidates = [
                "jane.doe@example.com",
                "john+newsletter@mail.example.co.uk",
                "no-at-sign.example.com",
                "two@@example.com",
                "trailing.dot@example.",
                "UPPER@EXAMPLE.ORG",
                "spaces in@example.com",
                "x@y.io",
            ]
            for address in candidates:
                m = EMAIL.match(address)
                if m:
                    domain = m["domain"].lower()
                    print(f"valid    {address:<36} local={m['local']!r} domain={domain!r}")
                else:
                    print(f"invalid  {address}")

            text = "Contact sales@acme.test or support@acme.test; not me@localhost."
            print(re.findall(r"[\w.+-]+@[\w-]+\.[\w.]+\w", text))
        """),
        stdout=(
            "valid    jane.doe@example.com                 local='jane.doe' domain='example.com'\n"
            "valid    john+newsletter@mail.example.co.uk   local='john+newsletter' domain='mail.exa"
            "mple.co.uk'\n"
            "invalid  no-at-sign.example.com\n"
            "invalid  two@@example.com\n"
            "invalid  trailing.dot@example.\n"
            "valid    UPPER@EXAMPLE.ORG                    local='UPPER' domain='example.org'\n"
            "invalid  spaces in@example.com\n"
            "valid    x@y.io                               local='x' domain='y.io'\n"
            "['sales@acme.test', 'support@acme.test']\n"
        ),
    ),
    Case(
        id="regex-extract-dates",
        category="regex",
        code=_src(r'''
            import re
            from datetime import date

            TEXT = """
            Invoice dated 2024-03-07, payment due 07/04/2024 (DD/MM/YYYY).
            Shipped on March 9, 2024 and delivered 12 Mar 2024. Bad date: 2024-13-45.
            """

            MONTH_NAMES = "jan feb mar apr may jun jul aug sep oct nov dec".split()
            MONTHS = {m: i for i, m in enumerate(MONTH_NAMES, 1)}

            patterns = [
                (r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda y, m, d: (y, m, d)),
                (r"\b(\d{2})/(\d{2})/(\d{4})\b", lambda d, m, y: (y, m, d)),
                (r"\b([A-Z][a-z]+) (\d{1,2}), (\d{4})\b",
                 lambda mon, d, y: (y, MONTHS[mon[:3].lower()], d)),
                (r"\b(\d{1,2}) ([A-Z][a-z]{2}) (\d{4})\b",
                 lambda d, mon, y: (y, MONTHS[mon.lower()], d)),
            ]

            found = []
            for pattern, to_ymd in patterns:
                for match in re.finditer(pattern, TEXT):
                    y, m, d = (int(v) for v in to_ymd(*match.groups()))
                    try:
                        found.append((match.start(), match.group(0), date(y, m, d)))
                    except ValueError as exc:
                        print(f"skipping {match.group(0)!r}: {exc}")
            for _, text, value in sorted(found):
                print(f"{text:<16} -> {value.isoformat()}")
        '''),
        stdout=(
            "skipping '2024-13-45': month must be in 1..12\n"
            "2024-03-07       -> 2024-03-07\n"
            "07/04/2024       -> 2024-04-07\n"
            "March 9, 2024    -> 2024-03-09\n"
            "12 Mar 2024      -> 2024-03-12\n"
        ),
    ),
    Case(
        id="regex-sub-templating",
        category="regex",
        code=_src(r"""
            import re

            TEMPLATE = "Hi {{ name }}, your {{plan|upper}} plan renews on {{ renews }}. {{ gift }}"
            context = {"name": "Sam", "plan": "pro", "renews": "2024-09-01"}
            FILTERS = {"upper": str.upper, "lower": str.lower, "title": str.title}


            def render(template, values):
                def replace(match):
                    name, _, filt = match.group(1).partition("|")
                    value = values.get(name.strip())
                    if value is None:
                        return f"<{name.strip()}?>"
                    return FILTERS[filt.strip()](value) if filt else str(value)

                return re.sub(r"\{\{\s*([\w|]+)\s*\}\}", replace, template)


            print(render(TEMPLATE, context))
            print(re.sub(r"(\d{3})(\d{3})(\d{4})", r"(\1) \2-\3", "call 5551234567 now"))
            print(re.sub(r"\s+", " ", "  too    many   spaces\there  ").strip())
            snake = re.sub(r"(?<!^)(?=[A-Z])", "_", "parseHttpResponseCode").lower()
            print(snake, "->", re.sub(r"_([a-z])", lambda m: m.group(1).upper(), snake))
            print(re.subn(r"colou?r", "hue", "color, colour, colr"))
        """),
        stdout=(
            "Hi Sam, your PRO plan renews on 2024-09-01. <gift?>\n"
            "call (555) 123-4567 now\n"
            "too many spaces here\n"
            "parse_http_response_code -> parseHttpResponseCode\n"
            "('hue, hue, colr', 2)\n"
        ),
    ),
    Case(
        id="regex-tokenizer-calculator",
        category="regex",
        code=_src(r'''
            import re

            TOKEN = re.compile(r"""
                (?P<NUMBER>\d+(?:\.\d+)?)
              | (?P<OP>[-+*/^])
              | (?P<LPAREN>\()
              | (?P<RPAREN>\))
              | (?P<SPACE>\s+)
              | (?P<ERROR>.)
            """, re.VERBOSE)

            PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 3}


            def tokenize(expr):
                for m in TOKEN.finditer(expr):
                    kind = m.lastgroup
                    if kind == "SPACE":
                        continue
                    if kind == "ERROR":
                        raise SyntaxError(f"unexpected {m.group()!r} at {m.start()}")
                    yield kind, m.group()


            def to_rpn(tokens):
                output, ops = [], []
                for kind, value in tokens:
                    if kind == "NUMBER":
                        output.append(float(value))
                    elif kind == "OP":
                        while (ops and ops[-1] in PRECEDENCE and
                               (PRECEDENCE[ops[-1]] > PRECEDENCE[value] or
                                (PRECEDENCE[ops[-1]] == PRECEDENCE[value] and value != "^"))):
                            output.append(ops.pop())
                        ops.append(value)
                    elif kind == "LPAREN":
                        ops.append(value)
                    else:
                        while ops[-1] != "(":
                            output.append(ops.pop())
                        ops.pop()
                return output + ops[::-1]


            def evaluate(rpn):
                stack = []
                apply = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
                         "/": lambda a, b: a / b, "^": lambda a, b: a ** b}
                for item in rpn:
                    if isinstance(item, float):
                        stack.append(item)
                    else:
                        b, a = stack.pop(), stack.pop()
                        stack.append(apply[item](a, b))
                return stack[0]


            for expr in ["3 + 4 * 2", "(1 + 2) * (3 + 4)", "2 ^ 3 ^ 2", "10 / 4 - 0.5", "7 $ 2"]:
                try:
                    rpn = to_rpn(tokenize(expr))
                    print(f"{expr:<18} rpn={' '.join(str(t).removesuffix('.0') for t in rpn):<16} "
                          f"= {evaluate(rpn):g}")
                except SyntaxError as exc:
                    print(f"{expr:<18} error: {exc}")
        '''),
        stdout=(
            "3 + 4 * 2          rpn=3 4 2 * +        = 11\n"
            "(1 + 2) * (3 + 4)  rpn=1 2 + 3 4 + *    = 21\n"
            "2 ^ 3 ^ 2          rpn=2 3 2 ^ ^        = 512\n"
            "10 / 4 - 0.5       rpn=10 4 / 0.5 -     = 2\n"
            "7 $ 2              error: unexpected '$' at 2\n"
        ),
    ),
    Case(
        id="regex-split-delimiters",
        category="regex",
        code=_src(r"""
            import re

            raw_tags = "python, data-science;ML  |  statistics;;  Visualisation ,python"
            tags = [t.strip().lower() for t in re.split(r"[,;|]+", raw_tags) if t.strip()]
            print("tags:", tags)
            print("unique:", sorted(set(tags)))

            sentence = "Hello there! How are you? I'm fine. Thanks... bye"
            print(re.split(r"(?<=[.!?])\s+", sentence))
            print(re.split(r"(\d+)", "abc12def345g"))
            print(re.split(r"\s*=\s*", "key = value = more", maxsplit=1))
            csv_like = 'a,"b,c",d'
            print(re.findall(r'"[^"]*"|[^,]+', csv_like))
            print(re.split(r"\b", "one two")[1:-1])
        """),
        stdout=(
            "tags: ['python', 'data-science', 'ml', 'statistics', 'visualisation', 'python']\n"
            "unique: ['data-science', 'ml', 'python', 'statistics', 'visualisation']\n"
            "['Hello there!', 'How are you?', \"I'm fine.\", 'Thanks...', 'bye']\n"
            "['abc', '12', 'def', '345', 'g']\n"
            "['key', 'value = more']\n"
            "['a', '\"b,c\"', 'd']\n"
            "['one', ' ', 'two']\n"
        ),
    ),
    Case(
        id="regex-phone-normalise",
        category="regex",
        code=_src(r"""
            import re

            numbers = [
                "(555) 123-4567",
                "555.123.4567",
                "+1 555 123 4567",
                "1-555-123-4567",
                "5551234567",
                "555-1234",
                "+44 20 7946 0958",
                "call me maybe",
            ]

            US = re.compile(r"^(?:\+?1[\s.-]?)?\(?(\d{3})\)?[\s.-]?(\d{3})[\s.-]?(\d{4})$")
            INTL = re.compile(r"^\+(\d{1,3})[\s\d]+$")

            for raw in numbers:
                if m := US.match(raw):
                    print(f"{raw:<18} -> +1 ({m[1]}) {m[2]}-{m[3]}")
                elif INTL.match(raw):
                    digits = re.sub(r"\D", "", raw)
                    print(f"{raw:<18} -> +{digits} (international)")
                else:
                    print(f"{raw:<18} -> not a phone number")
        """),
        stdout=(
            "(555) 123-4567     -> +1 (555) 123-4567\n"
            "555.123.4567       -> +1 (555) 123-4567\n"
            "+1 555 123 4567    -> +1 (555) 123-4567\n"
            "1-555-123-4567     -> +1 (555) 123-4567\n"
            "5551234567         -> +1 (555) 123-4567\n"
            "555-1234           -> not a phone number\n"
            "+44 20 7946 0958   -> +442079460958 (international)\n"
            "call me maybe      -> not a phone number\n"
        ),
    ),
    Case(
        id="regex-apache-access-log",
        category="regex",
        code=_src(r'''
            import re
            import statistics
            from collections import Counter

            ACCESS_LOG = """\
            203.0.113.7 - - [10/Jun/2024:13:55:36 +0000] "GET /index.html HTTP/1.1" 200 2326
            203.0.113.7 - - [10/Jun/2024:13:55:37 +0000] "GET /style.css HTTP/1.1" 200 912
            198.51.100.23 - bob [10/Jun/2024:13:56:01 +0000] "POST /api/login HTTP/1.1" 401 112
            198.51.100.23 - bob [10/Jun/2024:13:56:05 +0000] "POST /api/login HTTP/1.1" 200 87
            192.0.2.44 - - [10/Jun/2024:13:57:12 +0000] "GET /missing HTTP/1.1" 404 0
            203.0.113.7 - - [10/Jun/2024:13:58:40 +0000] "GET /api/items?page=2 HTTP/1.1" 200 5120
            192.0.2.44 - - [10/Jun/2024:13:59:59 +0000] "DELETE /api/items/9 HTTP/1.1" 500 64
            """

            PATTERN = re.compile(
                r'(?P<ip>\S+) \S+ (?P<user>\S+) \[(?P<when>[^\]]+)\] '
                r'"(?P<method>[A-Z]+) (?P<path>\S+) [^"]+" (?P<status>\d{3}) (?P<size>\d+)'
            )

            entries = [m.groupdict() for m in PATTERN.finditer(ACCESS_LOG)]
            print(f"{len(entries)} requests")
            print("by status:", dict(sorted(Counter(e["status"] for e in entries).items())))
            print("by ip:", Counter(e["ip"] for e in entries).most_common(2))
            sizes = [int(e["size"]) for e in entries if e["status"] == "200"]
            print(f"mean 200 response size: {statistics.mean(sizes):.0f} bytes")
            errors = [
                f"{e['method']} {e['path']} -> {e['status']}"
                for e in entries
                if e["status"] >= "400"
            ]
            print("errors:", errors)
            users = sorted({e["user"] for e in entries if e["user"] != "-"})
            print("authenticated users:", users)
        '''),
        stdout=(
            "7 requests\n"
            "by status: {'200': 4, '401': 1, '404': 1, '500': 1}\n"
            "by ip: [('203.0.113.7', 3), ('198.51.100.23', 2)]\n"
            "mean 200 response size: 2111 bytes\n"
            "errors: ['POST /api/login -> 401', 'GET /missing -> 404', 'DELETE /api/items/9 -> 500'"
            "]\n"
            "authenticated users: ['bob']\n"
        ),
    ),
    Case(
        id="regex-markdown-toc",
        category="regex",
        code=_src(r'''
            import re

            MARKDOWN = """\
            # Getting Started
            Some intro text.
            ## Installation
            ### From PyPI
            ### From source
            ## Configuration & Settings
            ```
            # not a heading inside code
            ```
            ## FAQ: Common Problems?
            # API Reference
            ## `Client` class
            """


            def anchor(title):
                text = re.sub(r"[`*_]", "", title).lower()
                text = re.sub(r"[^\w\s-]", "", text)
                return re.sub(r"\s+", "-", text.strip())


            in_code = False
            toc = []
            for line in MARKDOWN.splitlines():
                if line.startswith("```"):
                    in_code = not in_code
                    continue
                if not in_code and (m := re.match(r"^(#{1,6})\s+(.+?)\s*#*$", line)):
                    level, title = len(m.group(1)), m.group(2)
                    label = title.replace("`", "")
                    toc.append(f"{'  ' * (level - 1)}- [{label}](#{anchor(title)})")
            print("\n".join(toc))
        '''),
        stdout=(
            "- [Getting Started](#getting-started)\n"
            "  - [Installation](#installation)\n"
            "    - [From PyPI](#from-pypi)\n"
            "    - [From source](#from-source)\n"
            "  - [Configuration & Settings](#configuration-settings)\n"
            "  - [FAQ: Common Problems?](#faq-common-problems)\n"
            "- [API Reference](#api-reference)\n"
            "  - [Client class](#client-class)\n"
        ),
    ),
    Case(
        id="regex-verbose-version-parse",
        category="regex",
        code=_src(r'''
            import re

            SEMVER = re.compile(r"""
                ^v?
                (?P<major>0|[1-9]\d*)\.
                (?P<minor>0|[1-9]\d*)\.
                (?P<patch>0|[1-9]\d*)
                (?:-(?P<pre>[0-9A-Za-z.-]+))?     # pre-release, e.g. -rc.1
                (?:\+(?P<build>[0-9A-Za-z.-]+))?  # build metadata, e.g. +sha.5114f85
                $
            """, re.VERBOSE)


            def sort_key(version):
                m = SEMVER.match(version)
                core = tuple(int(m[p]) for p in ("major", "minor", "patch"))
                pre = m["pre"]
                pre_key = (1,) if pre is None else (0, *[(0, int(p)) if p.isdigit() else (1, p)
                                                          for p in pre.split(".")])
                return core, pre_key


            versions = ["1.0.0", "v2.1.3", "1.0.0-rc.1", "1.0.0-alpha", "1.10.0", "1.2.0+build.7",
                        "1.0.0-alpha.beta", "01.2.3", "1.2", "1.0.0-rc.10"]
            valid = []
            for v in versions:
                m = SEMVER.match(v)
                if m:
                    valid.append(v)
                    print(f"{v:<18} {m.groupdict()}")
                else:
                    print(f"{v:<18} invalid")
            print("sorted:", sorted(valid, key=sort_key))
        '''),
        stdout=(
            "1.0.0              {'major': '1', 'minor': '0', 'patch': '0', 'pre': None, 'build': No"
            "ne}\n"
            "v2.1.3             {'major': '2', 'minor': '1', 'patch': '3', 'pre': None, 'build': No"
            "ne}\n"
            "1.0.0-rc.1         {'major': '1', 'minor': '0', 'patch': '0', 'pre': 'rc.1', 'build': "
            "None}\n"
            "1.0.0-alpha        {'major': '1', 'minor': '0', 'patch': '0', 'pre': 'alpha', 'build':"
            " None}\n"
            "1.10.0             {'major': '1', 'minor': '10', 'patch': '0', 'pre': None, 'build': N"
            "one}\n"
            "1.2.0+build.7      {'major': '1', 'minor': '2', 'patch': '0', 'pre': None, 'build': 'b"
            "uild.7'}\n"
            "1.0.0-alpha.beta   {'major': '1', 'minor': '0', 'patch': '0', 'pre': 'alpha.beta', 'bu"
            "ild': None}\n"
            "01.2.3             invalid\n"
            "1.2                invalid\n"
            "1.0.0-rc.10        {'major': '1', 'minor': '0', 'patch': '0', 'pre': 'rc.10', 'build':"
            " None}\n"
            "sorted: ['1.0.0-alpha', '1.0.0-alpha.beta', '1.0.0-rc.1', '1.0.0-rc.10', '1.0.0', '1.2"
            ".0+build.7', '1.10.0', 'v2.1.3']\n"
        ),
    ),
    Case(
        id="regex-password-lookahead",
        category="regex",
        code=_src(r"""
            import re

            RULES = [
                (r"(?=.{12,})", "at least 12 characters"),
                (r"(?=.*[a-z])", "a lowercase letter"),
                (r"(?=.*[A-Z])", "an uppercase letter"),
                (r"(?=.*\d)", "a digit"),
                (r"(?=.*[^\w\s])", "a symbol"),
                (r"(?!.*(.)\1\1)", "no character three times in a row"),
            ]
            STRONG = re.compile("^" + "".join(p for p, _ in RULES) + ".*$")

            candidates = ["hunter2", "CorrectHorse9!", "aaaBBB111!!!xyz", "Tr0ub4dor&3x", "Sh0rt!"]
            for password in candidates:
                missing = [desc for pattern, desc in RULES if not re.match(pattern, password)]
                if STRONG.match(password):
                    verdict = "strong"
                else:
                    verdict = "weak: needs " + ", ".join(missing)
                print(f"{password:<16} {verdict}")
        """),
        stdout=(
            "hunter2          weak: needs at least 12 characters, an uppercase letter, a symbol\n"
            "CorrectHorse9!   strong\n"
            "aaaBBB111!!!xyz  weak: needs no character three times in a row\n"
            "Tr0ub4dor&3x     strong\n"
            "Sh0rt!           weak: needs at least 12 characters\n"
        ),
    ),
    Case(
        id="itertools-pipeline-chain",
        category="functional",
        code=_src(r"""
            from itertools import chain, count, cycle, islice, repeat, takewhile

            evens = (n for n in count(0, 2))
            print("first evens:", list(islice(evens, 6)))

            batches = [["a", "b"], ["c"], [], ["d", "e", "f"]]
            print("flattened:", list(chain.from_iterable(batches)))

            colours = cycle(["red", "green", "blue"])
            tasks = ("t1", "t2", "t3", "t4", "t5")
            print("round robin:", [f"{task}:{next(colours)}" for task in tasks])

            squares_below_100 = list(takewhile(lambda n: n < 100, (n * n for n in count(1))))
            print("squares < 100:", squares_below_100)
            print("padding:", list(chain("abc", repeat("-", 3))))
            page = list(islice(range(100, 200), 10, 20, 3))
            print("page slice:", page)
        """),
        stdout=(
            "first evens: [0, 2, 4, 6, 8, 10]\n"
            "flattened: ['a', 'b', 'c', 'd', 'e', 'f']\n"
            "round robin: ['t1:red', 't2:green', 't3:blue', 't4:red', 't5:green']\n"
            "squares < 100: [1, 4, 9, 16, 25, 36, 49, 64, 81]\n"
            "padding: ['a', 'b', 'c', '-', '-', '-']\n"
            "page slice: [110, 113, 116, 119]\n"
        ),
    ),
    Case(
        id="functools-reduce-folds",
        category="functional",
        code=_src(r"""
            import operator
            from functools import reduce

            numbers = [3, 1, 4, 1, 5, 9, 2, 6]
            print("sum:", reduce(operator.add, numbers))
            print("product:", reduce(operator.mul, numbers, 1))
            print("max:", reduce(lambda a, b: a if a > b else b, numbers))
            digits = reduce(lambda acc, d: acc * 10 + d, [2, 0, 2, 4])
            print("digits -> int:", digits)

            transactions = [("deposit", 100), ("withdraw", 30), ("deposit", 45), ("withdraw", 200)]


            def apply(balance, tx):
                kind, amount = tx
                if kind == "withdraw" and amount > balance:
                    return balance
                return balance + amount if kind == "deposit" else balance - amount


            print("final balance:", reduce(apply, transactions, 0))
            nested = {"a": {"b": {"c": 42}}}
            print("deep get:", reduce(operator.getitem, ["a", "b", "c"], nested))
            words = ["functional", "programming", "is", "fun"]
            print("longest:", reduce(lambda a, b: a if len(a) >= len(b) else b, words))
            print("merged:", reduce(operator.or_, [{"x": 1}, {"y": 2}, {"x": 3}]))
        """),
        stdout=(
            "sum: 31\n"
            "product: 6480\n"
            "max: 9\n"
            "digits -> int: 2024\n"
            "final balance: 115\n"
            "deep get: 42\n"
            "longest: programming\n"
            "merged: {'x': 3, 'y': 2}\n"
        ),
    ),
    Case(
        id="operator-itemgetter-sorting",
        category="functional",
        code=_src(r"""
            from operator import attrgetter, itemgetter, methodcaller
            from types import SimpleNamespace

            employees = [
                {"name": "Zoe", "dept": "ops", "salary": 72_000, "age": 29},
                {"name": "Adam", "dept": "eng", "salary": 98_000, "age": 41},
                {"name": "Maya", "dept": "eng", "salary": 105_000, "age": 35},
                {"name": "Liam", "dept": "ops", "salary": 72_000, "age": 52},
                {"name": "Ivy", "dept": "sales", "salary": 64_000, "age": 26},
            ]

            by_dept_salary = sorted(employees, key=itemgetter("dept", "salary"), reverse=True)
            for e in by_dept_salary:
                print(f"{e['dept']:<6} {e['salary']:>7,} {e['name']}")

            get_name_age = itemgetter("name", "age")
            print([get_name_age(e) for e in employees[:2]])
            people = [SimpleNamespace(**e) for e in employees]
            print("youngest:", min(people, key=attrgetter("age")).name)
            print("stable sort:", [p.name for p in sorted(people, key=attrgetter("salary"))])
            print(list(map(methodcaller("upper"), ["a", "b"])))
            print(list(map(methodcaller("split", "-"), ["x-y", "p-q-r"])))
        """),
        stdout=(
            "sales   64,000 Ivy\n"
            "ops     72,000 Zoe\n"
            "ops     72,000 Liam\n"
            "eng    105,000 Maya\n"
            "eng     98,000 Adam\n"
            "[('Zoe', 29), ('Adam', 41)]\n"
            "youngest: Ivy\n"
            "stable sort: ['Ivy', 'Zoe', 'Liam', 'Adam', 'Maya']\n"
            "['A', 'B']\n"
            "[['x', 'y'], ['p', 'q', 'r']]\n"
        ),
    ),
    Case(
        id="functools-partial-configure",
        category="functional",
        code=_src(r"""
            from functools import partial


            def power(base, exponent):
                return base ** exponent


            def format_money(amount, currency="USD", decimals=2, symbol="$"):
                return f"{symbol}{amount:,.{decimals}f} {currency}"


            square = partial(power, exponent=2)
            cube = partial(power, exponent=3)
            print([square(n) for n in range(6)], [cube(n) for n in range(4)])

            euro = partial(format_money, currency="EUR", symbol="EUR ")
            yen = partial(format_money, currency="JPY", decimals=0, symbol="JPY ")
            print(euro(1234.5), "|", yen(98765.4))
            print(format_money(19.999))

            parse_binary = partial(int, base=2)
            print([parse_binary(b) for b in ["101", "1111", "100000"]])
            number_after = partial(lambda s, pos: int(s[pos:]), pos=1)
            print(sorted(["b10", "a2", "a10", "b1"], key=number_after))
            print("partial keywords:", sorted(euro.keywords))
        """),
        stdout=(
            "[0, 1, 4, 9, 16, 25] [0, 1, 8, 27]\n"
            "EUR 1,234.50 EUR | JPY 98,765 JPY\n"
            "$20.00 USD\n"
            "[5, 15, 32]\n"
            "['b1', 'a2', 'b10', 'a10']\n"
            "partial keywords: ['currency', 'symbol']\n"
        ),
    ),
    Case(
        id="generator-pipeline-logs",
        category="functional",
        code=_src(r'''
            LOG = """\
            INFO 2024-06-01 12:00:01 GET /home 200 0.021
            INFO 2024-06-01 12:00:02 GET /search 200 0.340
            WARN 2024-06-01 12:00:02 GET /search 200 1.250
            INFO 2024-06-01 12:00:03 POST /cart 201 0.090
            ERROR 2024-06-01 12:00:04 GET /checkout 500 2.400
            INFO 2024-06-01 12:00:05 GET /home 200 0.019
            """


            def read_lines(text):
                yield from text.splitlines()


            def parse(lines):
                for line in lines:
                    level, day, clock, method, path, status, seconds = line.split()
                    yield {
                        "level": level,
                        "path": path,
                        "status": int(status),
                        "seconds": float(seconds),
                    }


            def slow(records, threshold):
                return (r for r in records if r["seconds"] >= threshold)


            def running_total(values):
                total = 0.0
                for v in values:
                    total += v
                    yield round(total, 3)


            records = list(parse(read_lines(LOG)))
            for r in slow(records, 0.3):
                print(f"slow: {r['path']:<10} {r['seconds']:.3f}s status {r['status']}")
            print("cumulative seconds:", list(running_total(r["seconds"] for r in records)))
            gen = (r["path"] for r in records)
            print("first two paths:", next(gen), next(gen), "| remaining:", sum(1 for _ in gen))
        '''),
        stdout=(
            "slow: /search    0.340s status 200\n"
            "slow: /search    1.250s status 200\n"
            "slow: /checkout  2.400s status 500\n"
            "cumulative seconds: [0.021, 0.361, 1.611, 1.701, 4.101, 4.12]\n"
            "first two paths: /home /search | remaining: 4\n"
        ),
    ),
    Case(
        id="accumulate-running-totals",
        category="functional",
        code=_src(r"""
            import operator
            from itertools import accumulate

            deposits = [120, -45, 300, -80, -20, 150, -400, 60]
            balance = list(accumulate(deposits, initial=1000))
            print("balances:", balance)
            print("lowest balance:", min(balance))
            print("running max:", list(accumulate(deposits, max)))
            print("factorials:", list(accumulate(range(1, 9), operator.mul)))

            monthly = {"Jan": 210, "Feb": 180, "Mar": 260, "Apr": 300, "May": 240, "Jun": 310}
            ytd = dict(zip(monthly, accumulate(monthly.values())))
            print("year to date:", ytd)
            values = list(monthly.values())
            growth = [round((b - a) / a * 100, 1) for a, b in zip(values, values[1:])]
            print("month-on-month %:", growth)
        """),
        stdout=(
            "balances: [1000, 1120, 1075, 1375, 1295, 1275, 1425, 1025, 1085]\n"
            "lowest balance: 1000\n"
            "running max: [120, 120, 300, 300, 300, 300, 300, 300]\n"
            "factorials: [1, 2, 6, 24, 120, 720, 5040, 40320]\n"
            "year to date: {'Jan': 210, 'Feb': 390, 'Mar': 650, 'Apr': 950, 'May': 1190, 'Jun': 150"
            "0}\n"
            "month-on-month %: [-14.3, 44.4, 15.4, -20.0, 29.2]\n"
        ),
    ),
    Case(
        id="combinations-team-picker",
        category="functional",
        code=_src(r"""
            from itertools import combinations, permutations, product

            players = {"Ana": 8, "Ben": 5, "Cal": 7, "Dee": 6, "Eli": 4, "Fay": 9}

            def strength(team):
                return sum(players[p] for p in team)


            best_pair = max(combinations(players, 2), key=strength)
            print("strongest pair:", best_pair)
            fair = min(
                combinations(players, 3),
                key=lambda team: abs(sum(players[p] for p in team) - sum(players.values()) / 2),
            )
            rest = tuple(p for p in players if p not in fair)
            print("fairest split:", fair, "vs", rest,
                  sum(players[p] for p in fair), "-", sum(players[p] for p in rest))
            print("podium orders for 3 of 6:", len(list(permutations(players, 3))))
            print("first 4:", list(permutations("ABC", 2))[:4])
            sizes, colours = ["S", "M", "L"], ["black", "white"]
            print("variants:", ["-".join(v) for v in product(sizes, colours)])
            tens = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b == 10)
            print("dice sums of 10:", tens)
        """),
        stdout=(
            "strongest pair: ('Ana', 'Fay')\n"
            "fairest split: ('Ana', 'Ben', 'Cal') vs ('Dee', 'Eli', 'Fay') 20 - 19\n"
            "podium orders for 3 of 6: 120\n"
            "first 4: [('A', 'B'), ('A', 'C'), ('B', 'A'), ('B', 'C')]\n"
            "variants: ['S-black', 'S-white', 'M-black', 'M-white', 'L-black', 'L-white']\n"
            "dice sums of 10: 3\n"
        ),
    ),
    Case(
        id="singledispatch-formatting",
        category="functional",
        code=_src(r"""
            from datetime import date
            from decimal import Decimal
            from functools import singledispatch


            @singledispatch
            def render(value) -> str:
                return repr(value)


            @render.register
            def _(value: bool) -> str:
                return "yes" if value else "no"


            @render.register
            def _(value: int) -> str:
                return f"{value:,}"


            @render.register
            def _(value: float) -> str:
                return f"{value:.3g}"


            @render.register
            def _(value: Decimal) -> str:
                return f"${value:.2f}"


            @render.register
            def _(value: date) -> str:
                return value.strftime("%d %b %Y")


            @render.register(list)
            @render.register(tuple)
            def _(value) -> str:
                return "[" + ", ".join(render(v) for v in value) + "]"


            row = [1234567, 3.14159, True, Decimal("9.5"), date(2024, 2, 29), None,
                   ("a", 2.0, False)]
            for cell in row:
                print(f"{render(cell):>20}")
        """),
        stdout=(
            "           1,234,567\n"
            "                3.14\n"
            "                 yes\n"
            "               $9.50\n"
            "         29 Feb 2024\n"
            "                None\n"
            "        ['a', 2, no]\n"
        ),
    ),
    Case(
        id="decorator-call-counter",
        category="functional",
        code=_src(r"""
            import functools


            def count_calls(func):
                @functools.wraps(func)
                def wrapper(*args, **kwargs):
                    wrapper.calls += 1
                    return func(*args, **kwargs)

                wrapper.calls = 0
                return wrapper


            def retry(times):
                def decorator(func):
                    @functools.wraps(func)
                    def wrapper(*args, **kwargs):
                        for attempt in range(1, times + 1):
                            try:
                                return func(*args, **kwargs)
                            except ConnectionError as exc:
                                print(f"  attempt {attempt} failed: {exc}")
                        raise ConnectionError(f"gave up after {times} attempts")
                    return wrapper
                return decorator


            @count_calls
            def fib(n):
                return n if n < 2 else fib(n - 1) + fib(n - 2)


            print("fib(15) =", fib(15), "with", fib.calls, "calls")
            fib.calls = 0
            print("fib(20) =", fib(20), "with", fib.calls, "calls")

            flaky_results = iter([ConnectionError("timeout"), ConnectionError("reset"), "payload"])


            @retry(times=3)
            def fetch():
                result = next(flaky_results)
                if isinstance(result, Exception):
                    raise result
                return result


            print("fetch ->", fetch())


            @retry(times=2)
            def always_down():
                raise ConnectionError("refused")


            try:
                always_down()
            except ConnectionError as exc:
                print("error:", exc)
        """),
        stdout=(
            "fib(15) = 610 with 1973 calls\n"
            "fib(20) = 6765 with 21891 calls\n"
            "  attempt 1 failed: timeout\n"
            "  attempt 2 failed: reset\n"
            "fetch -> payload\n"
            "  attempt 1 failed: refused\n"
            "  attempt 2 failed: refused\n"
            "error: gave up after 2 attempts\n"
        ),
    ),
    Case(
        id="batched-pairwise-windows",
        category="functional",
        code=_src(r"""
            from itertools import batched, groupby, pairwise, starmap, zip_longest

            readings = [3, 5, 4, 8, 12, 11, 15, 14, 20]
            print("batches of 4:", list(batched(readings, 4)))
            deltas = [b - a for a, b in pairwise(readings)]
            print("deltas:", deltas)
            rising = [key for key, _ in groupby(d > 0 for d in deltas)]
            print("trend changes:", ["up" if r else "down" for r in rising])
            print("window sums:", [sum(w) for w in zip(readings, readings[1:], readings[2:])])
            print("starmap pow:", list(starmap(pow, [(2, 5), (3, 2), (10, 3)])))
            names, scores = ["ann", "bob", "cy"], [90, 85]
            print("zip_longest:", list(zip_longest(names, scores, fillvalue="n/a")))
            run_lengths = [(k, len(list(g))) for k, g in groupby("aaabccdddd")]
            print("runs:", run_lengths)
        """),
        stdout=(
            "batches of 4: [(3, 5, 4, 8), (12, 11, 15, 14), (20,)]\n"
            "deltas: [2, -1, 4, 4, -1, 4, -1, 6]\n"
            "trend changes: ['up', 'down', 'up', 'down', 'up', 'down', 'up']\n"
            "window sums: [12, 17, 24, 31, 38, 40, 49]\n"
            "starmap pow: [32, 9, 1000]\n"
            "zip_longest: [('ann', 90), ('bob', 85), ('cy', 'n/a')]\n"
            "runs: [('a', 3), ('b', 1), ('c', 2), ('d', 4)]\n"
        ),
    ),
    Case(
        id="map-filter-compose",
        category="functional",
        code=_src(r"""
            from functools import reduce


            def compose(*funcs):
                return reduce(lambda f, g: lambda x: g(f(x)), funcs, lambda x: x)


            strip_and_lower = compose(str.strip, str.lower)
            clean_words = compose(str.split, lambda ws: filter(str.isalpha, ws), sorted, list)

            raw = ["  Apple ", "BANANA", " cherry", "Date  "]
            print(list(map(strip_and_lower, raw)))
            print(clean_words("the 2 quick brown foxes jumped over 13 lazy dogs"))

            prices = [19.99, 5.49, 120.0, 42.5, 3.0]
            with_tax = map(lambda p: round(p * 1.2, 2), prices)
            affordable = filter(lambda p: p < 50, with_tax)
            print(list(affordable))
            print(list(map(lambda a, b: a * b, [1, 2, 3], [4, 5, 6])))
            print(any(p > 100 for p in prices), all(p > 1 for p in prices))
            print(sorted(filter(None, [0, 3, "", "x", None, [], [1]]), key=str))
        """),
        stdout=(
            "['apple', 'banana', 'cherry', 'date']\n"
            "['brown', 'dogs', 'foxes', 'jumped', 'lazy', 'over', 'quick', 'the']\n"
            "[23.99, 6.59, 3.6]\n"
            "[4, 10, 18]\n"
            "True True\n"
            "[3, [1], 'x']\n"
        ),
    ),
    Case(
        id="shape-hierarchy-abc",
        category="oop",
        code=_src(r"""
            import math
            from abc import ABC, abstractmethod


            class Shape(ABC):
                name = "shape"

                @abstractmethod
                def area(self) -> float: ...

                @abstractmethod
                def perimeter(self) -> float: ...

                def describe(self) -> str:
                    return f"{self.name}: area={self.area():.2f} perimeter={self.perimeter():.2f}"

                def __lt__(self, other: "Shape") -> bool:
                    return self.area() < other.area()


            class Circle(Shape):
                name = "circle"

                def __init__(self, radius: float) -> None:
                    self.radius = radius

                def area(self) -> float:
                    return math.pi * self.radius ** 2

                def perimeter(self) -> float:
                    return 2 * math.pi * self.radius


            class Rectangle(Shape):
                name = "rectangle"

                def __init__(self, width: float, height: float) -> None:
                    self.width, self.height = width, height

                def area(self) -> float:
                    return self.width * self.height

                def perimeter(self) -> float:
                    return 2 * (self.width + self.height)


            class Square(Rectangle):
                name = "square"

                def __init__(self, side: float) -> None:
                    self.width = self.height = side


            shapes = [Circle(1), Rectangle(2, 3.5), Square(2), Circle(0.75)]
            for shape in sorted(shapes):
                print(shape.describe())
            print("square is a rectangle:", isinstance(Square(1), Rectangle))
            try:
                Shape()
            except TypeError:
                print("cannot instantiate the abstract Shape")
        """),
        stdout=(
            "circle: area=1.77 perimeter=4.71\n"
            "circle: area=3.14 perimeter=6.28\n"
            "square: area=4.00 perimeter=8.00\n"
            "rectangle: area=7.00 perimeter=11.00\n"
            "square is a rectangle: True\n"
            "cannot instantiate the abstract Shape\n"
        ),
    ),
    Case(
        id="vector-dunder-methods",
        category="oop",
        code=_src(r"""
            import math


            class Vector:
                def __init__(self, *components: float) -> None:
                    self.components = tuple(components)

                def __repr__(self) -> str:
                    return f"Vector{self.components}"

                def __len__(self) -> int:
                    return len(self.components)

                def __iter__(self):
                    return iter(self.components)

                def __getitem__(self, index):
                    return self.components[index]

                def __eq__(self, other) -> bool:
                    return isinstance(other, Vector) and self.components == other.components

                def __hash__(self) -> int:
                    return hash(self.components)

                def __add__(self, other: "Vector") -> "Vector":
                    if len(self) != len(other):
                        raise ValueError("dimension mismatch")
                    return Vector(*(a + b for a, b in zip(self, other)))

                def __sub__(self, other: "Vector") -> "Vector":
                    return self + other * -1

                def __mul__(self, scalar: float) -> "Vector":
                    return Vector(*(a * scalar for a in self))

                def __rmul__(self, scalar: float) -> "Vector":
                    return self * scalar

                def __abs__(self) -> float:
                    return math.sqrt(sum(a * a for a in self))

                def __bool__(self) -> bool:
                    return any(self.components)

                def dot(self, other: "Vector") -> float:
                    return sum(a * b for a, b in zip(self, other))


            v = Vector(3, 4)
            w = Vector(1, -2)
            print(v + w, v - w, 2 * v, v * 0.5)
            print("len:", len(v), "abs:", abs(v), "dot:", v.dot(w))
            print("unpacked:", [*v], "first:", v[0])
            print("equal:", v == Vector(3, 4), "| in set:", len({v, Vector(3, 4), w}))
            print("zero is falsy:", not Vector(0, 0))
            try:
                v + Vector(1, 2, 3)
            except ValueError as exc:
                print("error:", exc)
        """),
        stdout=(
            "Vector(4, 2) Vector(2, 6) Vector(6, 8) Vector(1.5, 2.0)\n"
            "len: 2 abs: 5.0 dot: -5\n"
            "unpacked: [3, 4] first: 3\n"
            "equal: True | in set: 2\n"
            "zero is falsy: True\n"
            "error: dimension mismatch\n"
        ),
    ),
    Case(
        id="bank-account-properties",
        category="oop",
        code=_src(r"""
            class InsufficientFunds(Exception):
                pass


            class Account:
                interest_rate = 0.02

                def __init__(self, owner: str, balance: float = 0.0) -> None:
                    self.owner = owner
                    self._balance = 0.0
                    self.history: list[str] = []
                    self.balance = balance

                @property
                def balance(self) -> float:
                    return self._balance

                @balance.setter
                def balance(self, value: float) -> None:
                    if value < 0:
                        raise ValueError("balance cannot be negative")
                    self._balance = round(value, 2)

                def deposit(self, amount: float) -> None:
                    if amount <= 0:
                        raise ValueError("deposit must be positive")
                    self.balance += amount
                    self.history.append(f"+{amount:.2f}")

                def withdraw(self, amount: float) -> None:
                    if amount > self.balance:
                        raise InsufficientFunds(
                            f"{self.owner} has {self.balance:.2f}, needs {amount:.2f}"
                        )
                    self.balance -= amount
                    self.history.append(f"-{amount:.2f}")

                def __repr__(self) -> str:
                    return f"Account({self.owner!r}, balance={self.balance:.2f})"


            class SavingsAccount(Account):
                interest_rate = 0.045

                def add_interest(self) -> float:
                    interest = round(self.balance * self.interest_rate, 2)
                    self.deposit(interest)
                    return interest


            acct = SavingsAccount("Nadia", 1000)
            acct.deposit(250.75)
            acct.withdraw(100)
            print(acct, "interest added:", acct.add_interest())
            print("history:", acct.history)
            for action in (lambda: acct.withdraw(5000), lambda: acct.deposit(-5)):
                try:
                    action()
                except (InsufficientFunds, ValueError) as exc:
                    print(f"refused: {exc}")
            print(Account("Omar"), Account.interest_rate, SavingsAccount.interest_rate)
        """),
        stdout=(
            "Account('Nadia', balance=1202.53) interest added: 51.78\n"
            "history: ['+250.75', '-100.00', '+51.78']\n"
            "refused: Nadia has 1202.53, needs 5000.00\n"
            "refused: deposit must be positive\n"
            "Account('Omar', balance=0.00) 0.02 0.045\n"
        ),
    ),
    Case(
        id="linked-list-iter-len",
        category="oop",
        code=_src(r"""
            class Node:
                def __init__(self, value, next_node=None):
                    self.value = value
                    self.next = next_node


            class LinkedList:
                def __init__(self, values=()):
                    self.head = None
                    self._size = 0
                    for value in reversed(list(values)):
                        self.push_front(value)

                def push_front(self, value):
                    self.head = Node(value, self.head)
                    self._size += 1

                def append(self, value):
                    node = Node(value)
                    if self.head is None:
                        self.head = node
                    else:
                        tail = self.head
                        while tail.next:
                            tail = tail.next
                        tail.next = node
                    self._size += 1

                def reverse(self):
                    prev, current = None, self.head
                    while current:
                        current.next, prev, current = prev, current, current.next
                    self.head = prev

                def __iter__(self):
                    node = self.head
                    while node:
                        yield node.value
                        node = node.next

                def __len__(self):
                    return self._size

                def __contains__(self, value):
                    return any(v == value for v in self)

                def __repr__(self):
                    return " -> ".join(map(repr, self)) or "(empty)"


            items = LinkedList([3, 1, 4])
            items.append(1)
            items.push_front(9)
            print(items, "| len", len(items))
            items.reverse()
            print(items)
            print("4 in list:", 4 in items, "| 7 in list:", 7 in items)
            print("sum:", sum(items), "max:", max(items), "sorted:", sorted(items))
            print(LinkedList())
        """),
        stdout=(
            "9 -> 3 -> 1 -> 4 -> 1 | len 5\n"
            "1 -> 4 -> 1 -> 3 -> 9\n"
            "4 in list: True | 7 in list: False\n"
            "sum: 18 max: 9 sorted: [1, 1, 3, 4, 9]\n"
            "(empty)\n"
        ),
    ),
    Case(
        id="plugin-hasattr-capabilities",
        category="oop",
        code=_src(r"""
            class CsvExporter:
                name = "csv"

                def export(self, rows):
                    return "\n".join(",".join(map(str, r)) for r in rows)


            class JsonExporter:
                name = "json"

                def export(self, rows):
                    return str([list(r) for r in rows]).replace("'", '"')

                def validate(self, rows):
                    return all(len(r) == len(rows[0]) for r in rows)


            class BrokenPlugin:
                name = "broken"


            rows = [("id", "city"), (1, "Oslo"), (2, "Lima")]
            for plugin in (CsvExporter(), JsonExporter(), BrokenPlugin()):
                if not hasattr(plugin, "export"):
                    print(f"[{plugin.name}] skipped: no export() method")
                    continue
                if hasattr(plugin, "validate") and not plugin.validate(rows):
                    print(f"[{plugin.name}] rows failed validation")
                    continue
                print(f"[{plugin.name}]")
                print(plugin.export(rows))
            print("callable export:", callable(getattr(CsvExporter(), "export", None)))
        """),
        stdout=(
            "[csv]\n"
            "id,city\n"
            "1,Oslo\n"
            "2,Lima\n"
            "[json]\n"
            '[["id", "city"], [1, "Oslo"], [2, "Lima"]]\n'
            "[broken] skipped: no export() method\n"
            "callable export: True\n"
        ),
    ),
    Case(
        id="getattr-default-settings",
        category="oop",
        code=_src(r"""
            from types import SimpleNamespace


            class Defaults:
                timeout = 30
                retries = 3
                verbose = False


            user_settings = SimpleNamespace(timeout=10, theme="dark")
            site_settings = SimpleNamespace(retries=5)


            def setting_timeout(*sources):
                for source in sources:
                    value = getattr(source, "timeout", None)
                    if value is not None:
                        return value
                return Defaults.timeout


            def setting_retries(*sources):
                for source in sources:
                    if hasattr(source, "retries"):
                        return source.retries
                return Defaults.retries


            print("timeout:", setting_timeout(user_settings, site_settings))
            print("retries:", setting_retries(user_settings, site_settings))
            print("verbose:", getattr(user_settings, "verbose", Defaults.verbose))
            print("site theme:", getattr(site_settings, "theme", "light"))
            print("user theme:", getattr(user_settings, "theme"))
            print("timeout without user settings:", setting_timeout(site_settings))
        """),
        stdout=(
            "timeout: 10\n"
            "retries: 5\n"
            "verbose: False\n"
            "site theme: light\n"
            "user theme: dark\n"
            "timeout without user settings: 30\n"
        ),
    ),
    Case(
        id="setattr-config-loader",
        category="oop",
        code=_src(r"""
            class RetryPolicy:
                def __init__(self):
                    self.attempts = 1
                    self.backoff = 0.0
                    self.jitter = False

                def __repr__(self):
                    return (f"RetryPolicy(attempts={self.attempts}, backoff={self.backoff}, "
                            f"jitter={self.jitter})")


            def apply_overrides(policy, overrides):
                applied = []
                if "attempts" in overrides:
                    setattr(policy, "attempts", int(overrides["attempts"]))
                    applied.append("attempts")
                if "backoff" in overrides:
                    setattr(policy, "backoff", float(overrides["backoff"]))
                    applied.append("backoff")
                if "jitter" in overrides:
                    setattr(policy, "jitter", overrides["jitter"].lower() in ("1", "true", "yes"))
                    applied.append("jitter")
                return applied


            policy = RetryPolicy()
            print("before:", policy)
            changed = apply_overrides(policy, {"attempts": "5", "jitter": "yes", "colour": "blue"})
            print("changed:", changed)
            print("after:", policy)
            setattr(policy, "backoff", 1.5)
            print("backoff now:", getattr(policy, "backoff"))
            print("has jitter:", hasattr(policy, "jitter"))
            print("has colour:", hasattr(policy, "colour"))
        """),
        stdout=(
            "before: RetryPolicy(attempts=1, backoff=0.0, jitter=False)\n"
            "changed: ['attempts', 'jitter']\n"
            "after: RetryPolicy(attempts=5, backoff=0.0, jitter=True)\n"
            "backoff now: 1.5\n"
            "has jitter: True\n"
            "has colour: False\n"
        ),
    ),
    Case(
        id="total-ordering-versions",
        category="oop",
        code=_src(r"""
            from functools import total_ordering


            @total_ordering
            class Version:
                def __init__(self, text: str) -> None:
                    self.text = text
                    self.parts = tuple(int(p) for p in text.split("."))

                def _key(self):
                    parts = list(self.parts)
                    while parts and parts[-1] == 0:
                        parts.pop()
                    return tuple(parts)

                def __eq__(self, other):
                    if not isinstance(other, Version):
                        return NotImplemented
                    return self._key() == other._key()

                def __lt__(self, other):
                    if not isinstance(other, Version):
                        return NotImplemented
                    return self._key() < other._key()

                def __hash__(self):
                    return hash(self._key())

                def __repr__(self):
                    return f"Version({self.text!r})"


            versions = [Version(v) for v in ["1.10", "1.2", "1.2.0", "0.9.9", "2.0", "1.9.12"]]
            print(sorted(versions))
            print("max:", max(versions), "min:", min(versions))
            print("1.2 == 1.2.0:", Version("1.2") == Version("1.2.0"))
            print("1.10 >= 1.9.12:", Version("1.10") >= Version("1.9.12"))
            print("distinct:", len(set(versions)))
            print("compare with str:", Version("1.0") == "1.0")
        """),
        stdout=(
            "[Version('0.9.9'), Version('1.2'), Version('1.2.0'), Version('1.9.12'), Version('1.10'"
            "), Version('2.0')]\n"
            "max: Version('2.0') min: Version('0.9.9')\n"
            "1.2 == 1.2.0: True\n"
            "1.10 >= 1.9.12: True\n"
            "distinct: 5\n"
            "compare with str: False\n"
        ),
    ),
    Case(
        id="enum-order-workflow",
        category="oop",
        code=_src(r"""
            from enum import Enum, IntEnum, auto


            class Status(Enum):
                DRAFT = auto()
                SUBMITTED = auto()
                APPROVED = auto()
                REJECTED = auto()
                SHIPPED = auto()

                def can_move_to(self, other: "Status") -> bool:
                    return other in TRANSITIONS[self]

                @property
                def is_final(self) -> bool:
                    return not TRANSITIONS[self]


            TRANSITIONS = {
                Status.DRAFT: {Status.SUBMITTED},
                Status.SUBMITTED: {Status.APPROVED, Status.REJECTED},
                Status.APPROVED: {Status.SHIPPED},
                Status.REJECTED: set(),
                Status.SHIPPED: set(),
            }


            class Priority(IntEnum):
                LOW = 1
                NORMAL = 2
                HIGH = 3


            state = Status.DRAFT
            for target in [Status.SUBMITTED, Status.SHIPPED, Status.APPROVED, Status.SHIPPED]:
                if state.can_move_to(target):
                    print(f"{state.name} -> {target.name}")
                    state = target
                else:
                    print(f"{state.name} -/-> {target.name} (not allowed)")
            print("final:", state.name, state.is_final, state.value)
            print([s.name for s in Status if s.is_final])
            print(Status["APPROVED"], Status(2))
            print(Priority.HIGH > Priority.LOW, sorted(Priority)[0].name)
        """),
        stdout=(
            "DRAFT -> SUBMITTED\n"
            "SUBMITTED -/-> SHIPPED (not allowed)\n"
            "SUBMITTED -> APPROVED\n"
            "APPROVED -> SHIPPED\n"
            "final: SHIPPED True 5\n"
            "['REJECTED', 'SHIPPED']\n"
            "Status.APPROVED Status.SUBMITTED\n"
            "True LOW\n"
        ),
    ),
    Case(
        id="context-manager-class",
        category="oop",
        code=_src(r"""
            class Transaction:
                def __init__(self, ledger: dict[str, int]) -> None:
                    self.ledger = ledger
                    self.pending: dict[str, int] = {}

                def __enter__(self) -> "Transaction":
                    print("begin")
                    return self

                def transfer(self, src: str, dst: str, amount: int) -> None:
                    available = self.ledger[src] + self.pending.get(src, 0)
                    if amount > available:
                        raise ValueError(f"{src} cannot send {amount}, has {available}")
                    self.pending[src] = self.pending.get(src, 0) - amount
                    self.pending[dst] = self.pending.get(dst, 0) + amount

                def __exit__(self, exc_type, exc, tb) -> bool:
                    if exc_type is None:
                        for account, delta in self.pending.items():
                            self.ledger[account] += delta
                        print("commit", self.pending)
                    else:
                        print(f"rollback ({exc})")
                    return exc_type is ValueError


            ledger = {"alice": 100, "bob": 50, "carol": 0}
            with Transaction(ledger) as tx:
                tx.transfer("alice", "bob", 30)
                tx.transfer("bob", "carol", 60)
            print(ledger)
            with Transaction(ledger) as tx:
                tx.transfer("carol", "alice", 10)
                tx.transfer("carol", "bob", 100)
            print(ledger)
        """),
        stdout=(
            "begin\n"
            "commit {'alice': -30, 'bob': -30, 'carol': 60}\n"
            "{'alice': 70, 'bob': 20, 'carol': 60}\n"
            "begin\n"
            "rollback (carol cannot send 100, has 50)\n"
            "{'alice': 70, 'bob': 20, 'carol': 60}\n"
        ),
    ),
    Case(
        id="classmethod-alternate-constructors",
        category="oop",
        code=_src(r"""
            from datetime import date


            class Temperature:
                def __init__(self, celsius: float) -> None:
                    self.celsius = celsius

                @classmethod
                def from_fahrenheit(cls, value: float) -> "Temperature":
                    return cls((value - 32) * 5 / 9)

                @classmethod
                def from_kelvin(cls, value: float) -> "Temperature":
                    return cls(value - 273.15)

                @classmethod
                def parse(cls, text: str) -> "Temperature":
                    number, unit = float(text[:-1]), text[-1].upper()
                    constructors = {"C": cls, "F": cls.from_fahrenheit, "K": cls.from_kelvin}
                    return constructors[unit](number)

                @staticmethod
                def describe(celsius: float) -> str:
                    if celsius < 0:
                        return "freezing"
                    if celsius < 15:
                        return "cold"
                    if celsius < 25:
                        return "mild"
                    return "hot"

                def __repr__(self) -> str:
                    return f"Temperature({self.celsius:.2f} C, {self.describe(self.celsius)})"


            for text in ["21C", "98.6F", "300K", "-40F", "5c"]:
                print(f"{text:>6} -> {Temperature.parse(text)}")


            class Invoice:
                counter = 1000

                def __init__(self, customer: str, issued: date) -> None:
                    Invoice.counter += 1
                    self.number = f"INV-{Invoice.counter}"
                    self.customer = customer
                    self.issued = issued

                @classmethod
                def from_string(cls, line: str) -> "Invoice":
                    customer, issued = line.split("|")
                    return cls(customer.strip(), date.fromisoformat(issued.strip()))


            for line in ["Acme | 2024-01-31", "Globex | 2024-02-29"]:
                inv = Invoice.from_string(line)
                print(inv.number, inv.customer, inv.issued.strftime("%d/%m/%Y"))
        """),
        stdout=(
            "   21C -> Temperature(21.00 C, mild)\n"
            " 98.6F -> Temperature(37.00 C, hot)\n"
            "  300K -> Temperature(26.85 C, hot)\n"
            "  -40F -> Temperature(-40.00 C, freezing)\n"
            "    5c -> Temperature(5.00 C, cold)\n"
            "INV-1001 Acme 31/01/2024\n"
            "INV-1002 Globex 29/02/2024\n"
        ),
    ),
    Case(
        id="cached-property-report",
        category="oop",
        code=_src(r"""
            import statistics
            from functools import cached_property


            class SalesReport:
                computations = 0

                def __init__(self, region: str, figures: list[float]) -> None:
                    self.region = region
                    self.figures = figures

                @cached_property
                def summary(self) -> dict[str, float]:
                    SalesReport.computations += 1
                    return {
                        "total": sum(self.figures),
                        "mean": round(statistics.mean(self.figures), 2),
                        "median": statistics.median(self.figures),
                        "best": max(self.figures),
                    }

                @property
                def headline(self) -> str:
                    s = self.summary
                    return (f"{self.region}: total {s['total']:,.0f}, mean {s['mean']:,.2f}, "
                            f"best {s['best']:,.0f}")


            report = SalesReport("EMEA", [12_500, 9_800, 15_200, 11_000, 13_750])
            print(report.headline)
            print(report.headline)
            print("computed", SalesReport.computations, "time(s)")
            del report.summary
            report.figures.append(20_000)
            print(report.headline)
            print("computed", SalesReport.computations, "time(s)")
        """),
        stdout=(
            "EMEA: total 62,250, mean 12,450.00, best 15,200\n"
            "EMEA: total 62,250, mean 12,450.00, best 15,200\n"
            "computed 1 time(s)\n"
            "EMEA: total 82,250, mean 13,708.33, best 20,000\n"
            "computed 2 time(s)\n"
        ),
    ),
    Case(
        id="getattr-optional-hooks",
        category="oop",
        code=_src(r"""
            class Pipeline:
                def __init__(self, *steps):
                    self.steps = steps
                    self.trace = []

                def run(self, value):
                    for step in self.steps:
                        label = getattr(step, "label", "unnamed step")
                        before = getattr(step, "before", None)
                        if before is not None:
                            value = before(value)
                        value = step.apply(value)
                        self.trace.append(f"{label}: {value!r}")
                    return value


            class Strip:
                label = "strip"

                def apply(self, value):
                    return value.strip()


            class Words:
                label = "split words"

                def before(self, value):
                    return value.replace(",", " ")

                def apply(self, value):
                    return value.split()


            class Dedupe:
                def apply(self, value):
                    return list(dict.fromkeys(value))


            pipeline = Pipeline(Strip(), Words(), Dedupe())
            print(pipeline.run("  red,green blue, red ,yellow green  "))
            print("\n".join(pipeline.trace))
            has_before = [hasattr(step, "before") for step in pipeline.steps]
            print("steps with before():", has_before)
        """),
        stdout=(
            "['red', 'green', 'blue', 'yellow']\n"
            "strip: 'red,green blue, red ,yellow green'\n"
            "split words: ['red', 'green', 'blue', 'red', 'yellow', 'green']\n"
            "unnamed step: ['red', 'green', 'blue', 'yellow']\n"
            "steps with before(): [False, True, False]\n"
        ),
    ),
    Case(
        id="inventory-composition",
        category="oop",
        code=_src(r"""
            from collections import Counter


            class Product:
                def __init__(self, sku, name, price):
                    self.sku, self.name, self.price = sku, name, price

                def __repr__(self):
                    return f"<{self.sku} {self.name} ${self.price:.2f}>"


            class Cart:
                def __init__(self):
                    self._lines = Counter()
                    self._catalogue = {}

                def add(self, product, qty=1):
                    self._catalogue[product.sku] = product
                    self._lines[product.sku] += qty
                    return self

                def remove(self, sku, qty=1):
                    self._lines[sku] -= qty
                    if self._lines[sku] <= 0:
                        del self._lines[sku]
                    return self

                def __len__(self):
                    return sum(self._lines.values())

                def __iter__(self):
                    for sku, qty in self._lines.items():
                        yield self._catalogue[sku], qty

                def __add__(self, other):
                    merged = Cart()
                    for cart in (self, other):
                        for product, qty in cart:
                            merged.add(product, qty)
                    return merged

                @property
                def total(self):
                    return sum(p.price * q for p, q in self)


            pen = Product("P1", "Pen", 1.25)
            pad = Product("N2", "Notepad", 3.50)
            ink = Product("I3", "Ink", 7.99)
            mine = Cart().add(pen, 3).add(pad).add(ink)
            yours = Cart().add(pad, 2).add(pen)
            mine.remove("I3")
            both = mine + yours
            for product, qty in both:
                print(f"{qty} x {product}")
            print(f"{len(both)} items, total ${both.total:.2f}")
        """),
        stdout=(
            "4 x <P1 Pen $1.25>\n"
            "3 x <N2 Notepad $3.50>\n"
            "7 items, total $15.50\n"
        ),
    ),
    Case(
        id="custom-exception-hierarchy",
        category="errors",
        code=_src(r'''
            class AppError(Exception):
                """Base class for the application's errors."""


            class ValidationError(AppError):
                def __init__(self, field, problem):
                    self.field = field
                    self.problem = problem

                def __str__(self):
                    return f"{self.field}: {self.problem}"


            class NotFoundError(AppError):
                pass


            class PermissionDenied(AppError):
                pass


            USERS = {1: {"name": "ana", "role": "admin"}, 2: {"name": "bo", "role": "viewer"}}


            def update_email(actor_id, target_id, email):
                actor = USERS.get(actor_id)
                if actor is None:
                    raise NotFoundError(f"actor {actor_id} does not exist")
                if actor["role"] != "admin" and actor_id != target_id:
                    raise PermissionDenied(f"{actor['name']} may not edit user {target_id}")
                if target_id not in USERS:
                    raise NotFoundError(f"user {target_id} does not exist")
                if "@" not in email:
                    raise ValidationError("email", f"{email!r} is not an address")
                USERS[target_id]["email"] = email
                return f"user {target_id} email set to {email}"


            requests = [
                (1, 2, "bo@example.com"),
                (2, 1, "x@y.z"),
                (1, 9, "a@b.c"),
                (1, 1, "nope"),
                (7, 1, ""),
            ]
            for actor, target, email in requests:
                try:
                    print("ok:", update_email(actor, target, email))
                except ValidationError as exc:
                    print(f"invalid input -> {exc} (field={exc.field})")
                except (NotFoundError, PermissionDenied) as exc:
                    kind = "missing" if isinstance(exc, NotFoundError) else "forbidden"
                    print(f"{kind} -> {exc}")
                except AppError as exc:
                    print("other app error:", exc)
            print("is ValidationError an AppError?", issubclass(ValidationError, AppError))
        '''),
        stdout=(
            "ok: user 2 email set to bo@example.com\n"
            "forbidden -> bo may not edit user 1\n"
            "missing -> user 9 does not exist\n"
            "invalid input -> email: 'nope' is not an address (field=email)\n"
            "missing -> actor 7 does not exist\n"
            "is ValidationError an AppError? True\n"
        ),
    ),
    Case(
        id="try-except-else-finally",
        category="errors",
        code=_src(r"""
            def divide(a, b):
                events = []
                try:
                    events.append("try")
                    result = a / b
                except ZeroDivisionError:
                    events.append("except")
                    result = None
                else:
                    events.append("else")
                finally:
                    events.append("finally")
                return result, events


            for a, b in [(10, 4), (1, 0)]:
                print(divide(a, b))


            def read_config(raw):
                steps = []
                try:
                    steps.append("parse")
                    key, value = raw.split("=")
                    return {key.strip(): int(value)}
                except ValueError as exc:
                    steps.append(f"error: {exc}")
                    return {}
                finally:
                    steps.append("cleanup")
                    print(" -> ".join(steps))


            print(read_config("workers = 4"))
            print(read_config("workers = four"))
            print(read_config("no equals sign"))


            def early_return():
                try:
                    return "from try"
                finally:
                    print("finally runs before the return value is handed back")


            print(early_return())
        """),
        stdout=(
            "(2.5, ['try', 'else', 'finally'])\n"
            "(None, ['try', 'except', 'finally'])\n"
            "parse -> cleanup\n"
            "{'workers': 4}\n"
            "parse -> error: invalid literal for int() with base 10: ' four' -> cleanup\n"
            "{}\n"
            "parse -> error: not enough values to unpack (expected 2, got 1) -> cleanup\n"
            "{}\n"
            "finally runs before the return value is handed back\n"
            "from try\n"
        ),
    ),
    Case(
        id="collect-validation-errors",
        category="errors",
        code=_src(r"""
            from dataclasses import dataclass


            @dataclass
            class FieldError:
                row: int
                field: str
                message: str


            ROWS = [
                {"sku": "A-1", "qty": "5", "price": "9.99"},
                {"sku": "", "qty": "two", "price": "4.50"},
                {"sku": "C-3", "qty": "-1", "price": "abc"},
                {"sku": "D-4", "qty": "12", "price": "0.00"},
            ]


            def parse_row(index, row):
                errors = []
                parsed = {}
                if not row["sku"]:
                    errors.append(FieldError(index, "sku", "missing"))
                parsed["sku"] = row["sku"]
                try:
                    parsed["qty"] = int(row["qty"])
                    if parsed["qty"] < 0:
                        errors.append(FieldError(index, "qty", "must be >= 0"))
                except ValueError:
                    errors.append(FieldError(index, "qty", f"not an integer: {row['qty']!r}"))
                try:
                    parsed["price"] = float(row["price"])
                    if parsed["price"] == 0:
                        errors.append(FieldError(index, "price", "free items need approval"))
                except ValueError:
                    errors.append(FieldError(index, "price", f"not a number: {row['price']!r}"))
                return parsed, errors


            valid, problems = [], []
            for i, row in enumerate(ROWS, start=1):
                parsed, errors = parse_row(i, row)
                if errors:
                    problems.extend(errors)
                else:
                    valid.append(parsed)
            print(f"{len(valid)} valid row(s): {valid}")
            print(f"{len(problems)} problem(s):")
            for p in problems:
                print(f"  row {p.row} {p.field:<5} {p.message}")
        """),
        stdout=(
            "1 valid row(s): [{'sku': 'A-1', 'qty': 5, 'price': 9.99}]\n"
            "5 problem(s):\n"
            "  row 2 sku   missing\n"
            "  row 2 qty   not an integer: 'two'\n"
            "  row 3 qty   must be >= 0\n"
            "  row 3 price not a number: 'abc'\n"
            "  row 4 price free items need approval\n"
        ),
    ),
    Case(
        id="retry-with-backoff",
        category="errors",
        code=_src(r"""
            class TransientError(Exception):
                pass


            class PermanentError(Exception):
                pass


            def make_flaky(outcomes):
                it = iter(outcomes)

                def call():
                    outcome = next(it)
                    if isinstance(outcome, Exception):
                        raise outcome
                    return outcome

                return call


            def with_retries(func, attempts=4, base_delay=0.5):
                delay = base_delay
                waited = 0.0
                for attempt in range(1, attempts + 1):
                    try:
                        return func(), attempt, waited
                    except TransientError as exc:
                        if attempt == attempts:
                            raise RuntimeError(f"failed after {attempts} attempts: {exc}") from exc
                        waited += delay
                        delay *= 2
                raise AssertionError("unreachable")


            scenarios = {
                "recovers": [TransientError("503"), TransientError("timeout"), "OK"],
                "first try": ["OK"],
                "never recovers": [TransientError("503")] * 4,
                "permanent": [TransientError("503"), PermanentError("invalid API key")],
            }
            for name, outcomes in scenarios.items():
                try:
                    result, attempt, waited = with_retries(make_flaky(outcomes))
                    print(f"{name:<15} {result} on attempt {attempt} (would wait {waited:.1f}s)")
                except RuntimeError as exc:
                    print(f"{name:<15} gave up: {exc}")
                except PermanentError as exc:
                    print(f"{name:<15} permanent failure: {exc}")
        """),
        stdout=(
            "recovers        OK on attempt 3 (would wait 1.5s)\n"
            "first try       OK on attempt 1 (would wait 0.0s)\n"
            "never recovers  gave up: failed after 4 attempts: 503\n"
            "permanent       permanent failure: invalid API key\n"
        ),
    ),
    Case(
        id="exception-chaining-report",
        category="errors",
        code=_src(r"""
            import traceback


            class ConfigError(Exception):
                pass


            def load_port(settings):
                try:
                    return int(settings["port"])
                except KeyError as exc:
                    raise ConfigError("port is not configured") from exc
                except ValueError as exc:
                    raise ConfigError(f"port must be a number, got {settings['port']!r}") from exc


            for settings in [{"port": "8080"}, {}, {"port": "eighty"}]:
                try:
                    print("port:", load_port(settings))
                except ConfigError as exc:
                    cause = exc.args[0]
                    summary = "".join(traceback.format_exception_only(exc)).strip()
                    print(summary, "| message:", cause)

            try:
                try:
                    {}["missing"]
                except KeyError:
                    raise ValueError("while handling the KeyError")
            except ValueError as exc:
                print(repr(exc))
                print(traceback.format_exception_only(ValueError, exc)[-1], end="")
        """),
        stdout=(
            "port: 8080\n"
            "ConfigError: port is not configured | message: port is not configured\n"
            "ConfigError: port must be a number, got 'eighty' | message: port must be a number, got"
            " 'eighty'\n"
            "ValueError('while handling the KeyError')\n"
            "ValueError: while handling the KeyError\n"
        ),
    ),
    Case(
        id="contextlib-suppress-cleanup",
        category="errors",
        code=_src(r"""
            from contextlib import ExitStack, contextmanager, suppress

            cache = {"a": 1}
            with suppress(KeyError):
                del cache["missing"]
            print("suppress kept going:", cache)

            with suppress(ZeroDivisionError, ValueError):
                print("before the error")
                int("not a number")
                print("never printed")
            print("after suppress")


            @contextmanager
            def resource(name, log):
                log.append(f"open {name}")
                try:
                    yield name.upper()
                finally:
                    log.append(f"close {name}")


            log = []
            try:
                with ExitStack() as stack:
                    names = ("db", "cache", "queue")
                    handles = [stack.enter_context(resource(n, log)) for n in names]
                    log.append(f"using {handles}")
                    raise RuntimeError("boom")
            except RuntimeError as exc:
                log.append(f"caught {exc}")
            print("\n".join(log))
        """),
        stdout=(
            "suppress kept going: {'a': 1}\n"
            "before the error\n"
            "after suppress\n"
            "open db\n"
            "open cache\n"
            "open queue\n"
            "using ['DB', 'CACHE', 'QUEUE']\n"
            "close queue\n"
            "close cache\n"
            "close db\n"
            "caught boom\n"
        ),
    ),
    Case(
        id="warnings-capture",
        category="errors",
        code=_src(r"""
            import warnings


            def legacy_total(values):
                warnings.warn(
                    "legacy_total() is deprecated; use sum()", DeprecationWarning, stacklevel=2
                )
                return sum(values)


            def parse_ratio(text):
                value = float(text)
                if value > 1:
                    warnings.warn(f"ratio {value} > 1 was clamped", RuntimeWarning)
                    value = 1.0
                return value


            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                print("total:", legacy_total([1, 2, 3]))
                print("ratios:", [parse_ratio(t) for t in ("0.25", "1.5", "0.9", "3")])

            LABELS = {DeprecationWarning: "deprecated", RuntimeWarning: "runtime"}
            for w in caught:
                print(f"[{LABELS.get(w.category, 'other')}] {w.message}")
            print("warnings captured:", len(caught))

            with warnings.catch_warnings():
                warnings.simplefilter("error", RuntimeWarning)
                try:
                    parse_ratio("2")
                except RuntimeWarning as exc:
                    print("escalated to an exception:", exc)
        """),
        stdout=(
            "total: 6\n"
            "ratios: [0.25, 1.0, 0.9, 1.0]\n"
            "[deprecated] legacy_total() is deprecated; use sum()\n"
            "[runtime] ratio 1.5 > 1 was clamped\n"
            "[runtime] ratio 3.0 > 1 was clamped\n"
            "warnings captured: 3\n"
            "escalated to an exception: ratio 2.0 > 1 was clamped\n"
        ),
    ),
    Case(
        id="safe-division-keyerror",
        category="errors",
        code=_src(r"""
            def safe_ratio(numerator, denominator, default=None):
                try:
                    return numerator / denominator
                except ZeroDivisionError:
                    return default
                except TypeError as exc:
                    return f"type error: {exc}"


            print(safe_ratio(7, 2), safe_ratio(1, 0), safe_ratio(1, 0, default=0.0))
            print(safe_ratio("7", 2))

            inventory = {"apples": 5, "pears": 0}
            for fruit in ("apples", "pears", "kiwis"):
                try:
                    count = inventory[fruit]
                    per_box = 10 // count
                except KeyError as exc:
                    print(f"{fruit}: unknown product {exc}")
                except ZeroDivisionError:
                    print(f"{fruit}: out of stock")
                else:
                    print(f"{fruit}: {count} in stock, {per_box} fit in a box")

            matrix = [[1, 2], [3, 4]]
            for r, c in [(0, 1), (1, 2), (2, 0)]:
                try:
                    print(f"matrix[{r}][{c}] = {matrix[r][c]}")
                except IndexError as exc:
                    print(f"matrix[{r}][{c}] -> IndexError: {exc}")
        """),
        stdout=(
            "3.5 None 0.0\n"
            "type error: unsupported operand type(s) for /: 'str' and 'int'\n"
            "apples: 5 in stock, 2 fit in a box\n"
            "pears: out of stock\n"
            "kiwis: unknown product 'kiwis'\n"
            "matrix[0][1] = 2\n"
            "matrix[1][2] -> IndexError: list index out of range\n"
            "matrix[2][0] -> IndexError: list index out of range\n"
        ),
    ),
    Case(
        id="contextmanager-transaction-rollback",
        category="errors",
        code=_src(r"""
            from contextlib import contextmanager


            class Store:
                def __init__(self):
                    self.data = {"stock": 10, "sold": 0}

                @contextmanager
                def transaction(self):
                    snapshot = dict(self.data)
                    try:
                        yield self.data
                        print("  committed", self.data)
                    except Exception as exc:
                        self.data = snapshot
                        print(f"  rolled back after {exc!r}")
                        raise


            store = Store()


            def sell(quantity):
                print(f"sell {quantity}:")
                with store.transaction() as data:
                    data["stock"] -= quantity
                    data["sold"] += quantity
                    if data["stock"] < 0:
                        raise ValueError(f"only {data['stock'] + quantity} left")


            for qty in (3, 9, 7):
                try:
                    sell(qty)
                except ValueError as exc:
                    print("  order refused:", exc)
            print("final:", store.data)
        """),
        stdout=(
            "sell 3:\n"
            "  committed {'stock': 7, 'sold': 3}\n"
            "sell 9:\n"
            "  rolled back after ValueError('only 7 left')\n"
            "  order refused: only 7 left\n"
            "sell 7:\n"
            "  committed {'stock': 0, 'sold': 10}\n"
            "final: {'stock': 0, 'sold': 10}\n"
        ),
    ),
    Case(
        id="errno-error-codes",
        category="errors",
        code=_src(r"""
            import errno


            class StorageError(OSError):
                pass


            def simulate_io(path):
                if path.startswith("/missing"):
                    raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
                if path.startswith("/root"):
                    raise PermissionError(errno.EACCES, "Permission denied", path)
                if path.endswith("/"):
                    raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
                if "full" in path:
                    raise StorageError(errno.ENOSPC, "No space left on device", path)
                return f"wrote {path}"


            paths = [
                "/tmp/report.txt",
                "/missing/data.csv",
                "/root/secret",
                "/var/log/",
                "/mnt/full/x",
            ]
            for path in paths:
                try:
                    print(simulate_io(path))
                except OSError as exc:
                    name = errno.errorcode[exc.errno]
                    kind = "FileNotFoundError" if isinstance(exc, FileNotFoundError) else "OSError"
                    print(f"{name:<7} {exc.strerror} ({exc.filename}) [{kind}]")

            print(errno.errorcode[errno.EEXIST], errno.ENOENT == errno.ENOENT)
        """),
        stdout=(
            "wrote /tmp/report.txt\n"
            "ENOENT  No such file or directory (/missing/data.csv) [FileNotFoundError]\n"
            "EACCES  Permission denied (/root/secret) [OSError]\n"
            "EISDIR  Is a directory (/var/log/) [OSError]\n"
            "ENOSPC  No space left on device (/mnt/full/x) [OSError]\n"
            "EEXIST True\n"
        ),
    ),
    Case(
        id="traceback-format-exception-only",
        category="errors",
        code=_src(r"""
            import traceback


            def parse_amount(text):
                cleaned = text.replace(",", "").strip()
                if cleaned.startswith("-"):
                    raise ValueError(f"negative amounts are not allowed: {text!r}")
                return round(float(cleaned), 2)


            inputs = ["1,234.50", "12", "-5", "abc", None]
            errors = []
            for text in inputs:
                try:
                    print(f"{text!r:>12} -> {parse_amount(text)}")
                except (ValueError, AttributeError) as exc:
                    line = traceback.format_exception_only(exc)[-1].strip()
                    errors.append(line)
                    print(f"{text!r:>12} -> error")

            print("error summary:")
            for line in errors:
                print("  " + line)
        """),
        stdout=(
            "  '1,234.50' -> 1234.5\n"
            "        '12' -> 12.0\n"
            "        '-5' -> error\n"
            "       'abc' -> error\n"
            "        None -> error\n"
            "error summary:\n"
            "  ValueError: negative amounts are not allowed: '-5'\n"
            "  ValueError: could not convert string to float: 'abc'\n"
            "  AttributeError: 'NoneType' object has no attribute 'replace'\n"
        ),
    ),
    Case(
        id="assertion-invariants",
        category="errors",
        code=_src(r"""
            def withdraw(balance, amount):
                assert amount > 0, f"amount must be positive, got {amount}"
                if amount > balance:
                    raise ValueError("insufficient funds")
                new_balance = balance - amount
                assert 0 <= new_balance < balance
                return new_balance


            def check_sorted(items):
                for a, b in zip(items, items[1:]):
                    if a > b:
                        raise AssertionError(f"{a} > {b}: list is not sorted")
                return True


            for amount in (30, 0, 500):
                try:
                    print(f"withdraw {amount}: balance {withdraw(100, amount)}")
                except AssertionError as exc:
                    print(f"withdraw {amount}: bug caught: {exc}")
                except ValueError as exc:
                    print(f"withdraw {amount}: refused: {exc}")

            for data in ([1, 2, 2, 5], [3, 1, 2]):
                try:
                    print(data, "sorted:", check_sorted(data))
                except AssertionError as exc:
                    print(data, "->", exc)
        """),
        stdout=(
            "withdraw 30: balance 70\n"
            "withdraw 0: bug caught: amount must be positive, got 0\n"
            "withdraw 500: refused: insufficient funds\n"
            "[1, 2, 2, 5] sorted: True\n"
            "[3, 1, 2] -> 3 > 1: list is not sorted\n"
        ),
    ),
    Case(
        id="stdout-write-table",
        category="output",
        code=_src(r"""
            import sys

            rows = [
                ("Service", "Uptime", "p95 ms", "Errors"),
                ("auth", "99.98%", "41", "3"),
                ("search", "99.71%", "212", "58"),
                ("billing", "100.00%", "87", "0"),
            ]
            widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]


            def write_row(cells):
                padded = [
                    cell.ljust(width) if i == 0 else cell.rjust(width)
                    for i, (cell, width) in enumerate(zip(cells, widths))
                ]
                sys.stdout.write("| " + " | ".join(padded) + " |\n")


            separator = "+-" + "-+-".join("-" * w for w in widths) + "-+\n"
            sys.stdout.write(separator)
            write_row(rows[0])
            sys.stdout.write(separator.replace("-", "="))
            for row in rows[1:]:
                write_row(row)
            sys.stdout.write(separator)
            sys.stdout.write(f"{len(rows) - 1} services\n")
        """),
        stdout=(
            "+---------+---------+--------+--------+\n"
            "| Service |  Uptime | p95 ms | Errors |\n"
            "+=========+=========+========+========+\n"
            "| auth    |  99.98% |     41 |      3 |\n"
            "| search  |  99.71% |    212 |     58 |\n"
            "| billing | 100.00% |     87 |      0 |\n"
            "+---------+---------+--------+--------+\n"
            "3 services\n"
        ),
    ),
    Case(
        id="version-info-feature-check",
        category="output",
        code=_src(r"""
            import sys

            if sys.version_info >= (3, 8):
                print("walrus operator available")
            if sys.version_info >= (3, 10):
                print("structural pattern matching available")
            if sys.version_info >= (3, 11):
                import tomllib

                print("tomllib available:", tomllib.loads("a = 1") == {"a": 1})
            if sys.version_info >= (3, 12):
                print("PEP 695 type parameters available")

            major, minor = sys.version_info[:2]
            print(f"running on Python {major}.x: {major == 3}")
            print(f"at least 3.12: {(major, minor) >= (3, 12)}")
            print("version string starts with major:", sys.version.startswith(f"{major}."))
            print("release level is a string:", isinstance(sys.version_info.releaselevel, str))
        """),
        stdout=(
            "walrus operator available\n"
            "structural pattern matching available\n"
            "tomllib available: True\n"
            "PEP 695 type parameters available\n"
            "running on Python 3.x: True\n"
            "at least 3.12: True\n"
            "version string starts with major: True\n"
            "release level is a string: True\n"
        ),
    ),
    Case(
        id="recursion-limit-deep-tree",
        category="output",
        code=_src(r"""
            import sys

            sys.setrecursionlimit(5000)
            print("recursion limit raised:", sys.getrecursionlimit() >= 5000)


            def build_chain(depth):
                node = None
                for value in range(depth, 0, -1):
                    node = {"value": value, "child": node}
                return node


            def depth_of(node):
                return 0 if node is None else 1 + depth_of(node["child"])


            def total(node):
                return 0 if node is None else node["value"] + total(node["child"])


            chain = build_chain(300)
            print("depth:", depth_of(chain))
            print("sum of values:", total(chain), "expected:", 300 * 301 // 2)


            def ackermann(m, n):
                if m == 0:
                    return n + 1
                if n == 0:
                    return ackermann(m - 1, 1)
                return ackermann(m - 1, ackermann(m, n - 1))


            print("ackermann(2, 3) =", ackermann(2, 3))
        """),
        stdout=(
            "recursion limit raised: True\n"
            "depth: 300\n"
            "sum of values: 45150 expected: 45150\n"
            "ackermann(2, 3) = 9\n"
        ),
    ),
    Case(
        id="main-guard-sys-exit",
        category="output",
        code=_src(r'''
            import sys
            from collections import Counter

            TEXT = """the cat sat on the mat
            the dog sat on the log
            a bird sat on the cat"""


            def summarise(text):
                words = text.split()
                counts = Counter(words)
                return {
                    "lines": len(text.splitlines()),
                    "words": len(words),
                    "unique": len(counts),
                    "top": counts.most_common(3),
                }


            def main() -> int:
                stats = summarise(TEXT)
                for key, value in stats.items():
                    print(f"{key:>6}: {value}")
                return 0


            if __name__ == "__main__":
                sys.exit(main())
        '''),
        stdout=(
            " lines: 3\n"
            " words: 18\n"
            "unique: 9\n"
            "   top: [('the', 5), ('sat', 3), ('on', 3)]\n"
        ),
    ),
    Case(
        id="logging-to-stdout",
        category="output",
        code=_src(r"""
            import logging
            import sys

            logging.basicConfig(
                stream=sys.stdout,
                level=logging.DEBUG,
                format="%(levelname)-7s %(name)s: %(message)s",
            )
            log = logging.getLogger("etl")
            db_log = logging.getLogger("etl.db")


            def load(rows):
                log.info("loading %d rows", len(rows))
                loaded = 0
                for row in rows:
                    if not row.get("id"):
                        log.warning("skipping row without id: %r", row)
                        continue
                    db_log.debug("insert id=%s", row["id"])
                    loaded += 1
                if loaded < len(rows):
                    log.error("%d of %d rows rejected", len(rows) - loaded, len(rows))
                return loaded


            count = load([{"id": 1}, {"name": "orphan"}, {"id": 3}])
            db_log.setLevel(logging.INFO)
            db_log.debug("this debug message is filtered out")
            log.info("done: %s rows loaded", count)
            root_handler = logging.getLogger().handlers[0]
            root_handler.setFormatter(logging.Formatter("[%(levelname)s] %(message)s"))
            log.critical("formatter changed")
        """),
        stdout=(
            "INFO    etl: loading 3 rows\n"
            "DEBUG   etl.db: insert id=1\n"
            "WARNING etl: skipping row without id: {'name': 'orphan'}\n"
            "DEBUG   etl.db: insert id=3\n"
            "ERROR   etl: 1 of 3 rows rejected\n"
            "INFO    etl: done: 2 rows loaded\n"
            "[CRITICAL] formatter changed\n"
        ),
    ),
    Case(
        id="pprint-nested-structures",
        category="output",
        code=_src(r"""
            from pprint import pformat, pprint

            inventory = {
                "warehouse": "north",
                "bins": [
                    {"id": f"B{n:02d}", "items": {"bolts": n * 10, "nuts": n * 7, "washers": n * 3}}
                    for n in range(1, 4)
                ],
                "tags": ["fasteners", "metal", "bulk"],
                "audit": {"last": "2024-05-30", "by": "kim", "passed": True},
            }

            pprint(inventory, width=72)
            print()
            pprint(inventory, depth=2, compact=True)
            print()
            print(pformat(list(range(30)), width=40, compact=True))
            print(pformat({"z": 1, "a": 2}, sort_dicts=False))
        """),
        stdout=(
            "{'audit': {'by': 'kim', 'last': '2024-05-30', 'passed': True},\n"
            " 'bins': [{'id': 'B01',\n"
            "           'items': {'bolts': 10, 'nuts': 7, 'washers': 3}},\n"
            "          {'id': 'B02',\n"
            "           'items': {'bolts': 20, 'nuts': 14, 'washers': 6}},\n"
            "          {'id': 'B03',\n"
            "           'items': {'bolts': 30, 'nuts': 21, 'washers': 9}}],\n"
            " 'tags': ['fasteners', 'metal', 'bulk'],\n"
            " 'warehouse': 'north'}\n"
            "\n"
            "{'audit': {'by': 'kim', 'last': '2024-05-30', 'passed': True},\n"
            " 'bins': [{...}, {...}, {...}],\n"
            " 'tags': ['fasteners', 'metal', 'bulk'],\n"
            " 'warehouse': 'north'}\n"
            "\n"
            "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,\n"
            " 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,\n"
            " 22, 23, 24, 25, 26, 27, 28, 29]\n"
            "{'z': 1, 'a': 2}\n"
        ),
    ),
    Case(
        id="textwrap-report-columns",
        category="output",
        code=_src(r"""
            import textwrap

            tickets = [
                ("BUG-101", "high",
                 "Checkout page throws a 500 error when the cart contains more than "
                 "fifty items and a discount code is applied."),
                ("FEAT-7", "low", "Add dark mode."),
                ("BUG-230", "medium",
                 "Search results are not sorted by relevance when the query contains "
                 "quoted phrases; the order appears random."),
            ]

            ID_W, PRIO_W, DESC_W = 8, 7, 40
            print(f"{'ID':<{ID_W}} {'PRIO':<{PRIO_W}} {'DESCRIPTION'}")
            print(f"{'-' * ID_W} {'-' * PRIO_W} {'-' * DESC_W}")
            for ticket_id, priority, description in tickets:
                lines = textwrap.wrap(description, width=DESC_W)
                print(f"{ticket_id:<{ID_W}} {priority:<{PRIO_W}} {lines[0]}")
                for extra in lines[1:]:
                    print(f"{'':<{ID_W}} {'':<{PRIO_W}} {extra}")
            print()
            summary = textwrap.shorten(" ".join(t[2] for t in tickets), width=60, placeholder="...")
            print(textwrap.indent(summary, "  | "))
        """),
        stdout=(
            "ID       PRIO    DESCRIPTION\n"
            "-------- ------- ----------------------------------------\n"
            "BUG-101  high    Checkout page throws a 500 error when\n"
            "                 the cart contains more than fifty items\n"
            "                 and a discount code is applied.\n"
            "FEAT-7   low     Add dark mode.\n"
            "BUG-230  medium  Search results are not sorted by\n"
            "                 relevance when the query contains quoted\n"
            "                 phrases; the order appears random.\n"
            "\n"
            "  | Checkout page throws a 500 error when the cart contains...\n"
        ),
    ),
    Case(
        id="print-sep-end-alignment",
        category="output",
        code=_src(r"""
            items = [("Espresso", 2.5, 2), ("Croissant", 3.25, 1), ("Orange juice", 4.0, 3)]

            print("RECEIPT", "Cafe Lumen", "2024-06-01", sep=" | ")
            print("=" * 36)
            total = 0
            for name, price, qty in items:
                line_total = price * qty
                total += line_total
                print(f"{name:<16}{qty:>3} x {price:>5.2f}{line_total:>9.2f}")
            print("-" * 36)
            print(f"{'TOTAL':<16}{total:>20.2f}")
            print("Thank you", end="")
            print("!", end="\n\n")
            print(*range(1, 6), sep=", ", end=".\n")
            print(f"{'left':<10}|{'centre':^10}|{'right':>10}|")
            print(f"{3.14159:08.3f} {42:+d} {1234567.891:,.2f} {0.256:.1%} {12:#06x}")
            print("tabs\tare\tkept", repr("quote\"s"))
        """),
        stdout=(
            "RECEIPT | Cafe Lumen | 2024-06-01\n"
            "====================================\n"
            "Espresso          2 x  2.50     5.00\n"
            "Croissant         1 x  3.25     3.25\n"
            "Orange juice      3 x  4.00    12.00\n"
            "------------------------------------\n"
            "TOTAL                          20.25\n"
            "Thank you!\n"
            "\n"
            "1, 2, 3, 4, 5.\n"
            "left      |  centre  |     right|\n"
            "0003.142 +42 1,234,567.89 25.6% 0x000c\n"
            "tabs\tare\tkept 'quote\"s'\n"
        ),
    ),
    Case(
        id="progress-bar-render",
        category="output",
        code=_src(r"""
            import sys


            def render_bar(done, total, width=30):
                fraction = done / total
                filled = int(width * fraction)
                return f"[{'#' * filled}{'.' * (width - filled)}] {fraction:6.1%} ({done}/{total})"


            steps = [0, 7, 15, 22, 30, 41]
            for step in steps:
                sys.stdout.write(render_bar(step, 41) + "\n")

            spinner = "|/-\\"
            frames = "".join(spinner[i % 4] for i in range(10))
            sys.stdout.write(f"spinner frames: {frames}\n")
            sys.stdout.write("done\n")
        """),
        stdout=(
            "[..............................]   0.0% (0/41)\n"
            "[#####.........................]  17.1% (7/41)\n"
            "[##########....................]  36.6% (15/41)\n"
            "[################..............]  53.7% (22/41)\n"
            "[#####################.........]  73.2% (30/41)\n"
            "[##############################] 100.0% (41/41)\n"
            "spinner frames: |/-\\|/-\\|/\n"
            "done\n"
        ),
    ),
    Case(
        id="maxsize-sentinel-search",
        category="output",
        code=_src(r"""
            import sys


            def closest_pair(points):
                best = sys.maxsize
                pair = None
                for i, (x1, y1) in enumerate(points):
                    for x2, y2 in points[i + 1:]:
                        d = (x1 - x2) ** 2 + (y1 - y2) ** 2
                        if d < best:
                            best, pair = d, ((x1, y1), (x2, y2))
                return pair, best


            points = [(0, 0), (5, 4), (3, 1), (9, 9), (4, 3), (-2, 7)]
            pair, squared = closest_pair(points)
            print("closest pair:", pair, "squared distance:", squared)
            print("sentinel is a large int:", sys.maxsize > 2**30)
            print("no points:", closest_pair([]) == (None, sys.maxsize))
            print("object size is positive:", sys.getsizeof(points) > 0)
            print("argv is a list:", isinstance(sys.argv, list))
        """),
        stdout=(
            "closest pair: ((5, 4), (4, 3)) squared distance: 2\n"
            "sentinel is a large int: True\n"
            "no points: True\n"
            "object size is positive: True\n"
            "argv is a list: True\n"
        ),
    ),
    Case(
        id="main-function-report-exit",
        category="output",
        code=_src(r"""
            import statistics
            import sys

            SCORES = {
                "ana": [88, 92, 79],
                "ben": [65, 70, 72],
                "cy": [95, 98, 100],
                "dee": [55, 61, 58],
            }


            def grade(mean):
                for threshold, letter in ((90, "A"), (80, "B"), (70, "C"), (60, "D")):
                    if mean >= threshold:
                        return letter
                return "F"


            def main(argv=None):
                print(f"{'student':<8}{'mean':>7}  grade")
                failing = 0
                for student, scores in sorted(SCORES.items()):
                    mean = statistics.mean(scores)
                    letter = grade(mean)
                    failing += letter == "F"
                    sys.stdout.write(f"{student:<8}{mean:>7.2f}  {letter}\n")
                print(f"{failing} student(s) failing")
                return 0


            if __name__ == "__main__":
                sys.exit(main())
        """),
        stdout=(
            "student    mean  grade\n"
            "ana       86.33  B\n"
            "ben       69.00  D\n"
            "cy        97.67  A\n"
            "dee       58.00  F\n"
            "1 student(s) failing\n"
        ),
    ),
    Case(
        id="reprlib-truncated-output",
        category="output",
        code=_src(r"""
            import reprlib

            big_list = list(range(1000))
            long_text = "lorem ipsum dolor sit amet " * 20
            nested = {"level1": {"level2": {"level3": {"level4": [1, 2, 3]}}}}

            print(reprlib.repr(big_list))
            print(reprlib.repr(long_text))
            print(reprlib.repr(nested))
            short = reprlib.Repr()
            short.maxlist = 3
            short.maxstring = 20
            print(short.repr(big_list), short.repr(long_text))
            print(short.repr(set(range(10))))
        """),
        stdout=(
            "[0, 1, 2, 3, 4, 5, ...]\n"
            "'lorem ipsum ...lor sit amet '\n"
            "{'level1': {'level2': {'level3': {'level4': [1, 2, 3]}}}}\n"
            "[0, 1, 2, ...] 'lorem i...it amet '\n"
            "{0, 1, 2, 3, 4, 5, ...}\n"
        ),
    ),
    Case(
        id="argparse-main-exit-code",
        category="output",
        code=_src(r"""
            import argparse
            import sys

            ORDERS = [
                ("o-1", "eu", 120.0),
                ("o-2", "us", 75.5),
                ("o-3", "eu", 42.25),
                ("o-4", "apac", 300.0),
            ]


            def parse_args(argv):
                parser = argparse.ArgumentParser(prog="orders")
                parser.add_argument("--region", default=None)
                parser.add_argument("--min-total", type=float, default=0.0)
                parser.add_argument("--format", choices=["table", "csv"], default="table")
                return parser.parse_args(argv)


            def main(argv=None):
                if argv is None:
                    argv = ["--region", "eu", "--format", "csv"]
                args = parse_args(argv)
                selected = [
                    o for o in ORDERS
                    if (args.region is None or o[1] == args.region) and o[2] >= args.min_total
                ]
                if args.format == "csv":
                    sys.stdout.write("id,region,total\n")
                    for order_id, region, total in selected:
                        sys.stdout.write(f"{order_id},{region},{total:.2f}\n")
                else:
                    for order_id, region, total in selected:
                        print(f"{order_id:<5}{region:<6}{total:>8.2f}")
                print(f"{len(selected)} order(s), total {sum(o[2] for o in selected):.2f}")
                return 0


            if __name__ == "__main__":
                main(["--min-total", "100"])
                sys.exit(main())
        """),
        stdout=(
            "o-1  eu      120.00\n"
            "o-4  apac    300.00\n"
            "2 order(s), total 420.00\n"
            "id,region,total\n"
            "o-1,eu,120.00\n"
            "o-3,eu,42.25\n"
            "2 order(s), total 162.25\n"
        ),
    ),
    Case(
        id="recursion-limit-memo-depth",
        category="output",
        code=_src(r"""
            import sys
            from functools import lru_cache

            print("default limit is positive:", sys.getrecursionlimit() > 0)
            sys.setrecursionlimit(5000)


            @lru_cache(maxsize=None)
            def collatz_steps(n):
                if n == 1:
                    return 0
                return 1 + collatz_steps(n // 2 if n % 2 == 0 else 3 * n + 1)


            @lru_cache(maxsize=None)
            def tri(n):
                return 0 if n == 0 else n + tri(n - 1)


            print("triangular(250) =", tri(250))
            best = max(range(1, 3000), key=collatz_steps)
            print(f"longest Collatz chain below 3000 starts at {best}: {collatz_steps(best)} steps")
            print("cache entries:", collatz_steps.cache_info().currsize > 3000)
        """),
        stdout=(
            "default limit is positive: True\n"
            "triangular(250) = 31375\n"
            "longest Collatz chain below 3000 starts at 2919: 216 steps\n"
            "cache entries: True\n"
        ),
    ),
    Case(
        id="observer-event-hooks",
        category="oop",
        code=_src(r"""
            class EventBus:
                def __init__(self):
                    self.listeners = []
                    self.log = []

                def subscribe(self, listener):
                    self.listeners.append(listener)
                    if not hasattr(listener, "received"):
                        setattr(listener, "received", 0)

                def publish(self, event, payload):
                    for listener in self.listeners:
                        handler = getattr(listener, "on_event", None)
                        if handler is None:
                            self.log.append(f"{listener.name}: ignores events")
                            continue
                        listener.received += 1
                        self.log.append(f"{listener.name}: {handler(event, payload)}")


            class AuditTrail:
                name = "audit"

                def on_event(self, event, payload):
                    return f"recorded {event} {sorted(payload)}"


            class Mailer:
                name = "mailer"

                def on_event(self, event, payload):
                    if event != "signup":
                        return "nothing to send"
                    return f"welcome mail to {payload['email']}"


            class Metrics:
                name = "metrics"


            bus = EventBus()
            for listener in (AuditTrail(), Mailer(), Metrics()):
                bus.subscribe(listener)
            bus.publish("signup", {"email": "zoe@example.com", "plan": "free"})
            bus.publish("login", {"email": "zoe@example.com"})
            print("\n".join(bus.log))
            print({listener.name: getattr(listener, "received") for listener in bus.listeners})
        """),
        stdout=(
            "audit: recorded signup ['email', 'plan']\n"
            "mailer: welcome mail to zoe@example.com\n"
            "metrics: ignores events\n"
            "audit: recorded login ['email']\n"
            "mailer: nothing to send\n"
            "metrics: ignores events\n"
            "{'audit': 2, 'mailer': 2, 'metrics': 0}\n"
        ),
    ),
]
