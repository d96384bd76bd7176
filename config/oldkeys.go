package config

// oldKeys are the key paths that still load but have a newer name: help
// texts and the starter file use the newer one (broker.url,
// broker.embedded.listen), so a newcomer never learns two names for one
// setting, and a misplaced key is never sent to one of them. The
// configuration reference still lists them, as aliases.
var oldKeys = map[string]bool{
	"daemon.link_verification.broker_url": true, // broker.url (alias nats_url)
	"daemon.embedded_broker":              true, // broker.embedded.listen
	"daemon.embedded_broker.host":         true,
	"daemon.embedded_broker.port":         true,
}
