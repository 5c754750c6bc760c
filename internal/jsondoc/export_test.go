package jsondoc

// ParseChunk is how many bytes ParseUntil reads between two looks at
// whether to stop.
const ParseChunk = parseChunk
