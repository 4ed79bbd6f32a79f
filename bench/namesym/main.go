// Command namesym checks every reasoning function of a game against its
// image under a symmetry given by names (a token substitution, or the swap
// of the first two numbers of each name), one satcheck.CheckFunc per
// function with its own deadline, and prints the checks that took more
// than 200 ms or did not answer, with what satcheck's stages did for each.
// It reads symbol names: a benchmark of the verifier on a known symmetry,
// without the graph phase, never part of the pipeline.
//
//	go run ./bench/namesym -g merrills.kif -sym n=e,ne=se,e=s,se=sw,s=w,sw=nw,w=n,nw=ne -only goal -per 60s
//	go run ./bench/namesym -g othelloHoles.kif -transpose -only goal
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

func main() {
	game := flag.String("g", "", "game")
	sym := flag.String("sym", "", "a=b,c=d token substitution (applied simultaneously)")
	list := flag.Bool("list", false, "list names")
	per := flag.Duration("per", 30*time.Second, "per check")
	only := flag.String("only", "", "substring of function name")
	bounded := flag.Int("bounded", 0, "BoundedEffort")
	transpose := flag.Bool("transpose", false, "swap the first two numeric tokens")
	flag.Parse()
	src, err := os.ReadFile(*game)
	if err != nil {
		log.Fatal(err)
	}
	f, err := grounding.Parse(*game, src)
	if err != nil {
		log.Fatal(err)
	}
	p, err := grounding.Ground(context.Background(), f, grounding.Limits{})
	if err != nil {
		log.Fatal(err)
	}
	if *list {
		fmt.Println(p.Props)
		fmt.Println(p.Actions)
		return
	}
	sub := map[string]string{}
	for _, kv := range strings.Split(*sym, ",") {
		if kv == "" {
			continue
		}
		x := strings.SplitN(kv, "=", 2)
		sub[x[0]] = x[1]
	}
	tr := func(s string) string {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "(", " ( "), ")", " ) ")
		fs := strings.Fields(s)
		for i, t := range fs {
			if v, ok := sub[t]; ok {
				fs[i] = v
			}
		}
		if *transpose {
			var ix []int
			for i, t := range fs {
				if t >= "0" && t <= "9" {
					ix = append(ix, i)
				}
			}
			if len(ix) >= 2 {
				fs[ix[0]], fs[ix[1]] = fs[ix[1]], fs[ix[0]]
			}
		}
		s = strings.Join(fs, " ")
		s = strings.ReplaceAll(strings.ReplaceAll(s, "( ", "("), " )", ")")
		return s
	}
	n := p.NumInputs()
	im := make([]int32, n)
	for i := range p.Props {
		j, ok := p.PropID(tr(p.Props[i]))
		if !ok {
			log.Fatalf("%s: no image %s", p.Props[i], tr(p.Props[i]))
		}
		im[i] = int32(j)
	}
	for r := range p.Actions {
		for a := range p.Actions[r] {
			b, ok := p.ActionID(r, tr(p.Actions[r][a]))
			if !ok {
				log.Fatalf("%s: no image %s", p.Actions[r][a], tr(p.Actions[r][a]))
			}
			im[p.ActionInputBase(r)+a] = int32(p.ActionInputBase(r) + b)
		}
	}
	opt := satcheck.Options{BoundedEffort: *bounded}
	c, err := satcheck.NewChecker(p, p, opt)
	if err != nil {
		log.Fatal(err)
	}
	image := func(fn grounding.Function) grounding.Lit {
		switch fn.Kind {
		case grounding.FuncLegal:
			name := tr(p.Actions[fn.Role][fn.Index])
			b, ok := p.ActionID(fn.Role, name)
			if !ok {
				log.Fatalf("-sym maps action %s to %s, which is not an action of role %s", p.Actions[fn.Role][fn.Index], name, p.Roles[fn.Role])
			}
			return p.Legal[fn.Role][b]
		case grounding.FuncNext:
			return p.Next[im[fn.Index]]
		}
		return fn.Lit
	}
	total := time.Now()
	for _, fn := range p.Functions() {
		name := p.FunctionName(fn)
		if *only != "" && !strings.Contains(name, *only) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), *per)
		t0 := time.Now()
		s0 := c.Stats()
		eq, err := c.CheckFunc(ctx, fn.Kind, fn.Lit, image(fn), im)
		cancel()
		d := time.Since(t0)
		if d > 200*time.Millisecond || err != nil || !eq {
			s1 := c.Stats()
			fmt.Printf("%s: eq=%v err=%v %v\n  sat %d sweepMerged %d bdds %d bddOver %d cutBDD %d dnf %d/%d sweepOver %d\n", name, eq, err, d,
				s1.SATCalls-s0.SATCalls, s1.SweepMerged-s0.SweepMerged, s1.BDDs-s0.BDDs, s1.BDDOverBound-s0.BDDOverBound, s1.CutBDD-s0.CutBDD, s1.NormalForms-s0.NormalForms, s1.DNFFailed-s0.DNFFailed, s1.SweepOverBudget-s0.SweepOverBudget)
		}
	}
	fmt.Printf("total %v stats %+v\n", time.Since(total), c.Stats())
}
