package agent

import (
	"bytes"
	"encoding/json"
)

// RenderResult is the JSON object a model is shown for a tool result, whatever the wire:
// {"id", "name", "ok": true, "result"} or {"id", "name", "ok": false, "error"}, with "note"
// when the content was shortened. Content that is not valid JSON is sent as a string.
// <, > and & are left as they are: models read code, not HTML.
func RenderResult(r ToolResult) json.RawMessage {
	content := r.Content
	if !json.Valid(content) {
		content, _ = json.Marshal(string(content)) // a string always marshals
	}
	obj := struct {
		ID     string          `json:"id,omitempty"`
		Name   string          `json:"name"`
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result,omitempty"`
		Error  json.RawMessage `json:"error,omitempty"`
		Note   string          `json:"note,omitempty"`
	}{ID: r.CallID, Name: r.Name, OK: r.OK, Note: r.Note}
	if r.OK {
		obj.Result = content
	} else {
		obj.Error = content
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(obj) // strings and valid raw JSON always encode
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
