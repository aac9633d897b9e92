#!/usr/bin/env python3
"""Generates deterministic TPC-H-shaped data for dbgen's benchmark and flood tests: the eight
tables of TPC-H with its column types, value shapes and row ratios, pipe-delimited, and the
schema script that imports them in the sqlite3 shell's dialect.

usage: scripts/gen-tpch.py SCALE OUTDIR [--trailing-separator | --both]
    SCALE  TPC-H's scale factor (a decimal: 0.01, 0.1, 1). SCALE 1 gives 8,657,163 rows:
           region 5, nation 25, supplier 10,000, customer 150,000, part 200,000,
           partsupp 800,000, orders 1,500,000 and lineitem 5,997,133 (1 to 7 an order, as
           TPC-H's 6,001,215).
    OUTDIR receives TABLE.tbl for each table and schema.txt (TPC-H's dss.ddl column types,
           `.separator |` and one `.import` a table).
    --trailing-separator  ends every line with `|`, as TPC-H's own dbgen does: each row then
           has one field more than its table (sqlite3 warns once a row and imports it).
    --both  writes the clean files in OUTDIR/clean and the trailing ones in OUTDIR/trailing,
           from one pass (the same rows in both).

The same SCALE always gives the same bytes: a fixed seed per table, no dependence on locale,
time or Python's hash seed. Comments come from a small vocabulary as TPC-H's text grammar's
do; money is printed with two decimals and dates as YYYY-MM-DD, so NUMERIC affinity turns
them into REAL and leaves dates as TEXT, as it does with TPC-H's own files.
"""
import datetime
import os
import random
import sys

TABLES = ("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem")

SCHEMA_TABLES = """\
CREATE TABLE region (r_regionkey INTEGER NOT NULL, r_name CHAR(25) NOT NULL, r_comment VARCHAR(152));
CREATE TABLE nation (n_nationkey INTEGER NOT NULL, n_name CHAR(25) NOT NULL, n_regionkey INTEGER NOT NULL,
  n_comment VARCHAR(152));
CREATE TABLE supplier (s_suppkey INTEGER NOT NULL, s_name CHAR(25) NOT NULL, s_address VARCHAR(40) NOT NULL,
  s_nationkey INTEGER NOT NULL, s_phone CHAR(15) NOT NULL, s_acctbal DECIMAL(15,2) NOT NULL,
  s_comment VARCHAR(101) NOT NULL);
CREATE TABLE customer (c_custkey INTEGER NOT NULL, c_name VARCHAR(25) NOT NULL, c_address VARCHAR(40) NOT NULL,
  c_nationkey INTEGER NOT NULL, c_phone CHAR(15) NOT NULL, c_acctbal DECIMAL(15,2) NOT NULL,
  c_mktsegment CHAR(10) NOT NULL, c_comment VARCHAR(117) NOT NULL);
CREATE TABLE part (p_partkey INTEGER NOT NULL, p_name VARCHAR(55) NOT NULL, p_mfgr CHAR(25) NOT NULL,
  p_brand CHAR(10) NOT NULL, p_type VARCHAR(25) NOT NULL, p_size INTEGER NOT NULL, p_container CHAR(10) NOT NULL,
  p_retailprice DECIMAL(15,2) NOT NULL, p_comment VARCHAR(23) NOT NULL);
CREATE TABLE partsupp (ps_partkey INTEGER NOT NULL, ps_suppkey INTEGER NOT NULL, ps_availqty INTEGER NOT NULL,
  ps_supplycost DECIMAL(15,2) NOT NULL, ps_comment VARCHAR(199) NOT NULL);
CREATE TABLE orders (o_orderkey INTEGER NOT NULL, o_custkey INTEGER NOT NULL, o_orderstatus CHAR(1) NOT NULL,
  o_totalprice DECIMAL(15,2) NOT NULL, o_orderdate DATE NOT NULL, o_orderpriority CHAR(15) NOT NULL,
  o_clerk CHAR(15) NOT NULL, o_shippriority INTEGER NOT NULL, o_comment VARCHAR(79) NOT NULL);
CREATE TABLE lineitem (l_orderkey INTEGER NOT NULL, l_partkey INTEGER NOT NULL, l_suppkey INTEGER NOT NULL,
  l_linenumber INTEGER NOT NULL, l_quantity DECIMAL(15,2) NOT NULL, l_extendedprice DECIMAL(15,2) NOT NULL,
  l_discount DECIMAL(15,2) NOT NULL, l_tax DECIMAL(15,2) NOT NULL, l_returnflag CHAR(1) NOT NULL,
  l_linestatus CHAR(1) NOT NULL, l_shipdate DATE NOT NULL, l_commitdate DATE NOT NULL,
  l_receiptdate DATE NOT NULL, l_shipinstruct CHAR(25) NOT NULL, l_shipmode CHAR(10) NOT NULL,
  l_comment VARCHAR(44) NOT NULL);
"""

