// Errors as values: what a step that can fail returns across a module boundary.

/** What went wrong, in one sentence: what failed, where, what to do. */
export type Failure = { ok: false; error: string };

/** Success carries the fields of `T`. */
export type Result<T extends object = Record<never, never>> = ({ ok: true } & T) | Failure;
