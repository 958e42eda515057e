// Server-sent events as Streamable HTTP uses them: `event:`/`data:` fields, events ended by a blank
// line, multi-line data joined with "\n". Only what the MCP transport needs (no retry, no ids).
// One event may be as large as one stdio message, no larger: a server that never ends a line or
// an event is stopped there instead of growing zot's memory.
import { MAX_LINE_BYTES } from "../ext/lines.ts";
import { BodyError, origin, sizeText, type HttpResponse } from "../platform/http.ts";

export type SseEvent = { event: string; data: string };

/**
 * Calls `onEvent` for each complete event until it returns true or the stream ends; resolves with
 * why the stream was stopped when it was too large (a clause), else undefined.
 */
export async function readSse(res: HttpResponse, onEvent: (e: SseEvent) => boolean | void, maxEventBytes = MAX_LINE_BYTES): Promise<string | undefined> {
  let event = "message";
  let data: string[] = [];
  let held = 0;
  const dispatch = (): boolean => {
    const stop = data.length > 0 && onEvent({ event, data: data.join("\n") }) === true;
    event = "message";
    data = [];
    held = 0;
    return stop;
  };
  try {
    for await (const line of res.lines(maxEventBytes)) {
      if (line === "") {
        if (dispatch()) return undefined;
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "data") {
          held += value.length;
          if (held > maxEventBytes) {
            await res.discard();
            return `${origin(res.url)} sent an event larger than ${sizeText(maxEventBytes)}, so the stream was stopped`;
          }
          data.push(value);
        } else if (field === "event") event = value;
      }
    }
    dispatch();
  } catch (e) {
    // A broken connection ends the stream; the caller decides what a missing answer means.
    if (e instanceof BodyError && e.kind === "too_large") return e.message;
  }
  return undefined;
}
