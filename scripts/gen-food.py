#!/usr/bin/env python3
"""Generates deterministic food data for dbgen's benchmark: pipe-delimited rows and the schema
script that imports them, in the sqlite3 shell's dialect.

usage: scripts/gen-food.py ROWS OUTDIR
    writes OUTDIR/food.csv (ROWS rows: pk|group|name|desc|kcal) and OUTDIR/schema.txt.

The same ROWS always gives the same bytes (a fixed seed, no dependence on locale or time).
Fields that hold the separator, a quote or a newline are quoted as in RFC 4180, and a few
others are quoted anyway, so the importer's quoted-field path is measured too.
"""
import os
import random
import sys

VOCABULARY = (
    "apple pear banana cheddar cheese, sliced raw boiled baked fried steamed \"whole\" grain "
    "wheat rice oat chicken breast | skinless yogurt plain low-fat café crème brûlée 豆腐 "
    "salt pepper sweet sour"
).split(" ")

SCHEMA = """\
CREATE TABLE "food" ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT, "kcal" REAL);
CREATE TABLE "version" ("ver" INTEGER);
.mode csv
.separator |
.import food.csv food
CREATE INDEX idx_food_group ON food ("group" ASC);
INSERT INTO version (ver) VALUES (2);
"""


def field(rng, fewest, most):
    """A few words; quoted when it must be (or, now and then, when it need not)."""
    text = " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(fewest, most)))
    if any(c in text for c in '|"\n') or rng.random() < 0.05:
        text = '"' + text.replace('"', '""') + '"'
    return text


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen-food.py ROWS OUTDIR")
    rows, directory = int(sys.argv[1]), sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(20240611)
    with open(os.path.join(directory, "food.csv"), "w", encoding="utf-8", newline="") as out:
        for pk in range(1, rows + 1):
            out.write(f"{pk}|{rng.randint(1, 25)}|{field(rng, 2, 6)}|{field(rng, 4, 10)}|{rng.uniform(0, 900):.2f}\n")
    with open(os.path.join(directory, "schema.txt"), "w", encoding="utf-8", newline="") as out:
        out.write(SCHEMA)


if __name__ == "__main__":
    main()