NATIONS = (("ALGERIA", 0), ("ARGENTINA", 1), ("BRAZIL", 1), ("CANADA", 1), ("EGYPT", 4), ("ETHIOPIA", 0),
           ("FRANCE", 3), ("GERMANY", 3), ("INDIA", 2), ("INDONESIA", 2), ("IRAN", 4), ("IRAQ", 4),
           ("JAPAN", 2), ("JORDAN", 4), ("KENYA", 0), ("MOROCCO", 0), ("MOZAMBIQUE", 0), ("PERU", 1),
           ("CHINA", 2), ("ROMANIA", 3), ("SAUDI ARABIA", 4), ("VIETNAM", 2), ("RUSSIA", 3),
           ("UNITED KINGDOM", 3), ("UNITED STATES", 1))
REGIONS = ("AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST")
WORDS = ("furiously special foxes haggle carefully final deposits sleep quickly regular accounts boost "
         "blithely ironic packages nag slyly express requests wake fluffily pending theodolites cajole "
         "bold instructions integrate even pinto beans detect unusual asymptotes among the dependencies "
         "across silent courts above ideas are daring platelets along dolphins use").split()
COLORS = ("almond antique aquamarine azure beige bisque black blanched blue blush brown burlywood burnished "
          "chartreuse chiffon chocolate coral cornflower cornsilk cream cyan dark deep dim dodger drab "
          "firebrick floral forest frosted gainsboro ghost goldenrod green grey honeydew hot indian ivory "
          "khaki lace lavender lawn lemon light lime linen magenta maroon medium metallic midnight mint "
          "misty moccasin navajo navy olive orange orchid pale papaya peach peru pink plum powder puff "
          "purple red rose rosy royal saddle salmon sandy seashell sienna sky slate smoke snow spring "
          "steel tan thistle tomato turquoise violet wheat white yellow").split()
SEGMENTS = ("AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY")
PRIORITIES = ("1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW")
INSTRUCTIONS = ("DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN")
MODES = ("REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB")
TYPE_1 = ("STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO")
TYPE_2 = ("ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED")
TYPE_3 = ("TIN", "NICKEL", "BRASS", "STEEL", "COPPER")
CONTAINER_1 = ("SM", "LG", "MED", "JUMBO", "WRAP")
CONTAINER_2 = ("CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM")
START_DATE = datetime.date(1992, 1, 1)
DATES = [(START_DATE + datetime.timedelta(days=day)).isoformat() for day in range(2557 + 151)]
CURRENT_DAY = (datetime.date(1995, 6, 17) - START_DATE).days


