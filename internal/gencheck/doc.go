// Package gencheck holds no code: its test regenerates gen/ from proto/ into
// a temporary folder and fails when the committed gen/ differs. It runs the
// buf binary that `make tools` builds at the Makefile's BUF_VERSION, so it
// never compiles buf under go test's timeout.
package gencheck
