package main

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/fixtures"
)

// The parts of the Kubernetes objects the test checks; the rest of each
// manifest is not decoded.
type (
	k8sMeta struct {
		Name        string            `yaml:"name"`
		Labels      map[string]string `yaml:"labels"`
		Annotations map[string]string `yaml:"annotations"`
	}
	k8sObject struct {
		APIVersion string    `yaml:"apiVersion"`
		Kind       string    `yaml:"kind"`
		Metadata   k8sMeta   `yaml:"metadata"`
		Spec       yaml.Node `yaml:"spec"`
	}
	deploymentSpec struct {
		Replicas int `yaml:"replicas"`
		Selector struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		} `yaml:"selector"`
		Template struct {
			Metadata k8sMeta `yaml:"metadata"`
			Spec     podSpec `yaml:"spec"`
		} `yaml:"template"`
	}
	podSpec struct {
		AutomountServiceAccountToken  *bool `yaml:"automountServiceAccountToken"`
		TerminationGracePeriodSeconds int   `yaml:"terminationGracePeriodSeconds"`
		SecurityContext               struct {
			RunAsNonRoot   *bool `yaml:"runAsNonRoot"`
			RunAsUser      int   `yaml:"runAsUser"`
			RunAsGroup     int   `yaml:"runAsGroup"`
			SeccompProfile struct {
				Type string `yaml:"type"`
			} `yaml:"seccompProfile"`
		} `yaml:"securityContext"`
		Containers []container `yaml:"containers"`
	}
	container struct {
		Name  string `yaml:"name"`
		Image string `yaml:"image"`
		Ports []struct {
			Name          string `yaml:"name"`
			ContainerPort int    `yaml:"containerPort"`
		} `yaml:"ports"`
		Env []struct {
			Name      string `yaml:"name"`
			Value     string `yaml:"value"`
			ValueFrom *struct {
				ResourceFieldRef struct {
					Resource string `yaml:"resource"`
				} `yaml:"resourceFieldRef"`
			} `yaml:"valueFrom"`
		} `yaml:"env"`
		Resources struct {
			Requests map[string]string `yaml:"requests"`
			Limits   map[string]string `yaml:"limits"`
		} `yaml:"resources"`
		ReadinessProbe probe `yaml:"readinessProbe"`
		LivenessProbe  probe `yaml:"livenessProbe"`
		Lifecycle      struct {
			PreStop struct {
				Sleep struct {
					Seconds int `yaml:"seconds"`
				} `yaml:"sleep"`
			} `yaml:"preStop"`
		} `yaml:"lifecycle"`
		SecurityContext struct {
			AllowPrivilegeEscalation *bool `yaml:"allowPrivilegeEscalation"`
			Privileged               *bool `yaml:"privileged"`
			ReadOnlyRootFilesystem   *bool `yaml:"readOnlyRootFilesystem"`
			RunAsNonRoot             *bool `yaml:"runAsNonRoot"`
			Capabilities             struct {
				Drop []string `yaml:"drop"`
			} `yaml:"capabilities"`
		} `yaml:"securityContext"`
	}
	probe struct {
		GRPC *struct {
			Port    int    `yaml:"port"`
			Service string `yaml:"service"`
		} `yaml:"grpc"`
	}
	serviceSpec struct {
		ClusterIP string            `yaml:"clusterIP"`
		Selector  map[string]string `yaml:"selector"`
		Ports     []struct {
			Name        string `yaml:"name"`
			Port        int    `yaml:"port"`
			TargetPort  string `yaml:"targetPort"`
			AppProtocol string `yaml:"appProtocol"`
		} `yaml:"ports"`
	}
	pdbSpec struct {
		MaxUnavailable int `yaml:"maxUnavailable"`
		Selector       struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		} `yaml:"selector"`
	}
)

// manifests reads every object of server/deploy/kubernetes, by kind and
// name, and checks that the kustomization lists every manifest file.
func manifests(t *testing.T) map[string]k8sObject {
	t.Helper()
	dir := filepath.Join(fixtures.RepoRoot(t), "server", "deploy", "kubernetes")
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	objects := map[string]k8sObject{}
	var resources []string
	for _, file := range files {
		f, err := os.Open(file)
		require.NoError(t, err)
		dec := yaml.NewDecoder(f)
		for {
			var obj k8sObject
			err := dec.Decode(&obj)
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err, file)
			if obj.Kind == "Kustomization" {
				var k struct {
					Resources []string `yaml:"resources"`
				}
				raw, err := os.ReadFile(file)
				require.NoError(t, err)
				require.NoError(t, yaml.Unmarshal(raw, &k))
				resources = k.Resources
				continue
			}
			objects[obj.Kind+"/"+obj.Metadata.Name] = obj
		}
		require.NoError(t, f.Close())
	}
	var want []string
	for _, file := range files {
		if base := filepath.Base(file); base != "kustomization.yaml" {
			want = append(want, base)
		}
	}
	slices.Sort(resources)
	assert.Equal(t, want, resources, "kustomization.yaml lists every manifest")
	return objects
}