class Writer:
    """Writes each row to the clean file, the trailing-separator file, or both."""

    def __init__(self, outdir, table, mode):
        self.clean = self.trailing = None
        if mode in ("clean", "both"):
            path = os.path.join(outdir, "clean" if mode == "both" else "", table + ".tbl")
            self.clean = open(path, "w", encoding="ascii", newline="")
        if mode in ("trailing", "both"):
            path = os.path.join(outdir, "trailing" if mode == "both" else "", table + ".tbl")
            self.trailing = open(path, "w", encoding="ascii", newline="")
        self.lines = []

    def row(self, text):
        self.lines.append(text)
        if len(self.lines) >= 8192:
            self.flush()

    def flush(self):
        if self.clean:
            self.clean.write("\n".join(self.lines) + "\n" if self.lines else "")
        if self.trailing:
            self.trailing.write("|\n".join(self.lines) + "|\n" if self.lines else "")
        self.lines = []

    def close(self):
        self.flush()
        for handle in (self.clean, self.trailing):
            if handle:
                handle.close()


def comment_pool(rng, shortest, longest, size=4096):
    """Pre-made comments of `shortest` to `longest` characters, picked from by index."""
    pool = []
    for _ in range(size):
        target = rng.randint(shortest, longest)
        words = []
        while sum(len(w) + 1 for w in words) < target:
            words.append(rng.choice(WORDS))
        pool.append(" ".join(words)[:target].rstrip())
    return pool


def phone(rng, nation):
    return f"{nation + 10}-{rng.randint(100, 999)}-{rng.randint(100, 999)}-{rng.randint(1000, 9999)}"


def address(rng, pool):
    return pool[rng.getrandbits(12)][: rng.randint(10, 40)].replace(" ", ",", 1)


def money(cents):
    return f"{cents // 100}.{cents % 100:02d}" if cents >= 0 else f"-{-cents // 100}.{-cents % 100:02d}"


