package groundgraph

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
)

// jsonNode is one vertex as WriteJSON writes it.
type jsonNode struct {
	ID    int    `json:"id"`
	Kind  string `json:"kind"`
	Label string `json:"label"`
	Color int32  `json:"color"`
	Role  string `json:"role,omitempty"`
	Value *int   `json:"value,omitempty"`
}

// WriteJSON writes the graph as
//
//	{"nodes":[{"id":0,"kind":"prop","label":"(cell 1 1 b)","color":123},...],
//	 "edges":[[u,v],...],"aut_order":"8"}
//
// Nodes are in vertex order; an action or goal node also carries its "role",
// a goal node its "value". Edges are sorted by (u, v). autOrder is the order
// of the automorphism group of the coloured graph (isomorph.Automorphisms),
// written as a decimal string; nil leaves the field out.
func (g *Graph) WriteJSON(w io.Writer, autOrder *big.Int) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(`{"nodes":[`)
	for v := range g.verts {
		if v > 0 {
			bw.WriteByte(',')
		}
		x := g.verts[v]
		n := jsonNode{ID: v, Kind: x.Kind.String(), Label: g.Label(v), Color: g.colors[v]}
		if x.Kind == Action || x.Kind == Goal {
			n.Role = g.prog.Roles[x.Role]
		}
		if x.Kind == Goal {
			val := x.Value
			n.Value = &val
		}
		b, err := json.Marshal(n)
		if err != nil {
			return err
		}
		bw.Write(b)
	}
	bw.WriteString(`],"edges":[`)
	first := true
	var buf []byte
	for u, vs := range g.out {
		for _, v := range vs {
			if !first {
				bw.WriteByte(',')
			}
			first = false
			buf = append(buf[:0], '[')
			buf = strconv.AppendInt(buf, int64(u), 10)
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, int64(v), 10)
			buf = append(buf, ']')
			bw.Write(buf)
		}
	}
	bw.WriteString("]")
	if autOrder != nil {
		fmt.Fprintf(bw, `,"aut_order":%q`, autOrder.String())
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// dotShape is the Graphviz node shape of each kind.
var dotShape = [NumKinds]string{"ellipse", "box", "doubleoctagon", "hexagon", "octagon", "circle", "diamond", "point", "point", "point", "point"}

// WriteDOT writes the graph in Graphviz DOT: one node per vertex, labelled
// with Label and its colour value, shaped by kind; nodes of equal colour get
// the same fill colour.
func (g *Graph) WriteDOT(w io.Writer) error {
	bw := bufio.NewWriter(w)
	name := "ground"
	if g.prog.Name != "" {
		name = g.prog.Name
	}
	fmt.Fprintf(bw, "digraph %s {\n\tnode [style=filled];\n", dotQuote(name))
	for v := range g.verts {
		x := g.verts[v]
		c := uint32(g.colors[v])
		// A light fill derived from the colour value.
		fill := fmt.Sprintf("#%02x%02x%02x", 0x80|c&0x7f, 0x80|c>>8&0x7f, 0x80|c>>16&0x7f)
		label := fmt.Sprintf("%s\\n%d", dotEscape(g.Label(v)), g.colors[v])
		if x.Kind >= Interaction {
			label = strconv.Itoa(int(g.colors[v]))
		}
		fmt.Fprintf(bw, "\tn%d [label=\"%s\", shape=%s, fillcolor=\"%s\"];\n", v, label, dotShape[x.Kind], fill)
	}
	for u, vs := range g.out {
		for _, v := range vs {
			fmt.Fprintf(bw, "\tn%d -> n%d;\n", u, v)
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

func dotEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

func dotQuote(s string) string { return `"` + dotEscape(s) + `"` }
