package client

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxEventBytes is the default bound on one line of a server-sent
// event stream and on one event's data: 4 MiB, the default message limit
// of a toolgate server (which refuses an event that, framed, exceeds its
// limit with codes.ResourceExhausted).
const DefaultMaxEventBytes = 4 << 20

// ErrEventTooLong is wrapped by the error an SSEReader returns when a line
// of the stream, or the data of one event, is longer than its bound.
var ErrEventTooLong = errors.New("client: server-sent event too long")

// An SSEEvent is one event of a server-sent event stream.
type SSEEvent struct {
	// Type is the value of the event's "event:" field; "" when it had
	// none (the HTML standard calls that type "message").
	Type string
	// Data is the values of the event's "data:" lines joined with "\n":
	// for a provider stream, one JSON payload. It is empty for an event
	// that has a type and no data line (see SSEReader).
	Data string
	// ID is the stream's last event ID: the value of the latest "id:"
	// field so far, in this event or an earlier one.
	ID string
}

// An SSEReader reads server-sent events (the text/event-stream format of
// the WHATWG HTML standard) from a provider's HTTP response body, one event
// at a time, as soon as the blank line that ends it has arrived. Lines may
// end in CRLF, LF or CR; lines starting with ':' are comments; a leading
// byte order mark is skipped; a "data:" line's value is appended to the
// event's data ("\n" between two lines), and one space after the colon is
// dropped. Fields other than event, data and id (retry, unknown names) are
// ignored.
//
// A blank-line-terminated block without any data line is dropped, as the
// HTML standard says, unless it has an "event:" field with a non-empty
// value: an SSEReader returns that event, with empty Data. This departs
// from the standard on purpose: the providers' SDKs (openai-python and
// anthropic-sdk-python, whose decoders dispatch a block with only an event
// name) read such an event, and raise on an "error" event without data,
// so dropping it would hide from toolgate an error that the application
// sees. An "event:" field whose value is empty names no event, and a block
// with only id or retry fields is dropped.
//
// An SSEReader does not decode UTF-8: an event's fields hold the stream's
// bytes as they are, even where they are not valid UTF-8 (which the HTML
// standard replaces with U+FFFD, and ValidateProviderStream refuses with
// ErrInvalidUTF8).
//
// ValidateProviderStream uses an SSEReader; it is exported for callers that
// read a provider stream themselves, for example to show the text deltas in
// a UI. An SSEReader buffers its input and is not safe for concurrent use.
type SSEReader struct {
	br      *bufio.Reader
	max     int
	line    []byte
	data    []byte
	hasData bool   // a data field was seen since the last dispatch
	typ     string // the pending event's type
	id      string // the last event ID
	skipLF  bool   // the previous line ended in CR: an LF right after is part of it
	started bool   // the byte order mark check is done
	fields  bool   // a line that is neither blank nor a comment was read
	readErr error  // a read error of the byte order mark check, due once the bytes before it are read
	err     error  // sticky error
}

// NewSSEReader returns an SSEReader that reads r. maxBytes bounds the
// length of every line and the data of every event; 0 or less means
// DefaultMaxEventBytes.
func NewSSEReader(r io.Reader, maxBytes int) *SSEReader {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxEventBytes
	}
	return &SSEReader{br: bufio.NewReader(r), max: maxBytes}
}

// Next returns the next event. At the end of the input it returns io.EOF;
// as the HTML standard says, an event whose closing blank line is missing
// there is dropped. A line or an event's data longer than the reader's
// bound is an error wrapping ErrEventTooLong; a read error of the
// underlying reader is returned as it is. After an error, Next returns the
// same error again.
func (r *SSEReader) Next() (SSEEvent, error) {
	if r.err != nil {
		return SSEEvent{}, r.err
	}
	for {
		line, err := r.readLine()
		if err != nil {
			if len(r.line) > 0 && r.line[0] != ':' {
				r.fields = true // an unterminated last line, which readLine leaves in r.line
			}
			r.err = err
			return SSEEvent{}, err
		}
		if len(line) == 0 { // dispatch
			if !r.hasData && r.typ == "" {
				continue
			}
			ev := SSEEvent{Type: r.typ, Data: string(r.data), ID: r.id}
			r.data, r.hasData, r.typ = r.data[:0], false, ""
			return ev, nil
		}
		if line[0] == ':' {
			continue // comment
		}
		r.fields = true
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			n := len(r.data) + len(value)
			if r.hasData {
				n++
			}
			if n > r.max {
				r.err = r.tooLong("event data")
				return SSEEvent{}, r.err
			}
			if r.hasData {
				r.data = append(r.data, '\n')
			}
			r.data, r.hasData = append(r.data, value...), true
		case "event":
			r.typ = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				r.id = string(value)
			}
		}
	}
}

// readLine returns the next line without its end (CRLF, LF or CR). The
// line is valid until the next call. It blocks only when nothing is
// buffered: a CR is a line end at once, and an LF that follows it is
// skipped when it arrives.
func (r *SSEReader) readLine() ([]byte, error) {
	if !r.started {
		r.started = true
		// Peek hands over, and bufio forgets, the error that cut the
		// first bytes short: keep it for when they are consumed.
		b, err := r.br.Peek(3)
		if bytes.Equal(b, []byte("\xef\xbb\xbf")) {
			_, _ = r.br.Discard(3)
		}
		r.readErr = err
	}
	r.line = r.line[:0]
	for {
		if r.br.Buffered() == 0 {
			if r.readErr != nil {
				return nil, r.readErr
			}
			if _, err := r.br.Peek(1); err != nil {
				return nil, err
			}
		}
		buf, _ := r.br.Peek(r.br.Buffered())
		if r.skipLF {
			r.skipLF = false
			if buf[0] == '\n' {
				_, _ = r.br.Discard(1)
				continue
			}
		}
		i := bytes.IndexAny(buf, "\r\n")
		n := i
		if i < 0 {
			n = len(buf)
		}
		if len(r.line)+n > r.max {
			return nil, r.tooLong("line")
		}
		r.line = append(r.line, buf[:n]...)
		if i < 0 {
			_, _ = r.br.Discard(n)
			continue
		}
		_, _ = r.br.Discard(i + 1)
		r.skipLF = buf[i] == '\r'
		return r.line, nil
	}
}

func (r *SSEReader) tooLong(what string) error {
	return fmt.Errorf("%w: %s longer than %d bytes", ErrEventTooLong, what, r.max)
}
