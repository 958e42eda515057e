// Server-sent events as Streamable HTTP uses them: `event:`/`data:` fields, events ended by a blank
// line, multi-line data joined with "\n". Only what the MCP transport needs (no retry, no ids).
export type SseEvent = { event: string; data: string };

/** Calls `onEvent` for each complete event; resolves when the stream ends or fails. */
export async function readSse(body: ReadableStream<Uint8Array>, onEvent: (e: SseEvent) => boolean | void): Promise<void> {
  let event = "message";
  let data: string[] = [];
  let stop = false;
  const dispatch = () => {
    if (data.length > 0 && onEvent({ event, data: data.join("\n") }) === true) stop = true;
    event = "message";
    data = [];
  };
  // Blank lines matter here (they end an event), so this splits lines itself instead of using
  // LineReader, which skips them.
  const decoder = new TextDecoder();
  let carry = "";
  const reader = body.getReader();
  try {
    while (!stop) {
      const { value, done } = await reader.read();
      if (done) break;
      carry += decoder.decode(value, { stream: true });
      let nl: number;
      while (!stop && (nl = carry.indexOf("\n")) >= 0) {
        let line = carry.slice(0, nl);
        carry = carry.slice(nl + 1);
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === "") dispatch();
        else if (line.startsWith(":")) continue;
        else {
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? "" : line.slice(colon + 1);
          if (value.startsWith(" ")) value = value.slice(1);
          if (field === "data") data.push(value);
          else if (field === "event") event = value;
        }
      }
    }
    if (!stop) dispatch();
  } catch {
    // A broken connection ends the stream; the caller decides what a missing answer means.
  } finally {
    if (stop) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
