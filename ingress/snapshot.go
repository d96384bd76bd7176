package ingress

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// etagScheme names the ETag derivation; it is hashed in first so that a
// change of derivation (or of the body format) can never produce a tag
// equal to one an older build handed out for a different body.
const etagScheme = "docweave-ingress-etag/v1"

// Snapshot is one projection made ready to serve: the JSON body encoded
// once, a gzip copy of it, and their entity-tags. Handlers only read it,
// so a request costs no encoding, no hashing and no allocation of the body.
type Snapshot struct {
	// Body is the identity-encoded JSON of the HostsList.
	Body []byte
	// ETag is the quoted strong entity-tag of Body, e.g. "\"3f2a…\"".
	ETag string
	// GzipBody is Body compressed with gzip, sent to clients that accept it.
	GzipBody []byte
	// GzipETag is the quoted strong entity-tag of GzipBody; it differs from
	// ETag because the two representations differ byte for byte.
	GzipETag string

	// Inputs are the object versions the ETag was derived from.
	Inputs []ObjectVersion
	// Hosts and Paths count the listing, for metrics and logs.
	Hosts, Paths int
	// PathsByReachability counts paths per reachability value.
	PathsByReachability map[Reachability]int
	// BuiltAt is when the snapshot was made.
	BuiltAt time.Time
}

// NewSnapshot encodes a projection and derives its ETag.
//
// The tag is a SHA-256 over the derivation scheme, the sorted
// kind/namespace/name/resourceVersion of every object behind the list, and
// the encoded body itself. The resource versions make the tag change when
// any object behind the list changes, as the interface promises; the body
// covers everything else the representation depends on (objects read from
// a file without resourceVersions, deleted objects, the encoding), so the
// tag can never stay the same while the bytes change. Objects nothing in
// the list depends on are not inputs, and informer resyncs do not change
// versions, so neither moves the tag. The same objects always give the same
// tag, in every replica and after every restart.
func NewSnapshot(p Projection) (*Snapshot, error) {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p.List); err != nil {
		return nil, fmt.Errorf("encode hosts list: %w", err)
	}
	gz, err := gzipBytes(body.Bytes())
	if err != nil {
		return nil, fmt.Errorf("compress hosts list: %w", err)
	}
	h := sha256.New()
	writeField(h, etagScheme)
	for _, in := range p.Inputs {
		writeField(h, in.Kind)
		writeField(h, in.Namespace)
		writeField(h, in.Name)
		writeField(h, in.ResourceVersion)
	}
	writeField(h, "body")
	h.Write(body.Bytes())
	sum := h.Sum(nil)
	tag := hex.EncodeToString(sum[:16])

	s := &Snapshot{
		Body:                body.Bytes(),
		ETag:                `"` + tag + `"`,
		GzipBody:            gz,
		GzipETag:            `"` + tag + `-gzip"`,
		Inputs:              p.Inputs,
		Hosts:               len(p.List.Hosts),
		PathsByReachability: map[Reachability]int{Reachable: 0, Unreachable: 0, Unknown: 0},
		BuiltAt:             time.Now(),
	}
	for _, host := range p.List.Hosts {
		s.Paths += len(host.Paths)
		for _, path := range host.Paths {
			s.PathsByReachability[path.Reachability]++
		}
	}
	return s, nil
}

// writeField hashes a length-prefixed string, so that no two different
// sequences of fields hash the same bytes.
func writeField(h interface{ Write([]byte) (int, error) }, s string) {
	fmt.Fprintf(h, "%d:%s;", len(s), s)
}

// gzipBytes compresses b deterministically (no name, no modification time),
// so equal bodies give equal compressed bytes and the gzip tag stays strong.
func gzipBytes(b []byte) ([]byte, error) {
	var out bytes.Buffer
	zw, err := gzip.NewWriterLevel(&out, gzip.DefaultCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
