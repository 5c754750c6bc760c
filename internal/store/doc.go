// Package store computes content-addressed schema handles and keeps compiled
// schemas under them. Its Store is bounded by entry count and total bytes,
// evicts the least recently used entry first, and is safe for concurrent use.
package store
