package natsbroker

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/workspace"
)

// Role says how a process takes part, because the broker rule depends on
// it.
type Role int

const (
	// RoleDaemon is `docweave daemon`: it embeds the broker when none is
	// configured, keeps its store in the workspace, and listens when
	// broker.embedded.listen says so.
	RoleDaemon Role = iota
	// RoleDirect is `docweave build`: it embeds an in-process broker with
	// a store the caller provides (Options.StoreDir), never
	// listening, unless a broker is configured.
	RoleDirect
	// RoleJoin is a process that joins a running site: `docweave stage`,
	// `serve` and `links tail`. It needs a broker it can reach: broker.url,
	// or the daemon's embedded broker at broker.embedded.listen.
	RoleJoin
)

// CredentialsFileName is the file, in the embedded broker's store
// directory, that keeps the generated credentials of a listening embedded
// broker and the address it listens on.
const CredentialsFileName = "credentials.json"

// EmbeddedUser is the user name of generated credentials.
const EmbeddedUser = "docweave"

// ErrNoSharedBroker says a joining process has no broker to meet the
// others on.
var ErrNoSharedBroker = errors.New("no shared broker")

// embeddedCredentials is the content of CredentialsFileName.
type embeddedCredentials struct {
	// URL is where the embedded broker listened when it last started.
	URL      string `json:"url"`
	Username string `json:"username"`
	Password string `json:"password"`
}

// OptionsFor applies the configuration's broker rule (docs/configuration.md,
// "The broker") for a process in the given role:
//
//   - broker.url set: every role connects there, with the configured
//     credentials and TLS.
//   - RoleDaemon without it: an embedded broker with its store in the
//     workspace, in-process only, or listening at broker.embedded.listen
//     with the configured credentials or generated ones (kept in the store
//     directory, mode 0600, and reused at the next start).
//   - RoleDirect without it: an embedded in-process broker; the caller
//     sets StoreDir.
//   - RoleJoin without it: the daemon's listening embedded broker, at the
//     address and with the credentials the daemon wrote into the
//     workspace (or the configured credentials).
//
// Every role is scoped to the configuration's site.
func OptionsFor(cfg *config.Config, role Role, name string) (Options, error) {
	b := cfg.Broker
	opts := Options{Name: name, Site: cfg.SiteName()}
	if b.External() {
		opts.URL = b.URL
		opts.Username, opts.Password = b.Username, b.Password
		opts.CredentialsFile = b.CredentialsFile
		opts.TLS = TLSFiles{CAFile: b.TLS.CAFile, CertFile: b.TLS.CertFile, KeyFile: b.TLS.KeyFile}
		return opts, nil
	}
	store := workspace.For(cfg).Broker()
	switch role {
	case RoleDirect:
		return opts, nil
	case RoleDaemon:
		opts.StoreDir = store
		opts.Listen = b.Embedded.Listen
		if opts.Listen == "" {
			return opts, nil
		}
		if b.HasCredentials() {
			opts.Username, opts.Password = b.Username, b.Password
			return opts, nil
		}
		creds, err := loadOrCreateCredentials(store)
		if err != nil {
			return opts, err
		}
		opts.Username, opts.Password = creds.Username, creds.Password
		return opts, nil
	}
	// RoleJoin.
	if b.Embedded.Listen == "" {
		return opts, fmt.Errorf("%w: the processes of a split deployment meet on one broker; set broker.url (a NATS server or cluster), or broker.embedded.listen on the daemon whose broker they join", ErrNoSharedBroker)
	}
	path := filepath.Join(store, CredentialsFileName)
	creds, err := readCredentials(path)
	switch {
	case err == nil:
		opts.URL = creds.URL
	case b.HasCredentials() && errors.Is(err, fs.ErrNotExist):
		opts.URL = "nats://" + dialAddress(b.Embedded.Listen)
	case errors.Is(err, fs.ErrNotExist):
		return opts, fmt.Errorf("%w: the daemon's embedded broker (broker.embedded.listen %s) writes its address and credentials to %s when it starts, and that file is not there: start `docweave daemon` with this configuration first, or set broker.url with broker.username and broker.password", ErrNoSharedBroker, b.Embedded.Listen, path)
	default:
		return opts, err
	}
	if b.HasCredentials() {
		opts.Username, opts.Password = b.Username, b.Password
	} else {
		opts.Username, opts.Password = creds.Username, creds.Password
	}
	return opts, nil
}

// dialAddress turns a listen address into one to connect to: every
// interface is reached on loopback.
func dialAddress(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// loadOrCreateCredentials returns the generated credentials of the
// embedded broker, creating them (mode 0600) on the first start.
func loadOrCreateCredentials(store string) (embeddedCredentials, error) {
	path := filepath.Join(store, CredentialsFileName)
	creds, err := readCredentials(path)
	if err == nil && creds.Username != "" && creds.Password != "" {
		return creds, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return creds, err
	}
	var secret [24]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return creds, fmt.Errorf("generate broker credentials: %w", err)
	}
	creds = embeddedCredentials{Username: EmbeddedUser, Password: hex.EncodeToString(secret[:])}
	return creds, writeCredentials(path, creds)
}

// RecordEmbeddedURL writes the address a listening embedded broker got
// into its credentials file, for joining processes (port 0 picks one at
// every start). With configured credentials the file holds the address
// only.
func RecordEmbeddedURL(cfg *config.Config, url string) error {
	path := filepath.Join(workspace.For(cfg).Broker(), CredentialsFileName)
	creds, err := readCredentials(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if cfg.Broker.HasCredentials() {
		creds = embeddedCredentials{}
	}
	creds.URL = url
	return writeCredentials(path, creds)
}

func readCredentials(path string) (embeddedCredentials, error) {
	var creds embeddedCredentials
	info, err := os.Stat(path)
	if err != nil {
		return creds, err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return creds, fmt.Errorf("broker credentials %s: mode %04o lets other users read them; expected 0600 (chmod 600 %s)", path, info.Mode().Perm(), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return creds, fmt.Errorf("broker credentials: %w", err)
	}
	if err := json.Unmarshal(data, &creds); err != nil {
		return creds, fmt.Errorf("broker credentials %s: %w", path, err)
	}
	return creds, nil
}

// writeCredentials replaces the file atomically, created with mode 0600
// from the start so the secret is never readable by others.
func writeCredentials(path string, creds embeddedCredentials) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("broker credentials: %w", err)
	}
	data, err := json.MarshalIndent(creds, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".credentials-*")
	if err != nil {
		return fmt.Errorf("broker credentials: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("broker credentials: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("broker credentials: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("broker credentials: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("broker credentials: %w", err)
	}
	return nil
}
