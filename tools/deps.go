//go:build tools

// Package tools pins the modules docweave builds on, so that `go mod tidy`
// keeps them while the packages that use them are being written.
package tools

import (
	_ "github.com/getkin/kin-openapi/openapi3filter"
	_ "github.com/go-git/go-git/v5"
	_ "github.com/gohugoio/hugo/hugolib"
	_ "github.com/nats-io/nats-server/v2/server"
	_ "github.com/nats-io/nats.go/jetstream"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/robfig/cron/v3"
	_ "github.com/rs/zerolog"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/viper"
	_ "golang.org/x/term"
	_ "k8s.io/client-go/kubernetes/fake"
)
