// How long a provider request may take to answer and to go quiet, and how much it may send. The
// defaults suit the public APIs; config.json can change each one (see config.ts).

export type StreamLimits = {
  /** From sending the request to the response headers, per attempt. */
  connectTimeoutMs: number;
  /** Longest silence (not one byte) while a response streams. */
  idleTimeoutMs: number;
  /** Longest stretch with only SSE comment pings and no event: a server that only keeps the line alive has hung. */
  pingTimeoutMs: number;
  /** Most streamed text (answer, thinking and tool arguments together) one response may carry. */
  maxResponseBytes: number;
};

export const DEFAULT_LIMITS: StreamLimits = {
  connectTimeoutMs: 30_000,
  idleTimeoutMs: 90_000,
  pingTimeoutMs: 5 * 60_000,
  maxResponseBytes: 32 * 1024 * 1024,
};

/** Retry-After waits up to this long are waited (visibly); a server asking for more gets a clear error instead. */
export const MAX_RETRY_WAIT_MS = 60_000;
