package grounding

import "testing"

// TestBDDGrowCacheBeforeBegin: a size asked for before the first Begin is
// the size that Begin allocates, not the initial one.
func TestBDDGrowCacheBeforeBegin(t *testing.T) {
	for _, tc := range []struct {
		name      string
		grow      int
		wantCache int
	}{
		{"no ask", 0, 16},
		{"ask below the initial size", 8, 16},
		{"ask", 600, 512},
		{"ask past the bound", 1 << 20, 1024},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewBDD(BDDLimits{CacheEntries: 1024, InitialCacheEntries: 16})
			if tc.grow > 0 {
				d.GrowCache(tc.grow)
			}
			if err := d.Begin(t.Context(), 100); err != nil {
				t.Fatal(err)
			}
			if len(d.cache) != tc.wantCache {
				t.Errorf("cache entries after Begin = %d, want %d", len(d.cache), tc.wantCache)
			}
			d.GrowCache(2048)
			if len(d.cache) != 1024 {
				t.Errorf("cache entries after a later GrowCache = %d, want 1024", len(d.cache))
			}
		})
	}
}
