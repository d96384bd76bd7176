package preview

import "strconv"

func itoa(n int) string { return strconv.Itoa(n) }

// plural is "1 page" or "3 pages".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
