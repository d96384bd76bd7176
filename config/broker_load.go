package config

import (
	"net"
	"strconv"
	"strings"
)

// resolveBroker settles the broker and site settings after decoding: the
// specification's daemon.link_verification.broker_url (alias nats_url) and
// the older daemon.embedded_broker are other spellings of broker.url and
// broker.embedded.listen; site.name defaults to a name derived from the
// configuration. It returns the conflicts between spellings.
func resolveBroker(c *Config, present map[string]bool) []Problem {
	var l problemList
	lv := &c.Daemon.LinkVerification
	c.Broker.URL = strings.TrimSpace(c.Broker.URL)
	lvURL := strings.TrimSpace(lv.BrokerURL)
	if !present["daemon.link_verification.broker_url"] {
		lvURL = ""
	}
	switch {
	case lvURL != "" && c.Broker.URL != "" && lvURL != c.Broker.URL:
		l.add("daemon.link_verification.broker_url", "is another name for broker.url, which is set to another URL; set only broker.url")
	case lvURL != "" && c.Broker.URL == "":
		c.Broker.URL = lvURL
	}
	// broker_url keeps reading as the specification's default when no
	// broker is configured; nothing connects to it then.
	lv.BrokerURL = c.Broker.URL
	if lv.BrokerURL == "" {
		lv.BrokerURL = DefaultBrokerURL
	}

	eb := c.Daemon.EmbeddedBroker
	hostSet, portSet := present["daemon.embedded_broker.host"], present["daemon.embedded_broker.port"]
	if hostSet || portSet {
		defHost, defPort, _ := net.SplitHostPort(DefaultEmbeddedListen)
		host, port := defHost, defPort
		if hostSet {
			host = eb.Host
		}
		if portSet {
			port = strconv.Itoa(eb.Port)
		}
		listen := net.JoinHostPort(host, port)
		switch {
		case c.Broker.Embedded.Listen != "" && c.Broker.Embedded.Listen != listen:
			l.add("daemon.embedded_broker", "is the older spelling of broker.embedded.listen, which is set to another address; set only broker.embedded.listen")
		default:
			c.Broker.Embedded.Listen = listen
		}
	}

	if !present["site.name"] || c.Site.Name == "" {
		c.Site.Name = DeriveSiteName(c)
	}
	return l
}
