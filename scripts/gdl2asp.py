#!/usr/bin/python3
"""Translate a GDL (KIF) game description to a plain ASP program for gringo.

This is the outside reference of BENCHMARKS.md "Grounding against gringo":
every relation and function symbol becomes an ASP symbol (renamed to a safe
identifier), every rule one ASP rule per alternative of its or-nesting,
distinct becomes !=, and the fluent inputs are over-approximated from the
rules: true(X) :- init(X). true(X) :- next(X). does(R, A) :- legal(R, A).
The result is not meant to be solved, only grounded:

    scripts/gdl2asp.py game.kif > game.lp && gringo game.lp > /dev/null

Usage: gdl2asp.py GAME.kif
"""
import re
import sys


def tokens(text):
    text = re.sub(r";[^\n]*", " ", text)
    return re.findall(r"\(|\)|[^\s()]+", text)


def parse(toks):
    out, stack = [], []
    for t in toks:
        if t == "(":
            stack.append([])
        elif t == ")":
            e = stack.pop()
            (stack[-1] if stack else out).append(e)
        else:
            (stack[-1] if stack else out).append(t)
    return out


class Namer:
    """Maps GDL symbols to ASP identifiers, one per name and kind."""

    def __init__(self):
        self.names = {}

    def sym(self, kind, name):
        key = (kind, name.lower())
        if key not in self.names:
            base = re.sub(r"[^a-z0-9_]", "_", name.lower())
            self.names[key] = "%s%d_%s" % (kind, len(self.names), base)
        return self.names[key]


KEYWORDS = {"role", "init", "true", "does", "next", "legal", "goal", "terminal", "base", "input"}


def term(n, t):
    if isinstance(t, str):
        if t.startswith("?"):
            return "V" + re.sub(r"[^a-z0-9_]", "_", t[1:].lower())
        return n.sym("c", t)
    if not t:
        return "c_empty"
    f = t[0]
    return "%s(%s)" % (n.sym("f", f), ",".join(term(n, a) for a in t[1:]))


def atom(n, a):
    if isinstance(a, str):
        name, args = a, []
    else:
        name, args = a[0], a[1:]
    rel = name.lower() if name.lower() in KEYWORDS else n.sym("r", "%s/%d" % (name, len(args)))
    if not args:
        return rel
    return "%s(%s)" % (rel, ",".join(term(n, x) for x in args))


def dnf(lit, neg=False):
    """Alternatives (lists of (neg, lit)) of a body literal."""
    if isinstance(lit, list) and lit and isinstance(lit[0], str):
        op = lit[0].lower()
        if op == "not":
            return dnf(lit[1], not neg)
        if op in ("and", "or"):
            conj = (op == "and") != neg
            alts = [[]] if conj else []
            for sub in lit[1:]:
                s = dnf(sub, neg)
                alts = [a + b for a in alts for b in s] if conj else alts + s
            return alts
    return [[(neg, lit)]]


def body_lit(n, neg, lit):
    if isinstance(lit, list) and lit and isinstance(lit[0], str) and lit[0].lower() == "distinct":
        return "%s %s %s" % (term(n, lit[1]), "=" if neg else "!=", term(n, lit[2]))
    return ("not " if neg else "") + atom(n, lit)


def variables(t, out):
    if isinstance(t, str):
        if t.startswith("?"):
            out.add(t.lower())
    else:
        for a in t:
            variables(a, out)
    return out


def main():
    src = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    n = Namer()
    out = []
    univ = {}
    needs_univ = False

    def collect(t):
        # ground terms below atom level: arguments of atoms, recursively
        if isinstance(t, str):
            if not t.startswith("?"):
                univ[term(n, t)] = True
            return not t.startswith("?")
        ok = all([collect(a) for a in t[1:]])
        if ok and t:
            univ[term(n, t)] = True
        return ok

    def collect_atom(a):
        if isinstance(a, list):
            if a and isinstance(a[0], str) and a[0].lower() in ("not", "and", "or"):
                for sub in a[1:]:
                    collect_atom(sub)
                return
            for x in a[1:]:
                collect(x)

    for e in parse(tokens(src)):
        if isinstance(e, list) and e and e[0] == "<=":
            head, body = e[1], e[2:]
            collect_atom(head)
            for b in body:
                collect_atom(b)
            alts = [[]]
            for b in body:
                alts = [a + s for a in alts for s in dnf(b)]
            for alt in alts:
                lits = [body_lit(n, neg, l) for neg, l in alt]
                # Unsafe variables (in no positive literal) range over every
                # ground term, as gamequiv reads them (LenientUnsafe).
                safe = set()
                for neg, l in alt:
                    if not neg and not (isinstance(l, list) and l and isinstance(l[0], str) and l[0].lower() == "distinct"):
                        variables(l, safe)
                used = variables(head, set())
                for neg, l in alt:
                    variables(l, used)
                role_var = None
                if isinstance(head, list) and head[0].lower() in ("legal", "goal", "input") and len(head) > 1 \
                        and isinstance(head[1], str) and head[1].startswith("?"):
                    role_var = head[1].lower()  # ranges over the roles, as gamequiv reads it
                for v in sorted(used - safe):
                    if v == role_var:
                        lits.append("role(%s)" % term(n, v))
                        continue
                    needs_univ = True
                    lits.append("univ(%s)" % term(n, v))
                out.append("%s :- %s." % (atom(n, head), ", ".join(lits)) if lits else atom(n, head) + ".")
        else:
            collect_atom(e)
            out.append(atom(n, e) + ".")
    if needs_univ:
        out.extend("univ(%s)." % t for t in sorted(univ))
    out.append("true(X) :- init(X).")
    out.append("true(X) :- next(X).")
    out.append("does(R, A) :- legal(R, A).")
    print("\n".join(out))


if __name__ == "__main__":
    main()
