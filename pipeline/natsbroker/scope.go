package natsbroker

import (
	"context"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// Scope maps the names docweave's code uses (events.SubjectBuildRequested,
// StreamName, BuildsBucket, …) onto one site's names on a shared broker, so
// that any number of sites share a NATS server or cluster without seeing
// each other. It is applied in one place, the JetStream API a Broker hands
// out and the Broker's core-NATS methods, so code that names a new subject,
// stream or bucket is scoped without knowing it.
//
//   - Subjects get the prefix "<site>.": handbook.docweave.build.requested.
//   - Streams, key-value buckets and object stores are named
//     "<site>_<name>": handbook_DOCWEAVE, handbook_docweave-state.
//   - A stream stores its messages under the unscoped subject (a subject
//     transform "<site>.>" → ">"), so consumer filters and the subjects of
//     delivered messages read as docweave's code writes them.
//   - Consumers live inside the site's streams and keep their names.
//
// The zero Scope changes nothing (tests that own their broker).
type Scope struct{ site string }

// NewScope scopes names by site; "" scopes nothing.
func NewScope(site string) Scope { return Scope{site: site} }

// Site is the site the scope belongs to ("" when unscoped).
func (s Scope) Site() string { return s.site }

// Subject is the subject a message of docweave's subject travels on. The
// system subjects of buckets and object stores ($KV.<bucket>.<key>,
// $O.<bucket>.…), which code may publish on directly (a cache entry with
// its own time to live), name the scoped bucket; other system subjects
// ($JS.API.…) are the broker's own and stay as they are.
func (s Scope) Subject(subject string) string {
	if s.site == "" || subject == "" {
		return subject
	}
	if strings.HasPrefix(subject, "$") {
		return s.systemSubject(subject, s.Name)
	}
	return s.site + "." + subject
}

// Unsubject is the inverse of Subject; a subject outside the scope is
// returned as it is.
func (s Scope) Unsubject(subject string) string {
	if s.site == "" {
		return subject
	}
	if strings.HasPrefix(subject, "$") {
		return s.systemSubject(subject, func(name string) string {
			own, _ := s.Unname(name)
			return own
		})
	}
	return strings.TrimPrefix(subject, s.site+".")
}

// systemSubject maps the bucket token of a $KV or $O subject.
func (s Scope) systemSubject(subject string, mapName func(string) string) string {
	for _, p := range []string{"$KV.", "$O."} {
		rest, ok := strings.CutPrefix(subject, p)
		if !ok {
			continue
		}
		bucket, tail, more := strings.Cut(rest, ".")
		if !more {
			return p + mapName(bucket)
		}
		return p + mapName(bucket) + "." + tail
	}
	return subject
}

// Name is the broker name of a stream, bucket or object store. The
// streams behind buckets and object stores (KV_<bucket>, OBJ_<bucket>)
// keep their prefix in front: KV_handbook_docweave-state.
func (s Scope) Name(name string) string {
	if s.site == "" || name == "" {
		return name
	}
	for _, p := range backingPrefixes {
		if rest, ok := strings.CutPrefix(name, p); ok {
			return p + s.site + "_" + rest
		}
	}
	return s.site + "_" + name
}

// Unname is the inverse of Name, and reports whether name is in the scope.
func (s Scope) Unname(name string) (string, bool) {
	if s.site == "" {
		return name, true
	}
	for _, p := range backingPrefixes {
		if rest, ok := strings.CutPrefix(name, p+s.site+"_"); ok {
			return p + rest, true
		}
	}
	return strings.CutPrefix(name, s.site+"_")
}

// backingPrefixes start the names of the streams JetStream keeps buckets
// and object stores in.
var backingPrefixes = []string{"KV_", "OBJ_"}

// JetStream returns js seen through the scope.
func (s Scope) JetStream(js roles.JetStream) roles.JetStream {
	if s.site == "" {
		return js
	}
	return &scopedJS{js: js, s: s}
}

// streamConfig scopes a stream's name, subjects and sources, and stores
// its messages under unscoped subjects. RePublish is left as written: it
// is how a site publishes on a public subject (the broken-link events).
func (s Scope) streamConfig(cfg jetstream.StreamConfig) jetstream.StreamConfig {
	cfg.Name = s.Name(cfg.Name)
	if len(cfg.Subjects) > 0 {
		subjects := make([]string, len(cfg.Subjects))
		for i, subj := range cfg.Subjects {
			subjects[i] = s.Subject(subj)
		}
		cfg.Subjects = subjects
		if cfg.SubjectTransform == nil {
			cfg.SubjectTransform = &jetstream.SubjectTransformConfig{Source: s.site + ".>", Destination: ">"}
		} else {
			t := *cfg.SubjectTransform
			t.Source = s.Subject(t.Source)
			cfg.SubjectTransform = &t
		}
	}
	cfg.Mirror = s.source(cfg.Mirror)
	cfg.Sources = s.sources(cfg.Sources)
	return cfg
}

// sources scopes each of a stream's or bucket's sources; nil stays nil.
func (s Scope) sources(in []*jetstream.StreamSource) []*jetstream.StreamSource {
	if len(in) == 0 {
		return in
	}
	out := make([]*jetstream.StreamSource, len(in))
	for i, src := range in {
		out[i] = s.source(src)
	}
	return out
}

func (s Scope) source(src *jetstream.StreamSource) *jetstream.StreamSource {
	if src == nil || src.External != nil {
		return src
	}
	out := *src
	out.Name = s.Name(src.Name)
	return &out
}

// unscopeStreamInfo shows a stream's configuration as it was asked for.
func (s Scope) unscopeStreamInfo(info *jetstream.StreamInfo) *jetstream.StreamInfo {
	if info == nil {
		return nil
	}
	out := *info
	out.Config.Name, _ = s.Unname(info.Config.Name)
	if len(info.Config.Subjects) > 0 {
		out.Config.Subjects = make([]string, len(info.Config.Subjects))
		for i, subj := range info.Config.Subjects {
			out.Config.Subjects[i] = s.Unsubject(subj)
		}
	}
	if t := info.Config.SubjectTransform; t != nil && t.Source == s.site+".>" && t.Destination == ">" {
		out.Config.SubjectTransform = nil
	}
	return &out
}

func (s Scope) msg(m *nats.Msg) *nats.Msg {
	out := *m
	out.Subject = s.Subject(m.Subject)
	return &out
}

func (s Scope) consumerConfig(cfg jetstream.ConsumerConfig) jetstream.ConsumerConfig {
	cfg.DeliverSubject = s.Subject(cfg.DeliverSubject)
	return cfg
}

func (s Scope) kvConfig(cfg jetstream.KeyValueConfig) jetstream.KeyValueConfig {
	cfg.Bucket = s.Name(cfg.Bucket)
	cfg.Mirror = s.source(cfg.Mirror)
	cfg.Sources = s.sources(cfg.Sources)
	return cfg
}

// scopedJS is docweave's roles of the JetStream API (roles.JetStream)
// through a Scope. Only the methods some code calls are scoped: every one
// is written out, none passed through by embedding, so a role that gains
// a method must have it scoped here before this compiles.
type scopedJS struct {
	js roles.JetStream
	s  Scope
}

var _ roles.JetStream = (*scopedJS)(nil)

// SiteScoped says that this JetStream API is a site's on a shared broker:
// resources created through it that must be heard on a public subject
// (the broken-link stream, package linkcheck) republish there.
func (*scopedJS) SiteScoped() bool { return true }

// Conn is the unscoped connection; use the Broker's methods instead.
func (j *scopedJS) Conn() *nats.Conn                    { return j.js.Conn() }
func (j *scopedJS) Options() jetstream.JetStreamOptions { return j.js.Options() }

func (j *scopedJS) stream(st jetstream.Stream, err error) (jetstream.Stream, error) {
	if err != nil {
		return nil, err
	}
	return &scopedStream{Stream: st, s: j.s}, nil
}

func (j *scopedJS) CreateStream(ctx context.Context, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	return j.stream(j.js.CreateStream(ctx, j.s.streamConfig(cfg)))
}

func (j *scopedJS) CreateOrUpdateStream(ctx context.Context, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	return j.stream(j.js.CreateOrUpdateStream(ctx, j.s.streamConfig(cfg)))
}

func (j *scopedJS) Stream(ctx context.Context, name string) (jetstream.Stream, error) {
	return j.stream(j.js.Stream(ctx, j.s.Name(name)))
}

func (j *scopedJS) CreateOrUpdateConsumer(ctx context.Context, stream string, cfg jetstream.ConsumerConfig) (jetstream.Consumer, error) {
	return j.js.CreateOrUpdateConsumer(ctx, j.s.Name(stream), j.s.consumerConfig(cfg))
}

func (j *scopedJS) CreateConsumer(ctx context.Context, stream string, cfg jetstream.ConsumerConfig) (jetstream.Consumer, error) {
	return j.js.CreateConsumer(ctx, j.s.Name(stream), j.s.consumerConfig(cfg))
}

func (j *scopedJS) OrderedConsumer(ctx context.Context, stream string, cfg jetstream.OrderedConsumerConfig) (jetstream.Consumer, error) {
	return j.js.OrderedConsumer(ctx, j.s.Name(stream), cfg)
}

func (j *scopedJS) Consumer(ctx context.Context, stream, consumer string) (jetstream.Consumer, error) {
	return j.js.Consumer(ctx, j.s.Name(stream), consumer)
}

func (j *scopedJS) DeleteConsumer(ctx context.Context, stream, consumer string) error {
	return j.js.DeleteConsumer(ctx, j.s.Name(stream), consumer)
}

func (j *scopedJS) PublishMsg(ctx context.Context, msg *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	ack, err := j.js.PublishMsg(ctx, j.s.msg(msg), opts...)
	if ack != nil {
		ack.Stream, _ = j.s.Unname(ack.Stream)
	}
	return ack, err
}

func (j *scopedJS) KeyValue(ctx context.Context, bucket string) (jetstream.KeyValue, error) {
	return j.js.KeyValue(ctx, j.s.Name(bucket))
}

func (j *scopedJS) CreateOrUpdateKeyValue(ctx context.Context, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	return j.js.CreateOrUpdateKeyValue(ctx, j.s.kvConfig(cfg))
}

func (j *scopedJS) ObjectStore(ctx context.Context, bucket string) (jetstream.ObjectStore, error) {
	return j.js.ObjectStore(ctx, j.s.Name(bucket))
}

func (j *scopedJS) CreateOrUpdateObjectStore(ctx context.Context, cfg jetstream.ObjectStoreConfig) (jetstream.ObjectStore, error) {
	cfg.Bucket = j.s.Name(cfg.Bucket)
	return j.js.CreateOrUpdateObjectStore(ctx, cfg)
}

// scopedStream shows a stream's information unscoped; everything else of
// a stream is bound to it already.
type scopedStream struct {
	jetstream.Stream
	s Scope
}

var _ jetstream.Stream = (*scopedStream)(nil)

func (st *scopedStream) Info(ctx context.Context, opts ...jetstream.StreamInfoOpt) (*jetstream.StreamInfo, error) {
	info, err := st.Stream.Info(ctx, opts...)
	return st.s.unscopeStreamInfo(info), err
}

func (st *scopedStream) CachedInfo() *jetstream.StreamInfo {
	return st.s.unscopeStreamInfo(st.Stream.CachedInfo())
}
