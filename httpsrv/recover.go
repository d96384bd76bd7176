package httpsrv

import (
	"fmt"
	"net/http"
	"runtime/debug"

	"github.com/rs/zerolog"
)

// RecoverPanics turns a panicking handler into an error line in the log,
// with the panic and its stack, and — when no response has begun — into
// the server's own 500 answer, written by fail; instead of a dropped
// connection and a stack trace on stderr. http.ErrAbortHandler, the
// sentinel net/http uses to abort a response, is passed on.
func RecoverPanics(log zerolog.Logger, fail func(w http.ResponseWriter), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := Record(w)
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if p == http.ErrAbortHandler {
				panic(p)
			}
			log.Error().Str("method", r.Method).Str("path", r.URL.Path).
				Str("panic", fmt.Sprint(p)).Bytes("stack", debug.Stack()).Msg("handler panicked")
			if !rec.Started() {
				for k := range rec.Header() {
					rec.Header().Del(k)
				}
				fail(rec)
			}
		}()
		next.ServeHTTP(rec, r)
	})
}
