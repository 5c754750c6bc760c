package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Set with -ldflags "-X main.version=... -X main.revision=... -X
// main.revisionTime=..." by builds that carry no VCS information, such as
// the container image (server/deploy/Dockerfile); each wins over what
// debug.ReadBuildInfo says when set.
var (
	version      string
	revision     string
	revisionTime string
)

// buildIdentity says which toolgate this is.
type buildIdentity struct {
	// Version is the module version ("v1.2.3" when built by go install
	// module@v1.2.3), "(devel)" for a build from a checkout.
	Version string
	// Revision and Time are the VCS revision and its commit time (RFC 3339),
	// "unknown" when the build recorded none (go build -buildvcs=false).
	Revision, Time string
	// Modified reports a build from a work tree with uncommitted changes.
	Modified bool
	// Go is the Go version and platform it was built with.
	Go string
}

// identity reads the running binary's identity.
func identity() buildIdentity {
	bi, _ := debug.ReadBuildInfo()
	return identityOf(bi, version, revision, revisionTime)
}

// identityOf is the identity that build information bi (nil when the
// binary has none) and the ldflags variables give.
func identityOf(bi *debug.BuildInfo, version, revision, revisionTime string) buildIdentity {
	id := buildIdentity{Version: "(devel)", Revision: "unknown", Time: "unknown",
		Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		if bi.Main.Version != "" {
			id.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				id.Revision = s.Value
			case "vcs.time":
				id.Time = s.Value
			case "vcs.modified":
				id.Modified = s.Value == "true"
			}
		}
	}
	for _, v := range []struct{ from, to *string }{{&version, &id.Version}, {&revision, &id.Revision}, {&revisionTime, &id.Time}} {
		if *v.from != "" {
			*v.to = *v.from
		}
	}
	return id
}

// String is the --version line (without the program name), as
// "v1.2.3, revision 0123abcd… (2026-12-01T09:22:00Z, modified), go1.26.8
// linux/amd64".
func (id buildIdentity) String() string {
	rev := "revision " + id.Revision
	var details []string
	if id.Time != "unknown" {
		details = append(details, id.Time)
	}
	if id.Modified {
		details = append(details, "modified")
	}
	if len(details) > 0 {
		rev += " (" + strings.Join(details, ", ") + ")"
	}
	return fmt.Sprintf("%s, %s, %s", id.Version, rev, id.Go)
}
