package grounding

import "strings"

// SplitProp splits a proposition in canonical KIF into its relation and the
// texts of its top-level arguments: "(cell 1 (a b) x)" gives "cell" and
// ["1", "(a b)", "x"]; an atom "p" gives "p" and none. It reports false
// for text that is not a term.
func SplitProp(prop string) (rel string, args []string, ok bool) {
	s := strings.TrimSpace(prop)
	if !strings.HasPrefix(s, "(") {
		return s, nil, s != "" && !strings.ContainsAny(s, "() \t\n")
	}
	if !strings.HasSuffix(s, ")") {
		return "", nil, false
	}
	inner := s[1 : len(s)-1]
	var parts []string
	depth, start := 0, -1
	for i, r := range inner {
		switch {
		case r == '(':
			if depth == 0 && start < 0 {
				start = i
			}
			depth++
		case r == ')':
			depth--
			if depth < 0 {
				return "", nil, false
			}
		case r == ' ' || r == '\t' || r == '\n':
			if depth == 0 && start >= 0 {
				parts = append(parts, inner[start:i])
				start = -1
			}
			continue
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if depth != 0 {
		return "", nil, false
	}
	if start >= 0 {
		parts = append(parts, inner[start:])
	}
	if len(parts) == 0 || strings.HasPrefix(parts[0], "(") {
		return "", nil, false
	}
	return parts[0], parts[1:], true
}
