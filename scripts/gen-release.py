#!/usr/bin/env python3
"""Writes the data of a release from the data of the one before it, deterministically, for the
over-the-air benchmark (scripts/bench-ota.sh): each release is then built by dbgen from its own
files, as a publisher's would be.

usage: scripts/gen-release.py food|tpch FROM TO VERSION [--same | --values]
    FROM     a directory of scripts/gen-food.py's (food.csv, schema.txt) or scripts/gen-tpch.py's
             output (TABLE.tbl, schema.txt), or an earlier output of this script.
    TO       receives the release's files: schema.txt ends with `PRAGMA user_version = VERSION;`
             (replacing the line an earlier release's had), the data files beside it.
    VERSION  the release's user_version (a release's must be greater than the one before).
    --same   the data as it is (release 1: only the user_version is set).
    --values (food) 1% of all the values changed rather than 1% of the rows.

food: 1% of the rows get a new value in one of their columns other than the key (group, name,
desc or kcal, drawn uniformly), as scripts/bench-diff.sh's pair and the issue's reference
figure have it; with --values, 1% of all the values other than the key do (about 4% of the
rows). 0.1% of the rows are deleted and 0.1% are inserted with new keys above the largest. tpch: 1% of lineitem's rows get a new l_quantity,
l_extendedprice and l_comment in place (TPC-H has no primary key: rows keep their order, so
their rowid); the other tables are hard links to FROM's. The seed is the VERSION: the same
FROM and VERSION always give the same bytes.
"""
import importlib.util
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    """A sibling script as a module (their names have hyphens)."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_schema(source, target, version):
    with open(os.path.join(source, "schema.txt"), encoding="utf-8") as handle:
        text = re.sub(r"(?m)^PRAGMA user_version = \d+;\n", "", handle.read())
    with open(os.path.join(target, "schema.txt"), "w", encoding="utf-8", newline="") as handle:
        handle.write(text + f"PRAGMA user_version = {version};\n")


def food(source, target, rng, every_value):
    """1% of the rows (or of the values) changed, 0.1% of the rows deleted, 0.1% inserted."""
    gen_food = load("gen-food")
    with open(os.path.join(source, "food.csv"), encoding="utf-8", newline="") as handle:
        lines = handle.read().split("\n")[:-1]
    rows = len(lines)
    # A line is pk|group|name|desc|kcal; name and desc may be quoted (and hold '|'), pk and
    # group never are and kcal never is: split off the two ends, then the middle at the one
    # separator outside quotes.
    def cells(line):
        pk, group, rest = line.split("|", 2)
        middle, kcal = rest.rsplit("|", 1)
        quoted, split = False, None
        for index, character in enumerate(middle):
            if character == '"':
                quoted = not quoted
            elif character == "|" and not quoted:
                split = index
                break
        return [pk, group, middle[:split], middle[split + 1:], kcal]

    def new_value(column):
        if column == 1:
            return str(rng.randint(1, 25))
        if column == 4:
            return f"{rng.uniform(0, 900):.2f}"
        return gen_food.field(rng, 2, 6) if column == 2 else gen_food.field(rng, 4, 10)

    changed = {}
    if every_value:  # 1% of the 4 non-key values of every row
        for _ in range(rows * 4 // 100):
            changed.setdefault(rng.randrange(rows), set()).add(rng.randint(1, 4))
    else:  # 1% of the rows, one value each
        changed = {row: {rng.randint(1, 4)} for row in rng.sample(range(rows), rows // 100)}
    deleted = set(rng.sample(range(rows), rows // 1000))
    largest = max(int(line.split("|", 1)[0]) for line in lines)
    with open(os.path.join(target, "food.csv"), "w", encoding="utf-8", newline="") as out:
        for index, line in enumerate(lines):
            if index in deleted:
                continue
            if index in changed:
                fields = cells(line)
                for column in sorted(changed[index]):
                    fields[column] = new_value(column)
                line = "|".join(fields)
            out.write(line + "\n")
        for pk in range(largest + 1, largest + 1 + rows // 1000):
            out.write(f"{pk}|{new_value(1)}|{new_value(2)}|{new_value(3)}|{new_value(4)}\n")
    return f"{len(changed)} rows with {sum(map(len, changed.values()))} values changed, " \
        f"{len(deleted)} deleted, {rows // 1000} inserted"


def tpch(source, target, rng, every_value):
    """1% of lineitem's rows changed in place; every other table as it was."""
    gen_tpch = load("gen-tpch")
    comments = gen_tpch.comment_pool(random.Random(rng.random()), 10, 43)
    for name in os.listdir(source):
        if name.endswith(".tbl") and name != "lineitem.tbl":
            link(source, target, name)
    changed = 0
    with open(os.path.join(source, "lineitem.tbl"), encoding="ascii", newline="") as handle, \
            open(os.path.join(target, "lineitem.tbl"), "w", encoding="ascii", newline="") as out:
        for line in handle:
            if rng.random() < 0.01:
                fields = line.rstrip("\n").split("|")
                quantity = rng.randint(1, 50)
                price = int(round(float(fields[5]) * 100)) // max(1, int(float(fields[4]))) * quantity
                fields[4], fields[5] = str(quantity), gen_tpch.money(price)
                fields[15] = comments[rng.getrandbits(12)]
                line = "|".join(fields) + "\n"
                changed += 1
            out.write(line)
    return f"{changed} lineitem rows changed (l_quantity, l_extendedprice, l_comment)"


def link(source, target, name):
    destination = os.path.join(target, name)
    if os.path.exists(destination):
        os.remove(destination)
    os.link(os.path.join(source, name), destination)


def main():
    arguments = sys.argv[1:]
    same, every_value = "--same" in arguments, "--values" in arguments
    arguments = [a for a in arguments if a not in ("--same", "--values")]
    if len(arguments) != 4 or arguments[0] not in ("food", "tpch"):
        sys.exit("usage: gen-release.py food|tpch FROM TO VERSION [--same | --values]")
    kind, source, target, version = arguments[0], arguments[1], arguments[2], int(arguments[3])
    os.makedirs(target, exist_ok=True)
    write_schema(source, target, version)
    if same:
        for name in os.listdir(source):
            if name.endswith((".csv", ".tbl")):
                link(source, target, name)
        print(f"release {version}: the data of {source}")
        return
    what = (food if kind == "food" else tpch)(source, target, random.Random(version), every_value)
    print(f"release {version}: {what}")


if __name__ == "__main__":
    main()
