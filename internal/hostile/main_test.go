package hostile_test

import "flag"

// update rewrites testdata/hostile/README.md's table (TestReadmeTable).
var update = flag.Bool("update", false, "rewrite testdata/hostile/README.md's table of shapes")
