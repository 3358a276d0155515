package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxMessage caps one JSON-RPC message from a client, in bytes, on every transport: a line
// of stdio, the body of an HTTP POST. The largest message a client needs carries a file
// for write_file, at most 10 MiB (jido's file size cap), with its JSON escaping. A larger
// message is refused with an error; the rest of an oversized stdio line is read and
// dropped, never held whole.
const MaxMessage = 16 << 20

// maxID is the largest integer id taken: the SDK carries ids as float64, which holds
// integers exactly up to 2^53, and an answer must carry back the id it answers.
const maxID = 1<<53 - 1

// tooLarge is the error that answers a message over MaxMessage.
var tooLarge = &jsonrpc.Error{
	Code:    jsonrpc.CodeInvalidRequest,
	Message: fmt.Sprintf("the message is over %d MiB, the cap of one message (jido mcp): it was dropped", MaxMessage>>20),
}

// decodeMessage decodes one message of a client. Bytes that are not one get the error to
// answer them with and the id to answer (the message's own when it has a valid one,
// otherwise none, sent as null as JSON-RPC 2.0 says): -32700 for what is not JSON (or not
// UTF-8), -32600 for JSON that is not a JSON-RPC 2.0 request, notification or response as
// MCP has them (one object, "jsonrpc":"2.0", a string method, an id that is a string or an
// integer and never null).
func decodeMessage(data []byte) (jsonrpc.Message, jsonrpc.ID, *jsonrpc.Error) {
	if !utf8.Valid(data) {
		return nil, jsonrpc.ID{}, parseError("the message is not UTF-8")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		if _, notObject := errors.AsType[*json.UnmarshalTypeError](err); !notObject {
			return nil, jsonrpc.ID{}, parseError("the message is not JSON: " + err.Error())
		}
		if bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) {
			return nil, jsonrpc.ID{}, invalidRequest("a batch (a JSON array of messages): MCP takes one message at a time since protocol 2025-06-18")
		}
		return nil, jsonrpc.ID{}, invalidRequest("not a JSON-RPC message: a JSON object is expected")
	}
	var id jsonrpc.ID
	rawID, hasID := fields["id"]
	if hasID {
		var err error
		if id, err = requestID(rawID); err != nil {
			return nil, jsonrpc.ID{}, invalidRequest(err.Error())
		}
	}
	if string(fields["jsonrpc"]) != `"2.0"` {
		return nil, id, invalidRequest(`not a JSON-RPC 2.0 message: "jsonrpc" must be "2.0"`)
	}
	if method, ok := fields["method"]; ok {
		if !isString(method) {
			return nil, id, invalidRequest(`"method" must be a string`)
		}
	} else {
		_, isResult := fields["result"]
		_, isError := fields["error"]
		if !hasID || !isResult && !isError {
			return nil, id, invalidRequest(`neither a request (no "method") nor a response (an "id" with a "result" or an "error")`)
		}
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return nil, id, invalidRequest(err.Error())
	}
	return msg, id, nil
}

// requestID is the id raw holds: a string, or an integer in ±maxID.
func requestID(raw json.RawMessage) (jsonrpc.ID, error) {
	var s string
	if isString(raw) && json.Unmarshal(raw, &s) == nil {
		return jsonrpc.MakeID(s)
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n > maxID || n < -maxID {
		return jsonrpc.ID{}, fmt.Errorf(`"id" must be a string or an integer of at most 53 bits, not %.40s`, raw)
	}
	return jsonrpc.MakeID(float64(n))
}

// isString reports whether raw, a JSON value, is a string (json.Unmarshal takes null
// into a string too).
func isString(raw json.RawMessage) bool { return bytes.HasPrefix(raw, []byte(`"`)) }

// parseError is a -32700 Parse error.
func parseError(msg string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "Parse error: " + msg}
}

// invalidRequest is a -32600 Invalid Request.
func invalidRequest(msg string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request: " + msg}
}

// errorResponse is the JSON of a response to id (null when it is not valid) with e.
func errorResponse(id jsonrpc.ID, e *jsonrpc.Error) []byte {
	data, _ := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", id.Raw(), e})
	return data
}

// protocolError is err as a JSON-RPC error: itself when it carries a code, otherwise an
// internal error (-32603) with its message, and a ToolError's JSON as data. The SDK would
// send an error without a code as code 0, which JSON-RPC does not define.
func protocolError(err error) error {
	if err == nil {
		return nil
	}
	if coded, ok := errors.AsType[*jsonrpc.Error](err); ok && coded.Code != 0 {
		return err
	}
	out := &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	if te, ok := errors.AsType[*definitions.ToolError](err); ok {
		out.Data, _ = encode(te)
	}
	return out
}
