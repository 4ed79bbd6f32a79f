package server

// MaxServeProcs bounds Config.ServeProcs: each is an OS thread that may
// run beside the comparisons.
const MaxServeProcs = 64

// compareParallelism is how many goroutines one comparison keeps running
// at once per graph worker: equiv.Compare grounds the two games, and
// builds their two ground graphs, side by side.
const compareParallelism = 2

// Procs returns the GOMAXPROCS of the server and the graph workers
// (groundgraph.Options.Workers) of each comparison, for cpus processors
// (the runtime's GOMAXPROCS at start, which follows the CPU quota).
//
// The comparison workers run at most Workers × compareParallelism ×
// graphWorkers goroutines at once; graphWorkers is as many as fill the
// CPUs (at least 1). GOMAXPROCS is that many, or cpus if more, plus
// ServeProcs, so at least ServeProcs processors are left to the requests
// however busy the comparisons are. ServeProcs 0 returns cpus and 0 (the
// graph workers' default). The classifier and uploads are not counted:
// they run in bursts, bounded by their own settings.
func (c Config) Procs(cpus int) (gomaxprocs, graphWorkers int) {
	cpus = max(cpus, 1)
	if c.ServeProcs == 0 {
		return cpus, 0
	}
	jobs := max(c.Workers, 1) * compareParallelism
	graphWorkers = max(1, cpus/jobs)
	return max(cpus, jobs*graphWorkers) + c.ServeProcs, graphWorkers
}
