//go:build !gamequiv_e2e

package main

import "github.com/gamequiv/gamequiv/service/worker"

// testCompare is nil in production builds: the workers run equiv.Compare.
// (hold_e2e.go replaces it in binaries built for the end-to-end tests.)
func testCompare() worker.CompareFunc { return nil }
