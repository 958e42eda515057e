// zot.demo: a zot extension in Go (raw protocol: one JSON object per line on stdin/stdout).
// Build with: go build -o zot.demo .
// To add a tool: send another register_tool frame under hello_ack, and in the tool_call case
// decode a Name field (`json:"name"`) and answer by it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

var out = json.NewEncoder(os.Stdout)

func send(frame map[string]any) {
	if err := out.Encode(frame); err != nil {
		fmt.Fprintln(os.Stderr, "write:", err)
		os.Exit(1)
	}
}

func main() {
	send(map[string]any{"type": "hello", "name": "zot.demo", "version": "0.1.0", "capabilities": []string{"commands", "tools"}})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1024*1024), 64*1024*1024)
	for in.Scan() {
		var msg struct {
			Type string          `json:"type"`
			ID   string          `json:"id"`
			Args json.RawMessage `json:"args"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil {
			continue
		}
		switch msg.Type {
		case "hello_ack":
			send(map[string]any{"type": "register_command", "name": "zot-demo", "description": "say hello from zot.demo"})
			send(map[string]any{"type": "register_tool", "name": "zot_demo_echo", "description": "Echo the given text back.",
				"schema": json.RawMessage("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\",\"description\":\"text to echo back\"}},\"required\":[\"text\"]}")})
			send(map[string]any{"type": "ready"})
		case "command_invoked":
			var args string
			json.Unmarshal(msg.Args, &args)
			text := "hello from zot.demo"
			if args != "" {
				text += ": " + args
			}
			send(map[string]any{"type": "command_response", "id": msg.ID, "action": "display", "display": text})
		case "tool_call":
			var args struct {
				Text string `json:"text"`
			}
			json.Unmarshal(msg.Args, &args)
			send(map[string]any{"type": "tool_result", "id": msg.ID,
				"content": []map[string]any{{"type": "text", "text": args.Text}}})
		case "shutdown":
			send(map[string]any{"type": "shutdown_ack"})
			return
		}
	}
}
