package gamequiv_test

import (
	"os"
	"regexp"
	"testing"
)

// TestComposePublishesOnLoopback checks that docker-compose.yml publishes
// every port on the host's loopback interface unless the operator says
// otherwise: a "HOST:CONTAINER" or bare port mapping would publish it on
// every interface.
func TestComposePublishesOnLoopback(t *testing.T) {
	src, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	ports := regexp.MustCompile(`(?m)^\s*-\s*"?([^"\n]*:\d+)"?\s*$`).FindAllStringSubmatch(string(src), -1)
	loopback := regexp.MustCompile(`^(127\.0\.0\.1|\$\{[A-Z_]+:-127\.0\.0\.1\}):.+:\d+$`)
	n := 0
	for _, m := range ports {
		if regexp.MustCompile(`^\$\{|^\d|^127`).MatchString(m[1]) {
			n++
			if !loopback.MatchString(m[1]) {
				t.Errorf("docker-compose.yml publishes %q: want 127.0.0.1 (or ${VAR:-127.0.0.1}) as the host address", m[1])
			}
		}
	}
	if n == 0 {
		t.Error("docker-compose.yml: no published port found; did its format change?")
	}
}