def generate(scale, outdir, mode):
    suppliers, customers, parts, orders = (max(1, int(base * scale)) for base in (10000, 150000, 200000, 1500000))
    counts = {}

    def table(name, seed):
        return Writer(outdir, name, mode), random.Random(seed), comment_pool(random.Random(seed + 1), 10, 120)

    out, rng, comments = table("region", 1)
    for key, name in enumerate(REGIONS):
        out.row(f"{key}|{name}|{comments[rng.getrandbits(12)]}")
    out.close(); counts["region"] = len(REGIONS)

    out, rng, comments = table("nation", 2)
    for key, (name, region) in enumerate(NATIONS):
        out.row(f"{key}|{name}|{region}|{comments[rng.getrandbits(12)]}")
    out.close(); counts["nation"] = len(NATIONS)

    out, rng, comments = table("supplier", 3)
    for key in range(1, suppliers + 1):
        nation = rng.randint(0, 24)
        out.row(f"{key}|Supplier#{key:09d}|{address(rng, comments)}|{nation}|{phone(rng, nation)}|"
                f"{money(rng.randint(-99999, 999999))}|{comments[rng.getrandbits(12)][:101]}")
    out.close(); counts["supplier"] = suppliers

    out, rng, comments = table("customer", 4)
    for key in range(1, customers + 1):
        nation = rng.randint(0, 24)
        out.row(f"{key}|Customer#{key:09d}|{address(rng, comments)}|{nation}|{phone(rng, nation)}|"
                f"{money(rng.randint(-99999, 999999))}|{SEGMENTS[rng.randint(0, 4)]}|{comments[rng.getrandbits(12)][:117]}")
    out.close(); counts["customer"] = customers

    out, rng, comments = table("part", 5)
    prices = [0] * (parts + 1)
    for key in range(1, parts + 1):
        name = " ".join(rng.sample(COLORS, 5))
        manufacturer = rng.randint(1, 5)
        prices[key] = 90000 + (key // 10) % 20001 + 100 * (key % 1000)
        out.row(f"{key}|{name}|Manufacturer#{manufacturer}|Brand#{manufacturer}{rng.randint(1, 5)}|"
                f"{rng.choice(TYPE_1)} {rng.choice(TYPE_2)} {rng.choice(TYPE_3)}|{rng.randint(1, 50)}|"
                f"{rng.choice(CONTAINER_1)} {rng.choice(CONTAINER_2)}|{money(prices[key])}|"
                f"{comments[rng.getrandbits(12)][:23].rstrip()}")
    out.close(); counts["part"] = parts

    out, rng, comments = table("partsupp", 6)
    long_comments = comment_pool(random.Random(61), 49, 198)
    for key in range(1, parts + 1):
        for index in range(4):
            supplier = (key + index * (suppliers // 4 + (key - 1) // suppliers)) % suppliers + 1
            out.row(f"{key}|{supplier}|{rng.randint(1, 9999)}|{money(rng.randint(100, 100000))}|"
                    f"{long_comments[rng.getrandbits(12)]}")
    out.close(); counts["partsupp"] = parts * 4

    orders_out, rng, comments = table("orders", 7)
    lines_out = Writer(outdir, "lineitem", mode)
    line_comments = comment_pool(random.Random(81), 10, 43)
    line_rng = random.Random(8)
    line_count = 0
    for index in range(orders):
        key = (index // 8) * 32 + index % 8 + 1          # TPC-H's sparse order keys
        customer = rng.randint(1, customers)
        if customer % 3 == 0:                           # a third of the customers order nothing
            customer = customer % customers + 1
        day = rng.randint(0, 2557 - 151)
        total, shipped = 0, 0
        count = line_rng.randint(1, 7)
        for number in range(1, count + 1):
            part = line_rng.randint(1, parts)
            supplier = (part + line_rng.randint(0, 3) * (suppliers // 4 + (part - 1) // suppliers)) % suppliers + 1
            quantity = line_rng.randint(1, 50)
            price = quantity * prices[part]
            discount, tax = line_rng.randint(0, 10), line_rng.randint(0, 8)
            ship = day + line_rng.randint(1, 121)
            receipt = ship + line_rng.randint(1, 30)
            flag = ("R" if line_rng.getrandbits(1) else "A") if receipt <= CURRENT_DAY else "N"
            status = "O" if ship > CURRENT_DAY else "F"
            shipped += status == "F"
            total += price * (100 - discount) * (100 + tax) // 10000
            lines_out.row(f"{key}|{part}|{supplier}|{number}|{quantity}|{money(price)}|0.{discount:02d}|"
                          f"0.{tax:02d}|{flag}|{status}|{DATES[ship]}|{DATES[day + line_rng.randint(30, 90)]}|"
                          f"{DATES[receipt]}|{INSTRUCTIONS[line_rng.getrandbits(2)]}|"
                          f"{MODES[line_rng.randint(0, 6)]}|{line_comments[line_rng.getrandbits(12)]}")
        line_count += count
        state = "F" if shipped == count else "O" if shipped == 0 else "P"
        orders_out.row(f"{key}|{customer}|{state}|{money(total)}|{DATES[day]}|{PRIORITIES[rng.randint(0, 4)]}|"
                       f"Clerk#{rng.randint(1, max(1, int(1000 * scale))):09d}|0|{comments[rng.getrandbits(12)][:79]}")
    orders_out.close(); lines_out.close()
    counts["orders"], counts["lineitem"] = orders, line_count
    return counts


def write_schema(directory):
    script = SCHEMA_TABLES + ".mode csv\n.separator |\n" + "".join(f".import {name}.tbl {name}\n" for name in TABLES)
    with open(os.path.join(directory, "schema.txt"), "w", encoding="ascii", newline="") as out:
        out.write(script)


def main():
    arguments = sys.argv[1:]
    mode = "clean"
    if arguments and arguments[-1] in ("--trailing-separator", "--both"):
        mode = "trailing" if arguments.pop() == "--trailing-separator" else "both"
    if len(arguments) != 2:
        sys.exit("usage: gen-tpch.py SCALE OUTDIR [--trailing-separator | --both]")
    scale, outdir = float(arguments[0]), arguments[1]
    directories = [os.path.join(outdir, "clean"), os.path.join(outdir, "trailing")] if mode == "both" else [outdir]
    for directory in directories:
        os.makedirs(directory, exist_ok=True)
        write_schema(directory)
    counts = generate(scale, outdir, mode)
    print(" ".join(f"{name} {counts[name]}" for name in TABLES) + f" total {sum(counts.values())}")


if __name__ == "__main__":
    main()
