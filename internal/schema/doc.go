// Package schema compiles JSON Schemas of one profile into an immutable form.
package schema
