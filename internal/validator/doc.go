// Package validator checks JSON arguments against a compiled schema in one
// streaming pass, and is the entry point to toolgate's engine. The pipeline:
//
//  1. bytes → tokens. A jsontok.Tokenizer is fed the argument bytes in
//     pieces of any size (a whole document is one piece). It checks the JSON
//     grammar, UTF-8 and escapes, and reports each token with its byte
//     offset: the first byte of a value, member names, pieces of string and
//     number text (decoded, never re-parsed), and the end of each value.
//
//  2. compiled schema. schema.Compile has already turned the schema
//     document into immutable schema.Nodes: type sets, sorted member names,
//     required names as indexes, enum choices grouped by kind and
//     normalised, bounds as exact decimals. Nothing about the schema is
//     looked up or parsed while validating.
//
//  3. tokens → findings. A Validator routes each token to a machine: an
//     explicit stack with one frame per open container (never recursion on
//     input depth). At a value's first byte the machine checks its type and
//     picks the node for it; names are matched byte by byte against the
//     node's sorted names, and string enum choices are narrowed byte by
//     byte, so a value is rejected at the first byte that no valid document
//     could follow. Numbers stream into a decimal.Accumulator and are
//     compared exactly. A oneOf value runs one pass/fail machine per branch
//     over the same tokens; enum with object or array choices captures the
//     value's canonical text, bounded by the longest choice. A tracker that
//     knows nothing of the schema follows the instance path and detects
//     duplicate member names.
//
//  4. findings. A violation is recorded as a small struct; the instance
//     path and the message are formatted only when it is reported, so valid
//     input allocates nothing. With Options.StopAtFirst the Validator stops
//     at the first byte that produced a finding (what a stream needs);
//     otherwise it reports every violation, up to Options.MaxFindings.
//
// Feeding a document in any split gives the same findings, because every
// decision is made per byte and every offset is absolute.
package validator
