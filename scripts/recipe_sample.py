#!/usr/bin/env python3
"""Pick real recipe pages whose own schema.org JSON-LD agrees with recipe-scrapers' expected output.

    python3 scripts/recipe_sample.py MIRROR [--report verdicts.json] [--copy Tests/Fixtures/recipes]

prints the tally, writes every page's verdict (--report) and copies the chosen sample (--copy).

MIRROR: a git directory of github.com/hhursev/recipe-scrapers (bare will do; HEAD is read with `git
cat-file`). Standard library only. Each tests/test_data/<host>/<stem>.testhtml with a <stem>.json is
judged. It agrees when a <script type="application/ld+json"> block parses with json.loads and has a
node of @type Recipe (top level, top-level array, "@graph") whose name equals the expected title, whose
recipeIngredient (or legacy ingredients) equals the expected ingredients item by item, and whose
recipeInstructions hold as many steps as the expected instructions_list (a string splits on newlines,
a HowToStep is one step, HowToSection/itemListElement flatten at any depth); strings are normalized
as recipe-scrapers does (html.unescape, whitespace runs to one space, strip). Else the reason is the
first failing check: no JSON-LD recipe, broken JSON-LD, title, ingredients, steps. The sample takes
one agreeing page per host (its smallest, or one with nutrients.calories at most 25% larger), smallest
hosts first within --max-bytes of .html, then swaps pages in until --min-calories have calories, 3 use
HowToSection and 3 have Unicode fractions. Copies are byte for byte: <host>__<stem>.testhtml and .json.
"""
import argparse, html, json, os, re, subprocess, sys
from collections import Counter
from html.parser import HTMLParser

DATA = 'tests/test_data/'
REASONS = ['no JSON-LD recipe', 'broken JSON-LD', 'title', 'ingredients', 'steps']
FRACTIONS = set('½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒↉')

