// Command hostilegen writes toolgate's hostile corpus (package hostile) to
// a folder, by default testdata/hostile, one file per part of each shape's
// request, so that tools other than the Go tests (grpcurl, ghz, another
// language's client) can send them. The files are not committed: the
// largest are megabytes. Run it from the repository root:
//
//	go run ./internal/hostile/cmd/hostilegen [-out DIR] [SHAPE...]
//
// With no SHAPE it writes every shape; it prints each file it writes.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/toolgate/toolgate/internal/hostile"
)

func main() {
	out := flag.String("out", "testdata/hostile", "folder to write the shapes into")
	flag.Parse()
	shapes := hostile.Shapes()
	if flag.NArg() > 0 {
		shapes = shapes[:0]
		for _, name := range flag.Args() {
			s, ok := hostile.Lookup(name)
			if !ok {
				fmt.Fprintf(os.Stderr, "hostilegen: no shape %q\n", name)
				os.Exit(2)
			}
			shapes = append(shapes, s)
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "hostilegen:", err)
		os.Exit(1)
	}
	for _, s := range shapes {
		files, err := hostile.Write(*out, s)
		for _, f := range files {
			fmt.Println(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "hostilegen: %s: %v\n", s.Name, err)
			os.Exit(1)
		}
	}
}
