// Package repocheck holds no code: its tests check that what the repository
// states about itself holds in the repository as it is. go.mod and go.sum
// are tidy, and the README's Go code compiles against the module's own
// packages. Its tests never touch the network or the work tree.
package repocheck
