package provider_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
)

// BenchmarkFeed replays each synthetic recording; -benchmem shows the
// allocations per stream.
func BenchmarkFeed(b *testing.B) {
	for dir, p := range recordingDirs {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*.jsonl"))
		require.NoError(b, err)
		for _, file := range files {
			data, err := os.ReadFile(file)
			require.NoError(b, err)
			lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
			b.Run(dir+"/"+filepath.Base(file), func(b *testing.B) {
				b.ReportAllocs()
				var evs []provider.Event
				for b.Loop() {
					a, _ := provider.New(p)
					for _, line := range lines {
						evs, _ = a.Feed(evs[:0], line)
					}
					evs = a.Close(evs[:0])
				}
				b.ReportMetric(float64(len(lines)), "events/op")
			})
		}
	}
}
