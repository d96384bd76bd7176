package discovery

import "context"

// maxPages bounds one listing, so a forge whose Link headers loop cannot
// keep a scan busy forever (1,000 pages of 100 is 100,000 repositories).
const maxPages = 1000

// listPages fetches a paginated listing from first, following the Link
// header's rel="next" until the last page.
func listPages[T any](ctx context.Context, c *client, first string) ([]T, error) {
	var all []T
	next := first
	for page := 0; next != "" && page < maxPages; page++ {
		var items []T
		n, err := c.getJSON(ctx, next, &items)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		if len(items) == 0 {
			break
		}
		next = n
	}
	return all, nil
}
