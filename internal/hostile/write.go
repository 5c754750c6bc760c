package hostile

import (
	"bufio"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"slices"
)

// Write writes the shape's request under dir, one file per part, named
// after the shape: NAME.schema.json, NAME.arguments.json, NAME.handle.txt,
// NAME.tools_list.json, NAME.tool.TOOL.json per stream tool,
// NAME.PROVIDER.events.jsonl (one event a line) and NAME.schemas.jsonl
// (one schema a line). It returns the files written.
func Write(dir string, s Shape) ([]string, error) {
	r := s.Generate()
	var written []string
	var errs error
	file := func(name string, write func(*bufio.Writer) error) {
		path := filepath.Join(dir, s.Name+"."+name)
		f, err := os.Create(path)
		if err != nil {
			errs = errors.Join(errs, err)
			return
		}
		w := bufio.NewWriterSize(f, 1<<20)
		errs = errors.Join(errs, write(w), w.Flush(), f.Close())
		written = append(written, path)
	}
	bytes := func(b []byte) func(*bufio.Writer) error {
		return func(w *bufio.Writer) error { _, err := w.Write(b); return err }
	}
	lines := func(seq iter.Seq[[]byte]) func(*bufio.Writer) error {
		return func(w *bufio.Writer) error {
			for b := range seq {
				if _, err := w.Write(append(b, '\n')); err != nil {
					return err
				}
			}
			return nil
		}
	}
	if r.Schema != nil {
		file("schema.json", bytes(r.Schema))
	}
	if r.Arguments != nil {
		file("arguments.json", bytes(r.Arguments))
	}
	if r.Handle != "" {
		file("handle.txt", bytes([]byte(r.Handle)))
	}
	if r.ToolsList != nil {
		file("tools_list.json", bytes(r.ToolsList))
	}
	names := make([]string, 0, len(r.Tools))
	for name := range r.Tools {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		file("tool."+name+".json", bytes(r.Tools[name]))
	}
	if r.Events != nil {
		file(r.Provider+".events.jsonl", lines(r.Events))
	}
	if r.Schemas != nil {
		file("schemas.jsonl", lines(r.Schemas))
	}
	return written, errs
}
