#!/usr/bin/python3
"""textclose.py WANT GOT - the text GOT (a command's output, made here) says
what WANT (a block of the docs, made on another machine) shows, up to what
another OpenBLAS kernel may change.  Exit 0 when it does; else 1, with the
first line that differs and why.

The last bits of every computed number depend on the BLAS kernels (Haswell's
AVX2 or SkylakeX's AVX-512, the thread count): docs made on one machine must
still read true on another.  So:

- words, and numbers without a decimal point (counts, labels, components),
  must be equal;
- a decimal number within 1e-9 of the shown one, relative (or 1e-12 in
  absolute value): kpca's numbers move by about 1e-15 relative between
  kernels; a wrong one moves by far more, and so does a value printed with
  fewer digits that changed;
- a row of kpca eval's error table (under "components error_pct errors
  total"): the same components and total, an error count within 2 of the
  shown one, and an error_pct that is that count's.  The eigenvectors'
  last bits move the features by about 1e-15, which can move the SVM
  decision of a test point that lies on the boundary to within that: one
  or two such points in 2007, and none of the tables in the docs has moved
  between the Haswell and SkylakeX kernels; a wrong protocol moves tens.
"""
import re
import sys

NUM = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?%?$")


def is_decimal(tok):
    return bool(NUM.match(tok)) and ("." in tok or "e" in tok.lower())


def close(a, b):
    x, y = float(a.rstrip("%")), float(b.rstrip("%"))
    return abs(x - y) <= max(1e-9 * max(abs(x), abs(y)), 1e-12)


def compare(want, got):
    w, g = want.splitlines(), got.splitlines()
    if len(w) != len(g):
        return f"{len(g)} lines where the docs show {len(w)}"
    table = False
    for n, (lw, lg) in enumerate(zip(w, g), 1):
        tw, tg = lw.split(), lg.split()
        if tw[:4] == ["components", "error_pct", "errors", "total"]:
            table = True
        elif table and len(tw) == 4 and all(NUM.match(t) for t in tw):
            if len(tg) != 4 or not all(NUM.match(t) for t in tg):
                return f"line {n}: '{lg}' is not a row of the error table '{lw}'"
            k, pct, errs, total = tg
            if (k, total) != (tw[0], tw[3]):
                return f"line {n}: '{lg}' has other components or total than '{lw}'"
            if abs(int(errs) - int(tw[2])) > 2:
                return f"line {n}: {errs} errors where the docs show {tw[2]} (2 may differ)"
            if f"{100.0 * int(errs) / int(total):.2f}" != pct:
                return f"line {n}: {pct} % is not {errs} of {total}"
            continue
        else:
            table = False
        if len(tw) != len(tg):
            return f"line {n}: '{lg}' where the docs show '{lw}'"
        for a, b in zip(tw, tg):
            if a == b:
                continue
            if is_decimal(a) and is_decimal(b) and close(a, b):
                continue
            return f"line {n}: '{b}' where the docs show '{a}' (in '{lw}')"
    return None


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: textclose.py WANT GOT")
    with open(sys.argv[1]) as f:
        want = f.read()
    with open(sys.argv[2]) as f:
        got = f.read()
    why = compare(want, got)
    if why:
        print(f"textclose: {why}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
