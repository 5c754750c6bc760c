package jsondoc

// ParseChunk is how many bytes ParseUntil reads between two looks at
// whether to stop.
const ParseChunk = parseChunk

// CanonicalChunk is how many bytes CanonicalUntil writes between two looks
// at whether to stop, and CanonicalSortLook the most members of an object
// it sorts without looking first.
const (
	CanonicalChunk    = canonicalChunk
	CanonicalSortLook = canonicalSortLook
)
