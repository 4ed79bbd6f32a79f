#!/usr/bin/env python3
"""Time CaDiCaL and gophersat on DIMACS files (BENCHMARKS.md, verification SAT questions).

usage: sat_bench.py MODES MINCLAUSES TIMEOUT FILES...
  MODES: "c" (cadical), "g" (gophersat, ./gophersat built with
  `go build -o gophersat github.com/crillab/gophersat`), or "cg";
  files with fewer than MINCLAUSES clauses are skipped; TIMEOUT is wall seconds.
Prints one tab-separated line per file: file, vars, clauses, then per solver
its name, answer (SAT, UNSAT, timeout) and user CPU seconds.
"""
import subprocess, sys, resource, os, time
def header(f):
    with open(f) as fh:
        for l in fh:
            if l.startswith('p cnf'):
                _,_,v,c = l.split(); return int(v), int(c)
def run(cmd, timeout):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=timeout, text=True)
        out = p.stdout
        res = 'SAT' if 'UNSATISFIABLE' not in out and 'SATISFIABLE' in out else ('UNSAT' if 'UNSATISFIABLE' in out else '?')
    except subprocess.TimeoutExpired:
        res = 'timeout'
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return res, r1.ru_utime - r0.ru_utime
mode = sys.argv[1]; minc = int(sys.argv[2]); timeout = float(sys.argv[3]); files = sys.argv[4:]
for f in files:
    v, c = header(f)
    if c < minc: continue
    row = [f, str(v), str(c)]
    if 'c' in mode:
        res, t = run(['cadical', '-q', f], timeout); row += ['cadical', res, '%.2f' % t]
    if 'g' in mode:
        res, t = run(['./gophersat', f], timeout); row += ['gophersat', res, '%.2f' % t]
    print('\t'.join(row), flush=True)
