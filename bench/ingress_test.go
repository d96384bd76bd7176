package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestIngressFiguresServeTheListing(t *testing.T) {
	s, err := ingressFigures(context.Background(), 1, 40)
	if err != nil {
		t.Fatal(err)
	}
	if s.Paths != 10000 || s.BodyBytes == 0 || len(s.NotModified) != 1 || len(s.Full) != 1 || s.NotModified[0] <= 0 || s.Full[0] <= 0 {
		t.Fatalf("%+v", s)
	}
}

func TestDriveFailsOnAnUnexpectedStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "no key", http.StatusUnauthorized)
	}))
	defer srv.Close()
	if _, err := drive(context.Background(), srv.URL, http.Header{}, http.StatusOK, 5); err == nil || !strings.Contains(err.Error(), "status 401, want 200") {
		t.Fatalf("a refused request was counted: %v", err)
	}
}
