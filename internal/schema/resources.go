package schema

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
)

// ResourceDocument returns the document URI a key of Options.Resources
// names: the key without its empty fragment ("…/schema#" is "…/schema")
// and without dot segments ("…/a/b/../c" is "…/a/c"), with its scheme in
// lower case, as a $ref to it is resolved. A key that is not an absolute
// URI, or that has a fragment, names no document, since references find
// documents by absolute URI without fragment.
func ResourceDocument(key string) (string, error) {
	u, err := url.Parse(key)
	switch {
	case err != nil || !u.IsAbs():
		return "", fmt.Errorf("%q is not an absolute URI", key)
	case u.Fragment != "":
		return "", fmt.Errorf("%q has a fragment; a document is named by its URI without one", key)
	}
	return documentURI(key), nil
}

// CheckResources reports the first key of resources, in sorted order,
// that ResourceDocument refuses or that names the same document as
// another key ("…/a" and "…/a#", or "…/a" and "…/b/../a"): which text the
// document has would then depend on the order a map is read in.
func CheckResources(resources map[string][]byte) error {
	seen := make(map[string]string, len(resources))
	for _, key := range slices.Sorted(maps.Keys(resources)) {
		doc, err := ResourceDocument(key)
		if err != nil {
			return err
		}
		if other, dup := seen[doc]; dup {
			return fmt.Errorf("%q and %q name the same document", other, key)
		}
		seen[doc] = key
	}
	return nil
}