class Git:
    """Files of HEAD through one `git cat-file --batch` process."""
    def __init__(self, repo):
        self.repo = repo
        self.p = subprocess.Popen(['git', '-C', repo, 'cat-file', '--batch'],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def files(self):  # {path: blob sha}
        out = subprocess.run(['git', '-C', self.repo, 'ls-tree', '-r', 'HEAD', DATA],
                             check=True, capture_output=True, text=True).stdout
        return {l.split('\t', 1)[1]: l.split()[2] for l in out.splitlines()}

    def blob(self, sha):  # None when the mirror lacks it (its snapshot leaves out large files)
        self.p.stdin.write(sha.encode() + b'\n'); self.p.stdin.flush()
        head = self.p.stdout.readline().split()  # "<sha> blob <size>" or "<sha> missing"
        return self.p.stdout.read(int(head[2]) + 1)[:-1] if head[1:2] == [b'blob'] else None

class LdJson(HTMLParser):
    """Collects the raw text of every <script type="application/ld+json"> block."""
    def __init__(self):
        super().__init__(); self.blocks = []; self.buf = None

    def handle_starttag(self, tag, attrs):
        kind = re.sub(r'\s+', '', dict(attrs).get('type') or '').lower()
        self.buf = [] if tag == 'script' and kind == 'application/ld+json' else self.buf

    def handle_data(self, data):
        self.buf is None or self.buf.append(data)

    def handle_endtag(self, tag):
        if tag == 'script' and self.buf is not None:
            self.blocks.append(''.join(self.buf)); self.buf = None

def norm(s):
    return re.sub(r'\s+', ' ', html.unescape(s)).strip()

def as_list(v):
    return v if isinstance(v, list) else [] if v is None else [v]

def is_recipe(node):
    t = node.get('@type') if isinstance(node, dict) else None
    return t == 'Recipe' or (isinstance(t, list) and 'Recipe' in t)

def recipes(doc):
    for node in doc if isinstance(doc, list) else [doc]:
        if isinstance(node, dict):
            if is_recipe(node):
                yield node
            graph = node.get('@graph')
            yield from (n for n in (graph if isinstance(graph, list) else [graph]) if is_recipe(n))

def steps(x, top, types):
    """Step texts of recipeInstructions; types collects the @type of every object met."""
    if isinstance(x, str):
        return [s for s in map(norm, x.split('\n') if top else [x]) if s]
    if isinstance(x, list):
        return [s for item in x for s in steps(item, False, types)]
    if isinstance(x, dict):
        types.add(str(x.get('@type')))
        return steps(x['itemListElement'] if 'itemListElement' in x else
                     x.get('text') if isinstance(x.get('text'), str) else None, False, types)
    return []

def judge(page, exp):
    """(reason or None, detail, facts) of one page against its expected JSON."""
    parser, nodes, errors = LdJson(), [], []
    parser.feed(page.decode('utf-8', 'replace')); parser.close()
    for block in parser.blocks:
        try:
            nodes += recipes(json.loads(block))
        except ValueError as e:
            errors.append(str(e))
    if not nodes:
        return (REASONS[1], f'{len(errors)} of {len(parser.blocks)} ld+json blocks fail: {errors[0]}', {}
                ) if errors else (REASONS[0], f'{len(parser.blocks)} ld+json blocks, none with a Recipe', {})
    title, verdicts = norm(exp.get('title') or ''), []
    want_ing = [norm(i) for i in as_list(exp.get('ingredients'))]
    want_steps = len(exp.get('instructions_list') or [])
    for r in nodes:
        types, name = set(), r.get('name')
        got_steps = steps(r.get('recipeInstructions'), True, types)
        ing = [norm(i) if isinstance(i, str) else repr(i)
               for i in as_list(r.get('recipeIngredient', r.get('ingredients')))]
        facts = {'howto_section': 'HowToSection' in types,
                 'fractions': any(c in FRACTIONS for i in ing for c in i)}
        if not isinstance(name, str) or norm(name) != title:
            verdicts.append((REASONS[2], f'JSON-LD name {name!r}, expected {title!r}', facts))
        elif ing != want_ing:
            i = next((i for i, (a, b) in enumerate(zip(ing, want_ing)) if a != b), None)
            verdicts.append((REASONS[3], f'JSON-LD has {len(ing)} ingredients, recipe-scrapers '
                             f'{len(want_ing)}' if i is None else f'ingredient {i + 1}: JSON-LD '
                             f'{ing[i]!r}, expected {want_ing[i]!r}', facts))
        elif len(got_steps) != want_steps:
            verdicts.append((REASONS[4], f'JSON-LD has {len(got_steps)} steps, '
                             f'recipe-scrapers {want_steps}', facts))
        else:
            return None, f'{len(ing)} ingredients, {want_steps} steps', facts
    return verdicts[0]

def examine(git):
    files, pages = git.files(), []
    for path, sha in sorted(files.items()):
        exp_path = path[:-len('.testhtml')] + '.json'
        if not path.endswith('.testhtml') or path.count('/') != 3 or exp_path not in files:
            continue
        host, stem = path[len(DATA):-len('.testhtml')].split('/')
        p = {'host': host, 'stem': stem, 'html_sha': sha, 'json_sha': files[exp_path]}
        page, exp = git.blob(sha), json.loads(git.blob(files[exp_path]))
        if page is None:
            p.update(reason='page absent from mirror', detail='blob not in the mirror')
        else:
            reason, detail, facts = judge(page, exp)
            calories = isinstance(exp.get('nutrients'), dict) and bool(exp['nutrients'].get('calories'))
            p.update(size=len(page), reason=reason, detail=detail, calories=calories, **facts)
        pages.append(p)
    return pages

def choose(pages, max_bytes, min_calories, few=3):
    ok = sorted((p for p in pages if p.get('size') and p['reason'] is None), key=lambda p: p['size'])
    best = {}
    for p in ok:  # per host its smallest page, or one with calories at most 25% larger
        cur = best.setdefault(p['host'], p)
        if p['calories'] and not cur['calories'] and p['size'] * 0.8 <= cur['size']:
            best[p['host']] = p
    chosen, done, size = [], [], lambda c: sum(p['size'] for p in c)

    def fill():  # smallest hosts first, while the budget allows
        for p in sorted(best.values(), key=lambda p: p['size']):
            if p['host'] not in {c['host'] for c in chosen} and size(chosen) + p['size'] <= max_bytes:
                chosen.append(p)
    fill()
    for key, want in (('calories', min_calories), ('howto_section', few), ('fractions', few)):
        done.append(key)
        for new in [p for p in ok if p[key] and p not in chosen]:
            if sum(p[key] for p in chosen) >= want:
                break
            chosen[:] = [p for p in chosen if p['host'] != new['host']] + [new]
            while size(chosen) > max_bytes:  # drop the largest page that has no wanted feature
                chosen.remove(max((p for p in chosen if not any(p[k] for k in done)),
                                  key=lambda p: p['size']))
    fill()
    return sorted(chosen, key=lambda p: (p['host'], p['stem']))

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('mirror'), ap.add_argument('--report', help="write every page's verdict here")
    ap.add_argument('--copy', help='folder to copy the chosen pages into')
    ap.add_argument('--max-bytes', type=int, default=9_000_000)
    ap.add_argument('--min-calories', type=int, default=30)
    args = ap.parse_args()
    git = Git(args.mirror)
    pages = examine(git)
    tally = Counter(p['reason'] or 'agree' for p in pages)
    print(f'{len(pages)} pages with expected JSON:', ', '.join(
        f'{r} {tally[r]}' for r in ['agree'] + REASONS + ['page absent from mirror']))
    if args.report:
        with open(args.report, 'w') as f:
            json.dump(pages, f, indent=1, ensure_ascii=False)
    if args.copy:
        chosen = choose(pages, args.max_bytes, args.min_calories)
        os.makedirs(args.copy, exist_ok=True)
        for p in chosen:
            for sha, ext in ((p["html_sha"], ".testhtml"), (p['json_sha'], '.json')):
                with open(os.path.join(args.copy, f"{p['host']}__{p['stem']}{ext}"), 'wb') as f:
                    f.write(git.blob(sha))
        print(f"chosen {len(chosen)} pages, {sum(p['size'] for p in chosen)} bytes of .html;",
              ', '.join(f"{k} {sum(p[k] for p in chosen)}"
                        for k in ('calories', 'howto_section', 'fractions')))

if __name__ == '__main__':
    sys.exit(main())
