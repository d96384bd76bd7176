package docs

import (
	"net/http"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/httpsrv"
)

// ServerName is the value of the "server" log field of this server.
const ServerName = "docs"

// withAccessLog logs every request of this server (httpsrv.WithAccessLog).
func withAccessLog(log zerolog.Logger, next http.Handler) http.Handler {
	return httpsrv.WithAccessLog(ServerName, log, next)
}
