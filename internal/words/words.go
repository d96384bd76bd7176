// Package words writes counts the way people read them: "1 page", "2
// pages", never "1 pages". Messages, logs and summaries use it wherever a
// number comes before a noun.
package words

import "strconv"

// Count is n followed by the singular or plural noun.
func Count(n int, singular, plural string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + singular
	}
	return strconv.Itoa(n) + " " + plural
}

// Plural is Count for nouns whose plural adds an "s".
func Plural(n int, noun string) string { return Count(n, noun, noun+"s") }
