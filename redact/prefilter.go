package redact

// automaton is an Aho-Corasick DFA over ASCII-case-folded bytes: one pass over the input
// reports every occurrence of every rule keyword, at the cost of one table lookup per
// byte however many rules there are. It is the prefilter that keeps text without
// candidates cheap; rules run only at the positions it reports.
type automaton struct {
	class  [256]uint8 // input byte -> column; 0 for bytes that occur in no keyword
	stride int32      // number of columns
	// next[row+column] is the row (state*stride) of the next state, negated when that
	// state ends at least one keyword, so the scan loop tests a sign and nothing else.
	next   []int32
	out    [][]int32 // per state: ids of the keywords ending there, own and inherited
	maxLen int       // length of the longest keyword
}

// newAutomaton compiles keywords, matched without regard to ASCII case. A keyword's id
// is its index in keywords; equal keywords keep separate ids.
func newAutomaton(keywords []string) *automaton {
	a := &automaton{}
	cols := 1
	for _, kw := range keywords {
		a.maxLen = max(a.maxLen, len(kw))
		for i := 0; i < len(kw); i++ {
			if c := lower(kw[i]); a.class[c] == 0 {
				if cols > 255 {
					panic("redact: too many distinct keyword bytes")
				}
				a.class[c] = uint8(cols)
				cols++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		a.class[c] = a.class[c+'a'-'A']
	}
	a.stride = int32(cols)

	// Trie of the keywords, then failure links in breadth-first order, filling the
	// complete transition table as we go (a missing edge follows the failure link).
	type node struct {
		child map[uint8]int32
		fail  int32
		out   []int32
	}
	nodes := []node{{child: map[uint8]int32{}}}
	for id, kw := range keywords {
		s := int32(0)
		for i := 0; i < len(kw); i++ {
			c := a.class[kw[i]]
			nx, ok := nodes[s].child[c]
			if !ok {
				nx = int32(len(nodes))
				nodes = append(nodes, node{child: map[uint8]int32{}})
				nodes[s].child[c] = nx
			}
			s = nx
		}
		nodes[s].out = append(nodes[s].out, int32(id))
	}
	stride := a.stride
	delta := make([]int32, int32(len(nodes))*stride) // by state, converted to rows below
	var queue []int32
	for c := int32(0); c < stride; c++ {
		if v, ok := nodes[0].child[uint8(c)]; ok {
			delta[c] = v
			queue = append(queue, v)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for c := int32(0); c < stride; c++ {
			v, ok := nodes[u].child[uint8(c)]
			if !ok {
				delta[u*stride+c] = delta[nodes[u].fail*stride+c]
				continue
			}
			f := delta[nodes[u].fail*stride+c]
			nodes[v].fail = f
			nodes[v].out = append(nodes[v].out, nodes[f].out...)
			delta[u*stride+c] = v
			queue = append(queue, v)
		}
	}
	a.next = make([]int32, len(delta))
	for i, s := range delta {
		a.next[i] = s * stride
		if len(nodes[s].out) > 0 {
			a.next[i] = -a.next[i]
		}
	}
	a.out = make([][]int32, len(nodes))
	for s := range nodes {
		a.out[s] = nodes[s].out
	}
	return a
}
