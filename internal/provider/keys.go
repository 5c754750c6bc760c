package provider

import "strconv"

// Keys gives out keys no two of which are the same: the key wanted, or,
// once that was given out, the key with the first free "#2", "#3", ...
// suffix. The zero value is ready to use.
type Keys struct {
	taken map[string]bool // every key given out
	made  map[string]int  // how many keys were made from each wanted one
}

// Claim returns want, or want with the first free suffix, as a key never
// given out before, and how many keys it tried (at least one), the work
// it took: a key wanted again starts from the suffix after the last one
// made from it, so the tries pass only keys given out for other reasons.
func (k *Keys) Claim(want string) (key string, tries int) {
	if k.taken == nil {
		k.taken, k.made = map[string]bool{}, map[string]int{}
	}
	for n := k.made[want]; ; n++ {
		tries++
		key := want
		if n > 0 {
			key += "#" + strconv.Itoa(n+1)
		}
		if !k.taken[key] {
			k.taken[key], k.made[want] = true, n+1
			return key, tries
		}
	}
}
