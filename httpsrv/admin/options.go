package admin

import (
	"errors"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/metrics"
)

// Options configure the admin handler. The daemon fills them from
// config.Admin, the output directory and its own components.
type Options struct {
	// Token, when not empty, is required as "Authorization: Bearer <token>"
	// on /api/* and /status. /health, /ready and /metrics stay open so
	// probes and scrapers need no secret.
	Token string
	// PublicDir is <output.directory>/public; /ready answers 200 only
	// while it exists as a directory.
	PublicDir string
	// Metrics is served at /metrics from its own registry.
	Metrics *metrics.Metrics
	// Backend is the daemon behind the API and the status page.
	Backend Backend
	// Previews serves /api/previews; nil when daemon.previews is off.
	Previews Previews
	// Log receives one line per request and every internal failure. New
	// adds the field server=admin itself, so pass a logger without it
	// (zerolog would write the key twice).
	Log zerolog.Logger
}

// Validate reports the first option that cannot work, naming it. The error
// never contains the token.
func (o Options) Validate() error {
	switch {
	case o.Backend == nil:
		return errors.New("admin server: Backend is required")
	case o.Metrics == nil || o.Metrics.Registry == nil:
		return errors.New("admin server: Metrics (with its Registry) is required")
	case o.PublicDir == "":
		return errors.New("admin server: PublicDir is required (<output.directory>/public)")
	case !validToken(o.Token):
		return errors.New("admin.token: must consist of letters, digits and - . _ ~ + / (optionally ending in =), as it is sent after \"Bearer \"")
	}
	return nil
}

// validToken accepts an empty token (authentication off) or an RFC 6750
// token68, the only thing a client can send after "Bearer ".
func validToken(token string) bool {
	return token == "" || isToken68(token)
}
