package store

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
)

// HandlePrefix starts every handle. It versions the handle scheme: a change
// to what is hashed, or how, gets a new prefix.
const HandlePrefix = "tg1_"

// HandleLen is the length in bytes of every handle: the prefix followed by
// the 64 lowercase hex digits of a SHA-256 sum.
const HandleLen = len(HandlePrefix) + 2*sha256.Size

// separator is hashed between the profile name and the schema.
var separator = [1]byte{0}

// Handle returns the content address of a schema: HandlePrefix followed by
// the lowercase hex SHA-256 of the profile name, a 0 byte, and the schema's
// canonical JSON bytes.
//
// The caller supplies canonical bytes (key order and insignificant
// whitespace normalised), so that equal schemas get equal handles on every
// replica. profile must not contain a 0 byte: that byte separates it from
// the schema. Handle does not retain canonical.
func Handle(profile string, canonical []byte) string {
	d := sha256.New()
	_, _ = io.WriteString(d, profile) // a hash.Hash never returns an error
	_, _ = d.Write(separator[:])
	_, _ = d.Write(canonical)
	var sum [sha256.Size]byte
	var out [HandleLen]byte
	copy(out[:], HandlePrefix)
	hex.Encode(out[len(HandlePrefix):], d.Sum(sum[:0]))
	return string(out[:])
}

// IsHandle reports whether s has the form of a handle: HandlePrefix followed
// by exactly 64 lowercase hex digits. It says nothing about whether any store
// holds s; it lets a caller tell a malformed handle from an unknown one.
func IsHandle(s string) bool {
	if len(s) != HandleLen || s[:len(HandlePrefix)] != HandlePrefix {
		return false
	}
	for i := len(HandlePrefix); i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