func decodeSpec[T any](t *testing.T, objects map[string]k8sObject, key string) T {
	t.Helper()
	obj, ok := objects[key]
	require.True(t, ok, "server/deploy/kubernetes has %s", key)
	var spec T
	require.NoError(t, obj.Spec.Decode(&spec), key)
	return spec
}

// quantity parses the Kubernetes quantities the manifests use (250m, 2,
// 256Mi, 1Gi) into a number.
func quantity(t *testing.T, q string) float64 {
	t.Helper()
	for suffix, scale := range map[string]float64{"m": 1e-3, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30} {
		if n, ok := strings.CutSuffix(q, suffix); ok {
			v, err := strconv.ParseFloat(n, 64)
			require.NoError(t, err, q)
			return v * scale
		}
	}
	v, err := strconv.ParseFloat(q, 64)
	require.NoError(t, err, q)
	return v
}

func port(t *testing.T, addr string) int {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	require.NoError(t, err, addr)
	n, err := strconv.Atoi(p)
	require.NoError(t, err, addr)
	return n
}

// TestKubernetesManifests checks server/deploy/kubernetes against the
// binary, so that neither can drift: every variable is a flag's and parses
// as the binary parses it, the ports, probes and Prometheus annotations
// follow the addresses those variables set, the probes ask the health
// service the binary registers, the pod runs as the image's user with a
// restrictive security context and bounded resources, and the Services and
// the PodDisruptionBudget select the Deployment's pods.
func TestKubernetesManifests(t *testing.T) {
	objects := manifests(t)
	dep := decodeSpec[deploymentSpec](t, objects, "Deployment/toolgate")
	assert.GreaterOrEqual(t, dep.Replicas, 3)
	pod := dep.Template.Spec
	labels := dep.Selector.MatchLabels
	require.NotEmpty(t, labels)
	for k, v := range labels {
		assert.Equal(t, v, dep.Template.Metadata.Labels[k], "the pods carry the selector's labels")
	}
	require.Len(t, pod.Containers, 1)
	c := pod.Containers[0]

	// The image is make image's.
	makefile, err := os.ReadFile(filepath.Join(fixtures.RepoRoot(t), "Makefile"))
	require.NoError(t, err)
	image := regexp.MustCompile(`(?m)^IMAGE \?= (\S+)$`).FindSubmatch(makefile)
	require.NotNil(t, image)
	assert.Equal(t, string(image[1]), c.Image)

	// Every variable is a flag's, and the binary accepts its value.
	var memLimit float64
	for _, e := range c.Env {
		if e.Name == "GOMEMLIMIT" {
			mib, ok := strings.CutSuffix(e.Value, "MiB")
			require.True(t, ok, "GOMEMLIMIT in MiB: %q", e.Value)
			n, err := strconv.Atoi(mib)
			require.NoError(t, err)
			memLimit = float64(n << 20)
			continue
		}
		name := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(e.Name, "TOOLGATE_"), "_", "-"))
		require.True(t, strings.HasPrefix(e.Name, "TOOLGATE_") && slices.Contains(serverFlagNames(), name) && !slices.Contains(withoutEnvironment, name),
			"%s is the variable of a server flag", e.Name)
		require.Nil(t, e.ValueFrom, e.Name)
		t.Setenv(e.Name, e.Value)
	}
	cfg, err := parseFlags(nil)
	require.NoError(t, err, "the manifest's variables parse")

	ports := map[string]int{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	host, _, err := net.SplitHostPort(cfg.addr)
	require.NoError(t, err)
	assert.True(t, net.ParseIP(host).IsUnspecified(), "listens on the pod's interfaces, not loopback: %s", cfg.addr)
	assert.Equal(t, ports["grpc"], port(t, cfg.addr), "TOOLGATE_ADDR is the grpc port")
	require.NotEmpty(t, cfg.metricsAddr, "metrics are on")
	assert.Equal(t, ports["metrics"], port(t, cfg.metricsAddr), "TOOLGATE_METRICS_ADDR is the metrics port")
	annotations := dep.Template.Metadata.Annotations
	assert.Equal(t, "true", annotations["prometheus.io/scrape"])
	assert.Equal(t, strconv.Itoa(ports["metrics"]), annotations["prometheus.io/port"])
	assert.Equal(t, "/metrics", annotations["prometheus.io/path"])

	// Probes: native gRPC on the health service.
	require.NotNil(t, c.ReadinessProbe.GRPC)
	require.NotNil(t, c.LivenessProbe.GRPC)
	assert.Equal(t, ports["grpc"], c.ReadinessProbe.GRPC.Port)
	assert.Equal(t, toolgatev1.ValidationService_ServiceDesc.ServiceName, c.ReadinessProbe.GRPC.Service, "ready when the service is")
	assert.Equal(t, ports["grpc"], c.LivenessProbe.GRPC.Port)
	assert.Empty(t, c.LivenessProbe.GRPC.Service, "alive when the server is")

	// Shutdown: the grace period covers the pause and the drain.
	pause := time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
	assert.Greater(t, time.Duration(pod.TerminationGracePeriodSeconds)*time.Second, pause+cfg.shutdownGrace,
		"terminationGracePeriodSeconds exceeds the preStop pause plus TOOLGATE_SHUTDOWN_GRACE")

	// Resources: requested and bounded.
	for _, r := range []string{"cpu", "memory"} {
		req, limit := c.Resources.Requests[r], c.Resources.Limits[r]
		require.NotEmpty(t, req, "requests.%s", r)
		require.NotEmpty(t, limit, "limits.%s", r)
		assert.LessOrEqual(t, quantity(t, req), quantity(t, limit), r)
	}
	// Memory: GOMEMLIMIT leaves the limit room for what is not heap, and
	// the pools the flags bound leave GOMEMLIMIT room for the requests in
	// flight.
	limit := quantity(t, c.Resources.Limits["memory"])
	assert.InDelta(t, 0.8*limit, memLimit, 0.1*limit, "GOMEMLIMIT is 70%%-90%% of limits.memory")
	assert.Less(t, float64(cfg.opts.HeapBound(cfg.maxMessageBytes)), 0.75*memLimit,
		"the bounded pools (server.Options.HeapBound) take at most three quarters of GOMEMLIMIT")

	// Security: the image's non-root user, nothing more than it needs.
	dockerfile, err := os.ReadFile(filepath.Join(fixtures.RepoRoot(t), "server", "deploy", "Dockerfile"))
	require.NoError(t, err)
	user := regexp.MustCompile(`(?m)^USER (\d+):(\d+)$`).FindSubmatch(dockerfile)
	require.NotNil(t, user)
	assert.Equal(t, string(user[1]), strconv.Itoa(pod.SecurityContext.RunAsUser), "the Dockerfile's user")
	assert.Equal(t, string(user[2]), strconv.Itoa(pod.SecurityContext.RunAsGroup), "the Dockerfile's group")
	isTrue := func(b *bool) bool { return b != nil && *b }
	isFalse := func(b *bool) bool { return b != nil && !*b }
	assert.True(t, isTrue(pod.SecurityContext.RunAsNonRoot))
	assert.True(t, isTrue(c.SecurityContext.RunAsNonRoot))
	assert.Equal(t, "RuntimeDefault", pod.SecurityContext.SeccompProfile.Type)
	assert.True(t, isFalse(pod.AutomountServiceAccountToken), "toolgate never calls the Kubernetes API")
	assert.True(t, isFalse(c.SecurityContext.AllowPrivilegeEscalation))
	assert.True(t, isFalse(c.SecurityContext.Privileged))
	assert.True(t, isTrue(c.SecurityContext.ReadOnlyRootFilesystem), "toolgate writes no file")
	assert.Equal(t, []string{"ALL"}, c.SecurityContext.Capabilities.Drop)

	// Services and the disruption budget select these pods.
	for _, name := range []string{"Service/toolgate", "Service/toolgate-headless"} {
		svc := decodeSpec[serviceSpec](t, objects, name)
		assert.Equal(t, labels, svc.Selector, name)
		require.NotEmpty(t, svc.Ports, name)
		for _, p := range svc.Ports {
			assert.Contains(t, ports, p.TargetPort, "%s targets a named container port", name)
			if p.TargetPort == "grpc" {
				assert.Equal(t, "kubernetes.io/h2c", p.AppProtocol, "%s: gRPC is HTTP/2 in cleartext", name)
			}
		}
	}
	assert.Equal(t, "None", decodeSpec[serviceSpec](t, objects, "Service/toolgate-headless").ClusterIP,
		"headless: DNS returns every pod, for client-side round_robin")
	pdb := decodeSpec[pdbSpec](t, objects, "PodDisruptionBudget/toolgate")
	assert.Equal(t, labels, pdb.Selector.MatchLabels)
	assert.Equal(t, 1, pdb.MaxUnavailable)
	assert.Less(t, pdb.MaxUnavailable, dep.Replicas)
}
