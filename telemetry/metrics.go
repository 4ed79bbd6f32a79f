// Package telemetry holds the Prometheus metrics of the service on their
// own registry: the HTTP layer (api) records requests, the comparison
// workers record jobs and reports, the classifier its placements, and the
// service layer its symmetry requests. It depends on no adapter, so that
// each of them can record without importing another.
package telemetry

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/equiv"
)

// Metrics are the Prometheus metrics of the service, on their own
// registry. The HTTP layer records requests; the workers record jobs
// through the methods below, which do nothing on a nil *Metrics.
type Metrics struct {
	// Registry holds every metric below plus the Go and process collectors.
	Registry *prometheus.Registry

	HTTPDuration    *prometheus.HistogramVec // route, method, code
	PhaseDuration   *prometheus.HistogramVec // phase
	JobDuration     prometheus.Histogram
	Candidates      prometheus.Histogram
	SATCalls        prometheus.Histogram
	Jobs            *prometheus.CounterVec // outcome
	Verdicts        *prometheus.CounterVec // verdict
	Abandoned       prometheus.Counter
	Panics          *prometheus.CounterVec // where
	Classified      *prometheus.CounterVec // outcome
	SymmetryQueries *prometheus.CounterVec // source: stored, computed
}

// New makes the metrics on a new registry.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		HTTPDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gamequiv_http_request_duration_seconds",
			Help:    "Latency of HTTP requests by route template, method and status code.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "method", "code"}),
		PhaseDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gamequiv_comparison_phase_seconds",
			Help:    "Duration of each phase (ground, graph, search, verify) of finished comparisons.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 10),
		}, []string{"phase"}),
		JobDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "gamequiv_job_duration_seconds",
			Help:    "Wall time of comparison jobs, from claim to finish.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 10),
		}),
		Candidates: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "gamequiv_comparison_candidates",
			Help:    "Candidate mappings verified per finished comparison.",
			Buckets: prometheus.ExponentialBuckets(1, 4, 10),
		}),
		SATCalls: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "gamequiv_comparison_sat_calls",
			Help:    "SAT solver calls per finished comparison.",
			Buckets: prometheus.ExponentialBuckets(1, 4, 10),
		}),
		Jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gamequiv_jobs_total",
			Help: "Comparison jobs ended by this process, by outcome (done, failed, cancelled, released, lease_lost).",
		}, []string{"outcome"}),
		Verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gamequiv_verdicts_total",
			Help: "Verdicts of comparisons finished by this process.",
		}, []string{"verdict"}),
		Abandoned: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gamequiv_jobs_abandoned_total",
			Help: "Jobs this process stopped because it lost their lease (another worker claimed them).",
		}),
		Panics: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gamequiv_panics_total",
			Help: "Panics recovered, by where (http, job, classifier).",
		}, []string{"where"}),
		Classified: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gamequiv_classified_games_total",
			Help: "Games placed by the background classifier, by outcome (assigned, new_class, invalid, error), and classes merged (merged).",
		}, []string{"outcome"}),
		SymmetryQueries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gamequiv_symmetry_requests_total",
			Help: "Symmetry requests, by source (stored, computed).",
		}, []string{"source"}),
	}
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.HTTPDuration, m.PhaseDuration, m.JobDuration, m.Candidates, m.SATCalls,
		m.Jobs, m.Verdicts, m.Abandoned, m.Panics, m.Classified, m.SymmetryQueries,
	)
	return m
}

// ObserveReport records the figures of a finished comparison's report.
func (m *Metrics) ObserveReport(r *equiv.Report) {
	if m == nil || r == nil {
		return
	}
	for phase, ms := range r.Stats.PhaseMs {
		m.PhaseDuration.WithLabelValues(phase).Observe(ms / 1000)
	}
	m.Candidates.Observe(float64(r.Stats.Candidates))
	m.SATCalls.Observe(float64(r.Stats.SATCalls))
	m.Verdicts.WithLabelValues(string(r.Verdict)).Inc()
}

// ObserveJob records how a job ended and how long it ran.
func (m *Metrics) ObserveJob(outcome string, d time.Duration) {
	if m == nil {
		return
	}
	m.Jobs.WithLabelValues(outcome).Inc()
	m.JobDuration.Observe(d.Seconds())
}

// ObserveAbandoned counts a job stopped because its lease was lost.
func (m *Metrics) ObserveAbandoned() {
	if m != nil {
		m.Abandoned.Inc()
	}
}

// ObservePanic counts a recovered panic; where is http, job or classifier.
func (m *Metrics) ObservePanic(where string) {
	if m != nil {
		m.Panics.WithLabelValues(where).Inc()
	}
}

// ObserveClassified counts a game placed by the classifier, by outcome.
func (m *Metrics) ObserveClassified(outcome string) {
	if m != nil {
		m.Classified.WithLabelValues(outcome).Inc()
	}
}

// ObserveSymmetries counts a symmetry request by source: stored or
// computed.
func (m *Metrics) ObserveSymmetries(source string) {
	if m != nil {
		m.SymmetryQueries.WithLabelValues(source).Inc()
	}
}

// RegisterQueue adds gauges read from the store at each scrape: the queue
// depth and the number of comparisons in each status.
func (m *Metrics) RegisterQueue(cs StatusCounter) {
	m.Registry.MustRegister(&queueCollector{cs: cs})
}

// StatusCounter counts the comparisons of each status;
// gamequiv.Comparisons (and so *store.DB) implements it.
type StatusCounter interface {
	CountByStatus(ctx context.Context) (map[gamequiv.Status]int64, error)
}

// queueCollector reads the queue figures from the store at scrape time.
type queueCollector struct {
	cs StatusCounter
}

var (
	queueDepthDesc = prometheus.NewDesc("gamequiv_queue_depth",
		"Comparisons waiting for a worker.", nil, nil)
	comparisonsDesc = prometheus.NewDesc("gamequiv_comparisons",
		"Stored comparisons by status.", []string{"status"}, nil)
)

func (q *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- queueDepthDesc
	ch <- comparisonsDesc
}

func (q *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	counts, err := q.cs.CountByStatus(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(queueDepthDesc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(queueDepthDesc, prometheus.GaugeValue, float64(counts[gamequiv.StatusQueued]))
	for _, s := range gamequiv.Statuses {
		ch <- prometheus.MustNewConstMetric(comparisonsDesc, prometheus.GaugeValue, float64(counts[s]), string(s))
	}
}
