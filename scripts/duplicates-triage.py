#!/usr/bin/env python3
"""Sort the rows of `duplicates` that it does not mark boilerplate into declarations and code.

    duplicates --most 200 --seconds 300 | python3 scripts/duplicates-triage.py [--deep]

`duplicates` (the team's tool) marks thin shapes as boilerplate, but not rust-hdl's own: a
component re-declares each pin it passes on, lists its flip-flops, writes `Default` by hand
when a field is a `Constant`, and a register map is a `regmap!` table. Those repeat by
construction, and sharing them would rename pins. A row counts as a DECLARATION when every line
of both sides of the run it names is one of the shapes below; otherwise it is CODE, and CODE rows
are what is left to mend. A pair of a golden model and its RTL is MODEL/RTL (issue 23 exempts
them). The tool names only the longest run of a pair; `--deep` reads the others too: it runs
`duplicates` on the pair's two files alone, blanks each run it names and asks again until no run
is left (runs inside one file of a two-file pair are left to that file's own row). Exits 1 when a
CODE row is left.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# One line of a declaration: blank and comment lines, attributes, a struct or mod header, a field
# (`name: Type,`, a pin or a flip-flop), a field initialised in a hand-written `Default`, the
# `impl`/`fn` headers of `Default` and `Logic`, `dff_setup!`/`clock!` lists, a `regmap!` or `pins!`
# table and its entries, constants, const asserts that tie addresses, closing braces.
DECLARATION = [re.compile(p) for p in [
    r'^\s*$', r'^\s*//', r'^\s*#!?\[', r'^\s*[})\]]+\s*[;,]?\s*$',
    r'^\s*(pub(\(crate\))?\s+)?(struct|enum)\s+\w+.*\{\s*$', r'^\s*(pub\s+)?mod\s+\w+\s*[;{]\s*$',
    r'^\s*(pub\s+)?use\s',
    r'^\s*(pub(\(crate\))?\s+)?[a-z_][a-z0-9_]*\s*:\s*[A-Za-z_][\w:<>, \[\];]*,?\s*$',
    r'^\s*[a-z_][a-z0-9_]*\s*:\s*(Default::default\(\)|[A-Z]\w*::(new|default)\(.*\)),?\s*$',
    r'^\s*[a-z_][a-z0-9_]*\s*:\s*\d+\s*,?\s*$',
    r'^\s*impl(<[^>]*>)? (Default|Logic) for \w+(<[^>]*>)? \{\s*$',
    r'^\s*fn (default\(\) -> Self|update\(&mut self\)) \{\s*$',
    r'^\s*(dff_setup|clock)!\(', r'^\s*self, clock',
    r'^\s*(crate::)?(regmap|pins)!\s*\{', r'^\s*[A-Z_][A-Z0-9_]*\s*@\s*\d+',
    r'^\s*\{?\s*[a-z_][a-z0-9_]*\[\d+ \+: \d+\]\s*"', r'^\s*"[^"]*",?\s*$',
    r'^\s*(pub\s+)?const\s+[A-Z_][A-Z0-9_]*\s*:', r'^\s*const\s+_\s*:\s*\(\)\s*=\s*assert!\(',
    r'^\s*(&&\s*)?csr::',
    # wiring: a pin or a flip-flop driven from another, or reset to a constant
    r'^\s*self(\.\w+(\[\w+\])?)+\.next = (bit_cast::<\w+, \w+>\()?(self(\.\w+(\[\w+\])?)+\.val\(\)\)?|\d+\.into\(\)|true|false|0x[0-9A-Fa-f_]+\.into\(\));\s*$',
    r'^\s*&& ',  # the rest of a const assert
    # a table's entries: a label, and a constructor of literals that closes the entry
    r'^\s*(\w+::)*[A-Z]\w* \{\s*$', r'^\s*\w+: ("[^"]*"|\[[^\]]*\]|\d+|true|false),\s*$',
    r'^\s*let \w+ = \[\s*$', r'^\s*\("[^"]*",\s*$', r'^\s*[A-Z]\w*::\w+\(.*\)\),\s*$',
]]
ROW = re.compile(r'^(D\d+) (\S+):(\d+)-(\d+) ~ (\S+):(\d+)-(\d+)')


def lines(path, lo, hi):
    with open(path, encoding='utf-8') as f:
        return f.read().split('\n')[lo - 1:hi]


def code_lines(path, text, lo, hi):
    return [f'{path}:{lo + i}: {l.strip()}' for i, l in enumerate(text[lo - 1:hi])
            if not any(r.match(l) for r in DECLARATION)]


def every_run(a, b):
    """The code lines of every run the pair's two files share, found by blanking run after run."""
    texts = {p: open(p, encoding='utf-8').read().split('\n') for p in {a, b}}
    local = {p: f'f{i}.rs' for i, p in enumerate(sorted(texts))}
    back = {v: k for k, v in local.items()}
    code, runs = [], 0
    with tempfile.TemporaryDirectory() as d:
        for _ in range(500):
            for p, t in texts.items():
                with open(os.path.join(d, local[p]), 'w', encoding='utf-8') as f:
                    f.write('\n'.join(t))
            out = subprocess.run(['duplicates', '--repo', d, '--most', '200', '--seconds', '60'],
                                 capture_output=True, text=True).stdout
            found = [m for m in map(ROW.match, out.split('\n')) if m]
            if a != b:
                found = [m for m in found if m.group(2) != m.group(5)]
            if not found:
                break
            m = found[0]
            sides = [(back[m.group(2)], int(m.group(3)), int(m.group(4))),
                     (back[m.group(5)], int(m.group(6)), int(m.group(7)))]
            runs += 1
            for p, lo, hi in sides:
                code += code_lines(p, texts[p], lo, hi)
            p, lo, hi = sides[0]
            for i in range(lo - 1, hi):
                texts[p][i] = ''
    return runs, sorted(set(code))


def main():
    deep = '--deep' in sys.argv[1:]
    if deep and shutil.which('duplicates') is None:
        sys.exit('duplicates-triage: --deep runs `duplicates`, which is not on PATH')
    counts = {'DECLARATION': 0, 'MODEL/RTL': 0, 'CODE': 0}
    for row in sys.stdin:
        m = ROW.match(row)
        if not m or 'boilerplate' in row:
            continue
        a, b = (m.group(2), int(m.group(3)), int(m.group(4))), (m.group(5), int(m.group(6)), int(m.group(7)))
        runs = ''
        if a[0] != b[0] and os.path.dirname(a[0]) == os.path.dirname(b[0]) and 'model.rs' in (
                os.path.basename(a[0]), os.path.basename(b[0])):
            kind, code = 'MODEL/RTL', []
        elif deep:
            n, code = every_run(a[0], b[0])
            kind, runs = ('CODE' if code else 'DECLARATION'), f' [{n} runs read]'
        else:
            code = code_lines(a[0], lines(a[0], 1, a[2]), a[1], a[2]) + code_lines(b[0], lines(b[0], 1, b[2]), b[1], b[2])
            kind = 'CODE' if code else 'DECLARATION'
        counts[kind] += 1
        print(f'{kind:<12}{row.strip()}{runs}')
        for c in code[:8]:
            print(f'            {c}')
    print(', '.join(f'{n} {k}' for k, n in counts.items()))
    sys.exit(1 if counts['CODE'] else 0)


if __name__ == '__main__':
    main()
