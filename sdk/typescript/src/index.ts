// @zot/ext — the TypeScript SDK for zot extensions. Runs under Bun and Node >= 20, zero dependencies.
export { Extension } from "./extension.ts";
export { display, error, imageBlock, insert, noop, openPanel, prompt, result, text, textBlock } from "./responses.ts";
export type * from "./types.ts";
export type { Listening } from "./websocket.ts";
