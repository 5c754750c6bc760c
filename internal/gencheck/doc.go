// Package gencheck holds no code: its test regenerates gen/ from proto/ into
// a temporary folder and fails when the committed gen/ differs. It runs buf
// pinned by the Makefile's BUF_VERSION, and is skipped under go test -short.
package gencheck
